"""Recognition tables (docs/rules/report.md §4): ``Recognition statistics`` blocks, confusion
matrices, and the counts of the name and mention detection tables (their text:
:mod:`acescore.report.counts.detection_text`).

Data functions (``*_stats``) count pairs over the doc-mapped REF document elements; all of
them count integers, so their traversal order does not matter (docs/rules/determinism.md §2.7).  Printing functions
return the text of one block, starting with its leading newline.
"""

from __future__ import annotations

from collections import Counter
from itertools import repeat
from operator import attrgetter, eq

from acescore.report.counts import old_names
from acescore.report.counts.conditions import EPS, UNDEF, attribute_codes, encode, truthy
from acescore.report.counts.extent import extent_mismatch

OTHERS = "all others"
MAX_DISPLAY = 10
_DASH = "      -     "
_NA = "     N/A    "


def _inc(table: dict, a, b, n: int = 1) -> None:
    row = table.get(a)
    if row is None:
        row = table[a] = {}
    row[b] = row.get(b, 0) + n


def doc_mapped_pairs(result) -> list:
    """(REF element, SYS element, docid) of every doc-mapped REF document element, in
    canonical order (REF IDs, then DOCIDs)."""
    out = []
    for rid in sorted(result.mapping):
        sid = result.mapping[rid]
        g, sg = result.ref[rid], result.sys[sid]
        sdocs = sg.docs
        for d in sorted(g.docs):
            if d in sdocs:
                out.append((g, sg, d))
    return out


class DocPairs:
    """The doc-mapped REF document elements of a pass as columns, in canonical order (REF
    IDs, then DOCIDs): the REF and SYS element IDs (``rids``, ``sids``), ``docids``, the
    REF and SYS document elements (``rds``, ``sds``) and the TYPE attribute of the REF
    elements (``types``).  Iterating gives the (REF element, SYS element, docid) triples
    of :func:`doc_mapped_pairs`.  The IDs key ``name_map`` and ``mention_map``; they are
    the keys of ``result.ref`` / ``result.sys``, which are the element IDs."""

    __slots__ = ("_codes", "docids", "rds", "result", "rids", "sds", "sids", "types")

    def __init__(
        self,
        result,
        rids: list,
        sids: list,
        docids: list,
        rds: list,
        sds: list,
        types: list | None = None,
    ):
        self.result = result
        self.rids, self.sids, self.docids, self.rds, self.sds = rids, sids, docids, rds, sds
        if types is None:
            types = list(
                map(dict.get, map(_ATTRS, map(result.ref.__getitem__, rids)), repeat("TYPE"))
            )
        self.types = types
        self._codes: dict = {}

    @classmethod
    def of(cls, result, pairs=None) -> DocPairs:
        """``pairs`` itself if it is a DocPairs; else the columns of ``pairs`` (triples, by
        default :func:`doc_mapped_pairs`)."""
        if isinstance(pairs, DocPairs):
            return pairs
        if pairs is None:
            pairs = doc_mapped_pairs(result)
        return cls(
            result,
            [g.id for g, _, _ in pairs],
            [sg.id for _, sg, _ in pairs],
            [d for _, _, d in pairs],
            [g.docs[d] for g, _, d in pairs],
            [sg.docs[d] for _, sg, d in pairs],
            [g.attrs.get("TYPE") for g, _, _ in pairs],
        )

    def __iter__(self):
        ref, sys = self.result.ref, self.result.sys
        return zip(map(ref.__getitem__, self.rids), map(sys.__getitem__, self.sids), self.docids)

    def __len__(self) -> int:
        return len(self.docids)

    def attribute_codes(self, attributes) -> tuple:
        """(REF codes, SYS codes, names): the ``attributes`` values of the REF and SYS
        document elements as tuples, encoded in one code space (see
        :func:`~acescore.report.counts.conditions.attribute_codes`)."""
        attributes = tuple(attributes)
        t = self._codes.get(attributes)
        if t is None:
            t = self._codes[attributes] = attribute_codes(
                self.rds, self.sds, attributes, self._codes
            )
        return t

    def fields_agree(self, field: str) -> list:
        """Per pair: 1 if ``(rd.field or "") == (sd.field or "")``, else 0."""
        raw = self._codes.get("raw")
        if raw is None:
            self.attribute_codes(())
            raw = self._codes["raw"]
        if raw[0] is not None and field in ("type", "subtype"):  # both in the raw key
            _, rr, rs, reps = raw
            codes, _ = encode([getattr(x, field) or "" for x in reps])
            if not codes:
                return []
            take = codes.__getitem__
            return list(map(int, map(eq, map(take, rr), map(take, rs))))
        get = attrgetter(field)
        return [1 if (get(x) or "") == (get(y) or "") else 0 for x, y in zip(self.rds, self.sds)]


