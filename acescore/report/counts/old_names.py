"""The older versions' names (docs/rules/versions.md §3.4, §4.4): located names, mapped in a
mapped document pair by the largest overlap above the least one; and their Name and
Mention Detection tables."""

from __future__ import annotations

from acescore.model.spans import overlap
from acescore.model.text import old_display_text
from acescore.report.counts.conditions import EPS
from acescore.report.counts.extent import extent_mismatch


def name_map(rd, sd, params) -> dict:
    """REF name index -> SYS name index of a mapped document pair: for each REF name in
    order, the SYS name overlapping it most, strictly more than ``min_overlap`` (the first of
    equal ones); several REF names may take the same SYS name."""
    out = {}
    snames = sd.located_names
    for i, (rloc, _) in enumerate(rd.located_names):
        best = params.min_overlap
        for j, (sloc, _) in enumerate(snames):
            o = overlap(rloc, sloc)
            if o > best:
                best = o
                out[i] = j
    return out


def name_counts(rd, sd, params) -> tuple:
    """(correct, miss, fa, error) of the names of a mapped document pair (name extents
    within the extent tolerance are correct)."""
    nmap = name_map(rd, sd, params)
    correct = error = 0
    rnames, snames = rd.located_names, sd.located_names
    for i, j in nmap.items():
        if extent_mismatch(rnames[i][0], snames[j][0], params) <= 1:
            correct += 1
        else:
            error += 1
    fa = len(snames) - len(set(nmap.values()))
    return correct, len(rnames) - len(nmap), fa, error


# ---- name and mention detection tables (docs/rules/versions.md §4.4, §4.5) ------------------

_COUNT_ROW = "%5.5s%8d%6d%9d%6d%6d%11.1f%6.1f%9.1f%6.1f%6.1f\n"


def count_table(title: str, label1: str, label2: str, rows: list, names: bool) -> str:
    """A Name (``names``) or Mention Detection table of the older versions: ``rows`` are
    (label, {miss, fa, error, correct}); percentages of miss+error+correct (names: of at
    least 1, uncapped; mentions: FA capped at 999.9)."""
    out = [
        f"\n{title}\n",
        " ref     ____________count______________       ____________percent____________\n",
        " %-7s Detection     Extent_Recognition      Detection     Extent_Recognition\n" % label1,
        " %-7s miss    fa     miss   err  corr       miss    fa     miss   err  corr\n" % label2,
    ]
    for label, st in rows:
        tot = st["miss"] + st["error"] + st["correct"]
        pn = 100 / max(tot, 1) if names else 100 / max(EPS, tot)
        fa = pn * st["fa"] if names else min(999.9, pn * st["fa"])
        out.append(
            _COUNT_ROW
            % (
                label,
                st["miss"],
                st["fa"],
                st["miss"],
                st["error"],
                st["correct"],
                pn * st["miss"],
                fa,
                pn * st["miss"],
                pn * st["error"],
                pn * st["correct"],
            )
        )
    return "".join(out)


def mapping_name_lines(rd, sd, params, mapped: bool) -> tuple[str, bool]:
    """The name lines of the older versions' ``-a``/``-e`` entity listings for one
    document (``rd``/``sd``: the REF and SYS document elements, either None; ``mapped``:
    they are a mapped pair): REF and SYS names in locator order, mapped SYS names left out.
    Returns the text and whether a line reports an error."""
    rnames = rd.located_names if rd is not None else ()
    snames = sd.located_names if sd is not None else ()
    nmap = name_map(rd, sd, params) if mapped and rd is not None and sd is not None else {}
    taken = set(nmap.values())
    items = [(loc.start, 0, i) for i, (loc, _) in enumerate(rnames)]
    items += [(loc.start, 1, j) for j, (loc, _) in enumerate(snames)]
    items.sort(key=lambda t: t[0])  # stable: REF names before SYS names at one offset
    out = []
    error = False
    for _, side, k in items:
        if side == 1 and k in taken:
            continue
        loc = (rnames if side == 0 else snames)[k][0]
        text = _text(loc)
        if side == 0 and k in nmap:
            sloc = snames[nmap[k]][0]
            if extent_mismatch(loc, sloc, params) <= 1:
                out.append(f'         ref name="{text}"\n')
            else:
                error = True
                out.append(f'>>>    ref name extent = "{text}"\n')
                out.append(f'>>>    tst name extent = "{_text(sloc)}" -- NAME EXTENT MISMATCH\n')
        else:
            error = True
            word, other = ("ref", "TST") if side == 0 else ("tst", "REF")
            out.append(f'>>>      {word} name="{text}" -- NO MATCHING {other} NAME\n')
    return "".join(out), error


def _text(loc) -> str:
    return old_display_text(loc.text) if loc.text else "???"


def longest_text(g) -> str:
    """``, name="…"`` (the longest name), else the longest head, else extent: the older
    versions' display texts, longest in bytes, the first of equal ones."""
    for tag in ("name", "head", "extent"):
        best = ""
        for d in sorted(g.docs):
            x = g.docs[d]
            if tag == "name":
                locs = [loc for loc, _ in getattr(x, "located_names", ())]
            else:
                locs = [getattr(m, tag, None) for m in x.mentions]
            for loc in locs:
                if loc is None or not loc.text:
                    continue
                t = old_display_text(loc.text)
                if _nbytes(t) > _nbytes(best):
                    best = t
        if best:
            return f', {tag}="{best}"'
    return ""


def _nbytes(t: str) -> int:
    return len(t.encode("utf-8", "surrogateescape"))
