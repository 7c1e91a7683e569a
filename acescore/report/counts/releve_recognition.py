"""Relation and event recognition tables (docs/rules/report.md §4.7): the Type, Subtype and
Modality confusion matrices and the argument-role statistics of relations and events."""

from collections import Counter

from acescore.report.counts.conditions import UNDEF, truthy
from acescore.report.counts.recognition import _NO_MAP, _SUBTYPE, DocPairs, _inc, _matrix_rows


def _dots(n: int) -> str:
    return "." * (6 * (n - 1)) if n > 1 else ""


def releve_matrix(name: str, what: str, stats: dict | None, values, source_label: str) -> str:
    """The Type or Modality matrix: ``what`` is ``Type`` or ``Modality``."""
    title = f'{name} {what} confusion matrix for "{source_label}" sources (for mapped {name}s):'
    n = len(values)
    out = [
        "\n" + title[:1].upper() + title[1:] + "\n",
        "             COUNT" + _dots(n) + "    PERCENT" + _dots(n) + "\n    ref\\tst:",
        "".join(" %5.5s" % v for v in values),
        "     ",
        "".join(" %5.5s" % v for v in values),
        "\n",
    ]
    out += _matrix_rows(values, stats or {}, "%11.11s ")
    return "".join(out)


def subtype_stats(result, pairs=None) -> dict:
    """REF element TYPE -> {ref doc SUBTYPE -> {sys doc SUBTYPE -> n}}."""
    pairs = DocPairs.of(result, pairs)
    stats: dict = {}
    for (t, x, y), n in Counter(
        zip(pairs.types, map(_SUBTYPE, pairs.rds), map(_SUBTYPE, pairs.sds))
    ).items():
        _inc(stats.setdefault(t, {}), x if truthy(x) else UNDEF, y if truthy(y) else UNDEF, n)
    return stats


def releve_subtype_matrices(
    name: str, stats: dict, types, subtypes: dict, source_label: str
) -> str:
    out = []
    title = f'{name} Subtype confusion matrix for "{source_label}" sources (for mapped {name}s):'
    title = title[:1].upper() + title[1:]
    for t in types:
        st = stats.get(t)
        if not st:
            continue
        subs = sorted(subtypes.get(t, ()))
        m = len(subs)
        out.append("\n" + title + "\n")
        out.append(
            "  type=%-5.5s" % t
            + " COUNT"
            + _dots(m)
            + "    PERCENT"
            + _dots(m)
            + "\n    ref\\tst: "
        )
        out.append(
            "".join("%5.5s " % s for s in subs)
            + "     "
            + "".join("%5.5s " % s for s in subs)
            + "\n"
        )
        out += _matrix_rows(subs, st, "%11.11s ")
    return "".join(out)


ROLE_LEVELS = ("MAPPED", "MATCHING_TYPE", "MATCHING_SUBTYPE")
ROLE_LABELS = {
    "MAPPED": "argument ROLE for all types and all subtypes ",
    "MATCHING_TYPE": "argument ROLE for all types and all subtypes for matching TYPE",
    "MATCHING_SUBTYPE": "argument ROLE for all types and all subtypes for matching TYPE and SUBTYPE",
}


def role_stats(result, pairs=None) -> dict:
    """level -> {ref role -> {sys role -> n}} (docs/rules/report.md §4.7.4), all types and subtypes.

    Every doc-mapped document of a mapped element counts the element's argument pairs once
    at the MAPPED level, and at the MATCHING_TYPE / MATCHING_SUBTYPE levels if the two
    document elements agree on TYPE / SUBTYPE (integer counts: order does not matter)."""
    stats: dict = {lv: {} for lv in ROLE_LEVELS}
    mapped, same_type, same_subtype = (stats[lv] for lv in ROLE_LEVELS)
    pairs = DocPairs.of(result, pairs)
    # per mapped element: its doc-mapped documents, those agreeing on TYPE, on SUBTYPE
    docs: dict = {}
    for key, t, st in zip(
        zip(pairs.rids, pairs.sids), pairs.fields_agree("type"), pairs.fields_agree("subtype")
    ):
        c = docs.get(key)
        if c is None:
            docs[key] = [1, t, st]
        else:
            c[0] += 1
            c[1] += t
            c[2] += st
    ref, sys = result.ref, result.sys
    amap_get = result.argument_map.get
    at_level: tuple = ([], [], [])  # the (ref role, sys role) pairs counted per level
    arg_pairs_of: dict = {}
    for key, counts in docs.items():
        amap = amap_get(key) or _NO_MAP
        ref_to_sys = {}
        for (srole, _), (rrole, rarg) in amap.items():
            ref_to_sys[(rrole, rarg)] = srole
        get = ref_to_sys.get
        arg_pairs = []
        add = arg_pairs.append
        for role, ids in ref[key[0]].arguments.items():
            for aid in ids:
                add((role, get((role, aid), UNDEF)))
        for role, ids in sys[key[1]].arguments.items():
            for aid in ids:
                if (role, aid) not in amap:
                    add((UNDEF, role))
        arg_pairs_of[key] = arg_pairs
        for lst, n in zip(at_level, counts):
            if n == 1:
                lst += arg_pairs
            elif n:
                lst += arg_pairs * n
    for level, lst in zip((mapped, same_type, same_subtype), at_level):
        for (r, t), n in Counter(lst).items():
            _inc(level, r, t, n)
    # the older versions: once per mapped element (docs/rules/versions.md §4.1)
    stats["ELEMENT"] = element = {}
    for (r, t), n in Counter(p for key in docs for p in arg_pairs_of[key]).items():
        _inc(element, r, t, n)
    return stats