_ATTRS = attrgetter("attrs")
_SUBTYPE = attrgetter("subtype")


# ---- Recognition statistics blocks (docs/rules/report.md §4.2) ------------------------------------------


def attribute_stats(result, attributes, pairs=None) -> dict:
    """attribute -> {ref value -> {sys value -> count}} over doc-mapped pairs; a pair is
    skipped when both sides lack the attribute; a false value becomes ``<undef>``."""
    pairs = DocPairs.of(result, pairs)
    attributes = tuple(attributes)
    stats: dict = {}
    if not len(pairs):
        return stats
    rc, sc, names = pairs.attribute_codes(attributes)
    tuples = Counter(zip(rc, sc))  # pairs of attribute tuples (codes), counted
    for j, a in enumerate(attributes):
        # the attribute's values: codes over the distinct tuples, then per pair
        vcodes, values = encode([t[j] for t in names])
        if not values:
            continue
        combos: dict = {}
        for (r, s), n in tuples.items():
            key = (vcodes[r], vcodes[s])
            combos[key] = combos.get(key, 0) + n
        for (xc, yc), n in sorted(combos.items()):
            x, y = values[xc], values[yc]
            if x is None and y is None:
                continue
            _inc(stats.setdefault(a, {}), x if truthy(x) else UNDEF, y if truthy(y) else UNDEF, n)
    return stats


def _correct_cell(value: str, n: int, total) -> str:
    """The precision (or recall) cell of a value: N/A for <undef>, the correct count and its
    share of the value's SYS (or REF) count, or a dash when that count is 0."""
    if value == UNDEF:
        return _NA
    if total:
        return _pct_cell(n, min(99.9, 100 * n / total))
    return _DASH


def _pct_cell(count: int, pct: float) -> str:
    return "%6d/%4.1f%%" % (count, pct)


