"""The text of the name and mention detection tables (docs/rules/report.md §4.4-§4.6) and of
the mention role and style confusion matrices, from the counts of
:func:`acescore.report.counts.recognition.pair_stats`.  Each function returns the text of
one block, starting with its leading newline; the older versions' layout is
:mod:`acescore.report.counts.old_names`'s.
"""

from __future__ import annotations

from acescore.report.counts import old_names
from acescore.report.counts.conditions import EPS, STYLES
from acescore.report.counts.recognition import ERROR_TYPES, _inc, _matrix_rows, _short_header

_COUNT_ROW = "%5.5s%8d%7d%6d%7d%6d%9.1f%6.1f%8.1f%6.1f\n"
_COLUMNS = ("fa", "miss", "error", "correct")


def _count_row(label: str, st: dict, tot: int, percents: list) -> str:
    """A row of a detection table: its counts, then ``percents`` (of ``_COLUMNS``)."""
    return _COUNT_ROW % (label, tot, *(st[e] for e in _COLUMNS), *percents)


def name_table(stats: dict, types, old: bool = False) -> str:
    title = "Name Detection and Extent Recognition statistics (for mapped entities):"
    out = [
        "\nName Detection and Extent Recognition statistics (for mapped entities):\n",
        " ref      ____________count____________      ________percent________\n",
        " entity   Ref    Detection   Extent_Rec      Detection    Extent_Rec\n",
        " type     Tot     FA  Miss    Err  Corr       FA  Miss     Err  Corr\n",
    ]
    total = dict.fromkeys(ERROR_TYPES, 0)
    rows = []
    for t in types:
        st = stats.get(t) or dict.fromkeys(ERROR_TYPES, 0)
        for e in ("miss", "fa", "correct", "error"):
            total[e] += st[e]
        rows.append((t, st))
    rows.append(("total", total))
    if old:
        return old_names.count_table(title, "entity", "type", rows, names=True)
    for t, st in rows:
        tot = st["miss"] + st["error"] + st["correct"]
        m = max(tot, 1)
        out.append(_count_row(t, st, tot, [100 * st[e] / m for e in _COLUMNS]))
    return "".join(out)


def _mention_table(detection: dict, params, axis: int, values, title: str) -> str:
    """One mention detection table (``title``: its third header line)."""
    counts = {v: dict.fromkeys(ERROR_TYPES, 0) for v in list(values) + ["total"]}
    for mt in params.mention_types:
        for ro in params.entity_types:
            for sty in STYLES:
                st = detection.get((mt, ro, sty))
                if not st:
                    continue
                key = (mt, ro, sty)[axis]
                for e in ERROR_TYPES:
                    n = st.get(e, 0)
                    counts[key][e] += n
                    counts["total"][e] += n
    if params.nist != "ace08":
        return old_names.count_table(
            "Mention Detection and Extent Recognition statistics (for mapped entities):",
            "mention",
            title.split()[0],
            [(v, counts[v]) for v in list(values) + ["total"]],
            names=False,
        )
    out = [
        "\nMention Detection and Extent Recognition statistics (for mapped entities):\n",
        " ref      ____________count____________      ________percent________\n",
        " mention  Ref    Detection   Extent_Rec      Detection    Extent_Rec\n",
        title,
    ]
    for v in list(values) + ["total"]:
        st = counts[v]
        tot = st["miss"] + st["error"] + st["correct"]
        pn = 100 / max(EPS, tot)
        pct = [pn * st[e] for e in _COLUMNS]
        out.append(_count_row(v, st, tot, [min(999.9, pct[0]), *pct[1:]]))
    return "".join(out)


def mention_tables(detection: dict, params) -> str:
    """The three mention detection tables: by mention type, style, role."""
    return (
        _mention_table(
            detection,
            params,
            0,
            params.mention_types,
            " type     Tot     FA  Miss    Err  Corr       FA  Miss     Err  Corr\n",
        )
        + _mention_table(
            detection,
            params,
            2,
            STYLES,
            " style    Tot     FA  Miss    Err  Corr       FA  Miss     Err  Corr\n",
        )
        + _mention_table(
            detection,
            params,
            1,
            params.entity_types,
            " role     Tot     FA  Miss    Err  Corr       FA  Miss     Err  Corr\n",
        )
    )


def mention_role_style_matrices(role: dict, style: dict, params, source_label: str) -> str:
    types = params.entity_types
    summed: dict = {}
    for host in types:
        for r, row in (role.get(host) or {}).items():
            for t, n in row.items():
                _inc(summed, r, t, n)
    out = [
        f'\nMention Role confusion matrix for "{source_label}" sources (for mapped mentions)\n',
        "  For all mapped mentions:\n",
        "               ___________count___________        __________percent__________\n",
        _short_header(types),
    ]
    out += _matrix_rows(types, summed, "%5.5s       ")
    out += [
        f'\nMention Style confusion matrix for "{source_label}" sources (for mapped mentions):\n',
        "               __count__        _percent_\n",
        _short_header(STYLES),
    ]
    out += _matrix_rows(STYLES, style, "%5.5s       ")
    return "".join(out)


__all__ = ["mention_role_style_matrices", "mention_tables", "name_table"]
