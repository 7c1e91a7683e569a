"""The blocks of the ``-a``/``-e`` mapping listings (docs/rules/report.md §5.3), whatever their
kind (:mod:`acescore.report.nist.mappings`, :mod:`acescore.report.nist.releve_mappings`): each REF
element's block starts in the listing's :class:`~acescore.report.nist.blocks.Blocks` and
is kept only if something in it raised its print flag (``-e``; ``-a`` prints every
block), the blocks of the SYS elements without a REF partner are always printed.  A block
goes into the listing as one string.

With ``-e`` most REF blocks are dropped (no error in them).  Each part of a block first
raises the flag for what is wrong in it, then makes its text (:func:`_later`): at once
where the flag is up, else as a piece (function, arguments) that :func:`_flush_block`
makes only if the flag goes up later in the block.  The text is the same either way."""

from __future__ import annotations

from acescore.report.nist.diagnostics import SEPARATOR, _list_element_attributes, _num


class _Flag:
    """The tool's print flag of one REF block of a mapping listing (``later``: the block
    has pieces to make, :func:`_later`)."""

    __slots__ = ("later", "on")

    def __init__(self, on: bool):
        self.on = on
        self.later = False


def _ref_blocks(out, ctx, all_blocks: bool):
    """The REF elements of a mapping listing in ID order, each starting its block in
    ``out``: (ID, the block's print flag, element, SYS partner's ID and element or None).
    The flag is one object, set for each block (a block is closed before the next one)."""
    res = ctx.res
    ref, sys_, mapping = res.ref, res.sys, res.mapping
    starts = out.starts  # (Blocks.start, inline: a block per element)
    flag = _Flag(all_blocks)  # one flag, lowered again for each block
    for rid in sorted(ref):
        starts.append(((0, rid), len(out)))
        flag.on = all_blocks
        flag.later = False
        sid = mapping.get(rid)
        yield rid, flag, ref[rid], sid, (sys_[sid] if sid is not None else None)


def _later(flag: _Flag, make, *args):
    """A part of a block: ``make(*args)``, its text, if the block's flag is up (the block
    is printed), else the piece ``(make, *args)``, made by :func:`_flush_block` if the
    flag goes up later.  ``make`` raises no flag: what a part flags is flagged before."""
    if flag.on:
        return make(*args)
    flag.later = True
    return (make, *args)


def _flush_block(out: list, block: list, flag, ctx, r, s, details, *args) -> None:
    """Close the mapping block of REF element ``r`` (and its SYS partner ``s``, or None):
    ``details(*args, docid)`` for every evaluated document of either, in DOCID order; the
    block is printed only if something in it was flagged (its pieces made then:
    :func:`_later`)."""
    docs = r.docs
    if s is not None and not s.docs.keys() <= docs.keys():
        docs = docs.keys() | s.docs.keys()
    eval_docs = ctx.eval_docs
    if len(docs) == 1:  # (most blocks: one document)
        for d in docs:
            if d in eval_docs:
                block.append(details(*args, d))
    else:
        for d in sorted(docs):
            if d in eval_docs:
                block.append(details(*args, d))
    if flag.on:
        block.append(SEPARATOR)
        out.append(
            "".join(
                [p if p.__class__ is str else p[0](*p[1:]) for p in block] if flag.later else block
            )
        )


def _unmatched_sys(out, ctx, word: str, head, details, more=None) -> None:
    """The blocks of a mapping listing's SYS elements without a REF partner, in ID order
    (always printed): ``head(s)``, the FA score, ``more(flag, s)`` if given, then
    ``details(flag, s, d)`` for every evaluated document of the element, in DOCID order."""
    res = ctx.res
    eval_docs = ctx.eval_docs
    score = f"      {word} score:  %.5f out of 0.00000\n"
    for sid in sorted(res.sys):
        if sid in res.rmapping:
            continue
        out.start((1, sid))
        s = res.sys[sid]
        flag = _Flag(True)
        block = [head(s), score % _num(res.fa_value.get(sid))]
        if more is not None:
            block.append(more(flag, s))
        for d in sorted(s.docs):
            if d in eval_docs:
                block.append(details(flag, s, d))
        block.append(SEPARATOR)
        out.append("".join(block))


class _Fixed(dict):
    """``"%.5f" % v`` of the scores of the listings, made once per value (``FIXED[v]``:
    most scores of a listing repeat -- 1, the weights of mention types --).  A zero is
    never kept: 0.0 and -0.0 are one key and print differently."""

    def __missing__(self, v) -> str:
        text = "%.5f" % v
        if v:
            if len(self) >= 65536:  # (a bound: a run's values, not a process's)
                self.clear()
            self[v] = text
        return text


FIXED = _Fixed()


def _attributes_text(g, attributes, cache: dict) -> str:
    """:func:`_list_element_attributes`, made once per attribute dict (the promoted
    one-mention elements of a mention-level pass share their host's); ``cache``: the
    listing's (it keeps each dict it has seen, so no ID is used twice)."""
    a = g.attrs
    hit = cache.get(id(a))
    if hit is not None and hit[0] is a:
        return hit[1]
    text = _list_element_attributes(g, attributes)
    cache[id(a)] = (a, text)
    return text