def recognition_block(stats: dict | None, label: str, old: bool = False) -> str:
    """One ``Recognition statistics for LABEL`` block (docs/rules/report.md §4.2), or "" if it does not
    qualify.  Display order: sort key descending, ties by value (docs/rules/determinism.md R29-R30).
    ``old``: the older versions' block (docs/rules/versions.md §4.3): 8 values, correct counts
    raise the key, no recall column or precision line."""
    if not stats:
        return ""
    ref_count: dict = {}
    tst_count: dict = {}
    sort_key: dict = {}
    correct: dict = {}
    ntot = nref = ncor = nfa = nmiss = 0
    for r in sorted(stats):
        for t in sorted(stats[r]):
            n = stats[r][t]
            ref_count[r] = ref_count.get(r, 0) + n
            tst_count[t] = tst_count.get(t, 0) + n
            ntot += n
            if r != UNDEF:
                nref += n
            if r == t:
                correct[r] = correct.get(r, 0) + n
                sort_key[r] = sort_key.get(r, 0) + (EPS if old else -EPS) * n
                if r != UNDEF:
                    ncor += n
            else:
                sort_key[t] = sort_key.get(t, 0) + n
                sort_key[r] = sort_key.get(r, 0) + n
                if r == UNDEF:
                    nfa += n
                if t == UNDEF:
                    nmiss += n
    shown = sorted(sort_key, key=lambda v: (-sort_key[v], v))[: 8 if old else MAX_DISPLAY]

    # cells: displayed values, plus the "all others" row and column
    cells: dict = {r: dict(stats[r]) for r in stats}
    cells[OTHERS] = {}
    for v in shown:
        cells.setdefault(v, {})[OTHERS] = ref_count.get(v, 0)
        cells[OTHERS][v] = tst_count.get(v, 0)
    cells[OTHERS][OTHERS] = ntot
    displayed = 0
    for r in shown:
        for t in shown:
            n = cells.get(r, {}).get(t)
            if not n:
                continue
            cells[r][OTHERS] -= n
            cells[OTHERS][t] -= n
            cells[OTHERS][OTHERS] -= n
            displayed += n

    nerr = nfa + nref - ncor
    nsub = nref - nmiss - ncor
    nsys = ncor + nsub + nfa
    if not (nref or nsys):
        return ""
    nref = max(nref, EPS)
    nsys = max(nsys, EPS)
    pfa = nfa / nref
    psub = nsub / nref
    pmiss = nmiss / nref
    perror = nerr / nref
    recall = (ncor + nsub) / nref
    precision = (ncor + nsub) / nsys
    f = 2 * precision * recall / max(precision + recall, EPS)
    out = [f"\nRecognition statistics for {label} (for mapped elements):\n"]
    out.append(
        (
            "    Summary (count/percent):  Nref=%d/%.1f%%, Nfa=%d/%.1f%%, Nmiss=%d/%.1f%%,"
            " Nsub=%d/%.1f%%, Nerr=%d/%.1f%%, P/R/F=%.1f%%/%.1f%%/%.1f%%\n"
        )
        % (
            nref,
            100,
            nfa,
            min(999.9, 100 * pfa),
            nmiss,
            100 * pmiss,
            nsub,
            min(999.9, 100 * psub),
            nerr,
            min(999.9, 100 * perror),
            100 * precision,
            100 * recall,
            100 * f,
        )
    )
    out.append(
        "    Confusion matrix for major error contributors (count/percent):\n        ref\\tst:"
    )
    if displayed != ntot:
        shown.append(OTHERS)
    for v in shown if old else ["(recall)"] + shown:
        out.append("%11.11s " % v)
    out.append("\n")
    if not old:
        out.append("  %14.14s%s" % ("(precision)", " " * 12))
        for t in shown:
            out.append(_correct_cell(t, correct.get(t, 0), tst_count.get(t)))
        out.append("\n")
    for r in shown:
        out.append("  %14.14s" % r)
        if not old:
            out.append(_correct_cell(r, correct.get(r, 0), ref_count.get(r)))
        row = cells.get(r, {})
        for t in shown:
            n = row.get(t)
            out.append(_pct_cell(n, min(99.9, 100 * n / max(nref, EPS))) if n else _DASH)
        out.append("\n")
    return "".join(out)


# ---- square count/percent matrices ---------------------------------------------------


def _matrix_rows(values, stats: dict, row_label: str) -> list[str]:
    """Rows ``row_label % r``, then ``%6d`` counts, 5 spaces, ``%6.1f`` percentages of the row
    total over the listed values."""
    lines = []
    for r in values:
        row = stats.get(r) or {}
        counts = [row.get(t) or 0 for t in values]
        total = 0
        for n in counts:
            total += n
        lines.append(
            row_label % r
            + "".join("%6d" % n for n in counts)
            + "     "
            + "".join("%6.1f" % (100 * n / max(total, 1)) for n in counts)
            + "\n"
        )
    return lines


def _short_header(values) -> str:
    return (
        "    ref\\tst:  "
        + "".join(" %3.3s  " % v for v in values)
        + "   "
        + "".join("   %3.3s" % v for v in values)
        + "\n"
    )


def entity_type_matrix(stats: dict | None, types, source_label: str) -> str:
    out = [
        f'\nEntity Type confusion matrix for "{source_label}" sources (for mapped entities):\n',
        "               ___________count___________        __________percent__________\n",
        _short_header(types),
    ]
    out += _matrix_rows(types, stats or {}, "  %3.3s       ")
    return "".join(out)


def entity_class_matrix(stats: dict | None, classes, source_label: str) -> str:
    out = [
        f'\nEntity Class confusion matrix for "{source_label}" sources (for mapped entities):\n',
        "               __count__        _percent_\n",
        _short_header(classes),
    ]
    out += _matrix_rows(classes, stats or {}, "%5.5s       ")
    return "".join(out)


# ---- name detection (docs/rules/report.md §4.4) ------------------------------------------------------

ERROR_TYPES = ("correct", "miss", "fa", "error")


def name_stats(result, pairs=None) -> dict:
    """REF element TYPE -> {correct, error, miss, fa} name counts."""
    return pair_stats(result, None, pairs, names=True, mentions=False)[0]


# ---- mention detection (docs/rules/report.md §4.5, §4.6) ---------------------------------------------


