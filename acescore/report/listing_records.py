"""The ``-s`` listings and the ``-a``/``-e`` mapping listings of document shards
(``acescore score --jobs N``: :mod:`acescore.run.shards`), as records that merge.

One process prints, per pass, a listing as a header and then one block per element in
element-ID order over the whole corpus -- the ``-s`` listings (REF, then TST) every element
of one side sorted by ID, the mapping listing every REF element sorted by ID, then every
SYS element without a REF partner sorted by ID -- and the ``-s`` document lists in DOCID
order (:mod:`acescore.report.nist.diagnostics`, :mod:`acescore.report.nist.mappings`).  The JSON
follows the same orders: ``mappings`` the records of the pass's document-level records
(REF elements by ID, then SYS elements by ID), ``listing`` each side by ID, ``summary``
the DOCIDs sorted.

Under a local parameter set (or a global one that :func:`acescore.run.shards.plan` could cut
into linked components) no element, mention or document is in two shards, and everything
a block shows is of its own element and its documents: the same text in a shard as in one
process.  So each shard sends its blocks with their sort keys (element ID, or (0, REF ID)
/ (1, SYS ID), or DOCID) and the merge puts them in key order (:func:`heapq.merge` of the
shards' sorted runs) under the one header.
"""

from __future__ import annotations

from heapq import merge
from itertools import pairwise
from operator import itemgetter

from acescore.report.data.machine import listing_json, mappings_json
from acescore.report.nist.blocks import packed
from acescore.report.nist.diagnostics import document_lines, documents_listing, listing_blocks
from acescore.report.nist.mappings import mapping_blocks
from acescore.writing.spool import coalesced

_KEY = itemgetter(0)


def wanted(options) -> bool:
    """Whether a run prints listings (``-s``, ``-a``, ``-e``)."""
    return bool(options.listings)


def pass_records(ctx, res, tables=None) -> dict | None:
    """In a shard: the listings of one pass (``ctx``: its
    :class:`~acescore.report.outputs.ReportContext`; ``tables``: its PassTables, if at
    hand), or None where none is asked for.  Text as :meth:`Blocks.pieces` (the mapping
    listing's REF and SYS blocks apart: :meth:`Blocks.pieces_by_group`), to be sent as
    :func:`spooled` makes it; data (JSON, ``options.listing_data``) as (key, item)
    lists."""
    opts = ctx.options
    if not wanted(opts):
        return None
    out: dict = {}
    if opts.summary:
        for side in ("REF", "SYS"):
            out[side] = listing_blocks(ctx, res, side).pieces()
        if opts.listing_data:
            out["listing"] = {
                side: [(item["id"], item) for item in items]
                for side, items in listing_json(res).items()
            }
    if opts.all_mappings or opts.error_mappings:
        out["mapping"], out["mapping_sys"] = mapping_blocks(
            ctx, res, all_blocks=opts.all_mappings
        ).pieces_by_group()
        if opts.listing_data:
            out["mappings"] = [
                ((0, item["ref"]) if item["ref"] is not None else (1, item["sys"]), item)
                for item in mappings_json(res, not opts.all_mappings, tables)
            ]
    return out


_TEXTS = ("REF", "SYS", "mapping", "mapping_sys")


def spooled(records: dict | None, writer) -> dict | None:
    """In a shard: :func:`pass_records` as sent, each listing's text written to the
    shard's spool file (``writer``: :class:`acescore.writing.spool.SpoolWriter`, or None) and sent
    as its :class:`~acescore.writing.spool.Span` and the blocks' offsets in bytes, or where it
    cannot be, as :meth:`Blocks.packed` (the text and its blocks' offsets)."""
    if records is None:
        return records
    for name in _TEXTS:
        pieces = records.get(name)
        if pieces is not None and isinstance(pieces[2], list):
            head, keys, parts, firsts = pieces
            put = writer.put(parts, firsts) if writer is not None else None
            records[name] = (head, keys, *put) if put is not None else packed(pieces)
    return records


def _merged(runs: list) -> list:
    """The payloads of several shards' (key, payload) runs, in key order."""
    if len(runs) == 1:
        return [x for _, x in runs[0]]
    return [x for _, x in merge(*runs, key=_KEY)]


def _group(key) -> object:
    """The part of a listing a key belongs to: (0, REF ID) REF blocks, (1, SYS ID) SYS."""
    return key[0] if isinstance(key, tuple) else 0


def _text(parts: list, name: str) -> list:
    """One listing from the shards' packed blocks, in key order (its pieces).  Shards are
    consecutive documents, and IDs usually sort with their documents: then each part of
    the listing is the shards' texts one after the other, and no block needs to be
    moved."""
    packs = [p[name] for p in parts]
    out = [packs[0][0]]

    def cut(n: int, i: int) -> int:
        _, _, text, offsets = packs[n]
        return offsets[i] if i < len(offsets) else len(text)

    segments = []  # (group, shard, first block, end) in shard order
    for n, (_, keys, _, _) in enumerate(packs):
        start = 0
        for i in range(1, len(keys) + 1):
            if i == len(keys) or _group(keys[i]) != _group(keys[start]):
                segments.append((_group(keys[start]), n, start, i))
                start = i
    segments.sort(key=_KEY)  # stable: the shards in order within a group
    if all(packs[a[1]][1][a[3] - 1] < packs[b[1]][1][b[2]] for a, b in pairwise(segments)):
        out.extend(packs[n][2][cut(n, i) : cut(n, j)] for _, n, i, j in segments)
        return out
    runs = [[(k, n, i) for i, k in enumerate(keys)] for n, (_, keys, _, _) in enumerate(packs)]
    for _, n, i in merge(*runs, key=_KEY):
        out.append(packs[n][2][cut(n, i) : cut(n, i + 1)])
    return coalesced(out)


def merged_pass(records: list, options, printed: bool) -> tuple[list, dict]:
    """From the :func:`pass_records` of the shards that scored a pass (shard order): (the
    text before the pass's section -- when it has none, the REF ``-s`` listing only --, as
    pieces: str and :class:`~acescore.writing.spool.Span` -- a listing may be ~100 MB --, what
    ``-a``/``-e``/``-s`` add to its JSON)."""
    parts = [r for r in records if r is not None]
    if not parts:
        return [], {}
    before = _text(parts, "REF") if options.summary else []
    if not printed:
        return before, {}
    data: dict = {}
    if options.summary:
        before += _text(parts, "SYS")
    if options.all_mappings or options.error_mappings:
        before += _text(parts, "mapping")  # the REF elements' blocks
        before += _text(parts, "mapping_sys")[1:]  # the SYS elements' (no header)
        if "mappings" in parts[0]:
            data["mappings"] = _merged([p["mappings"] for p in parts])
    if "listing" in parts[0]:
        data["listing"] = {
            side: _merged([p["listing"][side] for p in parts]) for side in parts[0]["listing"]
        }
    return before, data


def document_records(rside, sside) -> tuple:
    """In a shard: the ``-s`` document lists of its two sides (DOCID, line)."""
    return document_lines(rside, sside)


def merged_documents(records: list) -> tuple[str, dict]:
    """The ``-s`` document lists (text) and the JSON's ``summary`` DOCIDs from the shards'
    :func:`document_records`."""
    lines = tuple(list(merge(*[r[i] for r in records], key=_KEY)) for i in (0, 1))
    return documents_listing(lines), {
        "ref": [d for d, _ in lines[0]],
        "sys": [d for d, _ in lines[1]],
    }