def mention_stats(result, params, pairs=None):
    """(detection, role, style): detection[(type, role, style)] -> {status: n};
    role[(ref role, sys role)] -> n over the REF element types; style likewise."""
    return pair_stats(result, params, pairs, names=False, mentions=True)[1]


def pair_stats(result, params, pairs=None, names: bool = True, mentions: bool = True):
    """(:func:`name_stats`, :func:`mention_stats`) in one pass over the doc-mapped pairs
    (None for the one not asked for)."""
    pairs = DocPairs.of(result, pairs)
    name_counts: dict = {}  # REF element TYPE -> [correct, miss, fa, error]
    det: dict = {}  # (type, role, style, status) -> n
    roles: dict = {}  # (host type, ref role, sys role) -> n
    styles: dict = {}  # (ref style, sys style) -> n
    det_get, roles_get, styles_get = det.get, roles.get, styles.get
    name_map_get = result.name_map.get
    old = params is not None and params.nist != "ace08"
    mention_map_get = result.mention_map.get
    max_chars = params.max_diff_chars if mentions else None
    for key, rd, sd, host_type in zip(
        zip(pairs.rids, pairs.sids, pairs.docids), pairs.rds, pairs.sds, pairs.types
    ):
        if names:
            rnames, snames = rd.names, sd.names
            st = name_counts.get(host_type)
            if st is None:
                st = name_counts[host_type] = [0, 0, 0, 0]
            nmap = None if old else name_map_get(key)
            if old:
                for n, x in enumerate(old_names.name_counts(rd, sd, params)):
                    st[n] += x
                rnames = snames = ()
            if nmap:
                c = 0
                for i, j in nmap.items():
                    if rnames[i] == snames[j]:
                        c += 1
                k = len(nmap)
                st[0] += c
                st[3] += k - c
            else:
                k = 0
            st[1] += len(rnames) - k
            st[2] += len(snames) - k
        if not mentions:
            continue
        mmap = mention_map_get(key) or _NO_MAP
        rtype, stype = rd.type, sd.type
        smentions = sd.mentions
        mapped_sys = set()
        for i, m in enumerate(rd.mentions):
            mtype, mrole, mstyle, mext = _MENTION_FIELDS(m)
            if mtype is None:
                mtype = rtype
            if mrole is None:
                mrole = rtype
            if mstyle is None:
                mstyle = "LITERAL"
            j = mmap.get(i)
            if j is not None:
                n = smentions[j]
                mapped_sys.add(j)
                nrole, nstyle, next_ = _MAPPED_FIELDS(n)
                if nrole is None:
                    nrole = stype
                if nstyle is None:
                    nstyle = "LITERAL"
                k = (host_type, mrole, nrole)
                roles[k] = roles_get(k, 0) + 1
                k = (mstyle, nstyle)
                styles[k] = styles_get(k, 0) + 1
                if mext.kind == "text":  # extent_mismatch of a text extent, inline
                    mismatch = (
                        max(abs(mext.start - next_.start), abs(mext.end - next_.end)) / max_chars
                    )
                else:
                    mismatch = extent_mismatch(mext, next_, params)
                k = (mtype, mrole, mstyle, "correct" if mismatch <= 1 else "error")
            else:
                k = (mtype, mrole, mstyle, "miss")
            det[k] = det_get(k, 0) + 1
        if len(mapped_sys) == len(smentions):
            continue
        for j, n in enumerate(smentions):
            if j in mapped_sys:
                continue
            nrole = n.role if n.role is not None else stype
            nstyle = n.style if n.style is not None else "LITERAL"
            k = (n.type, nrole, nstyle, "fa")
            det[k] = det_get(k, 0) + 1
    name_out = {t: dict(zip(ERROR_TYPES, v)) for t, v in name_counts.items()} if names else None
    if not mentions:
        return name_out, None
    detection: dict = {}
    for (a, b, c, status), n in det.items():
        _inc(detection, (a, b, c), status, n)
    role: dict = {}
    for (h, a, b), n in roles.items():
        _inc(role.setdefault(h, {}), a, b, n)
    style: dict = {}
    for (a, b), n in styles.items():
        _inc(style, a, b, n)
    return name_out, (detection, role, style)


_MAPPED_FIELDS = attrgetter("role", "style", "extent")
_NO_MAP: dict = {}
_MENTION_FIELDS = attrgetter("type", "role", "style", "extent")
