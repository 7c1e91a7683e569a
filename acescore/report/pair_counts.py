"""The name and mention counts of the entity recognition tables (04 §4.4-4.6), over the
doc-mapped pairs of a pass as whole columns (:func:`pair_stats`).

Every count is an integer: the pairs and mentions can be counted in any order (05 §2.7).
So instead of walking pair after pair and mention after mention, the mentions of all pairs
are laid out in two flat columns (REF mentions, SYS mentions; pair after pair), the mention
maps become two columns of positions in them, and the counts are taken with
:class:`collections.Counter` over zipped columns.  Extent mismatches of text extents are
computed for all mapped mentions at once with the float operations of
:func:`~acescore.report.extent.extent_mismatch`.
"""
from __future__ import annotations

from collections import Counter
from itertools import chain, compress, repeat
from operator import attrgetter

import numpy as np

from acescore.report.conditions import encode
from acescore.report.extent import extent_mismatch

ERROR_TYPES = ("correct", "miss", "fa", "error")
_STATUSES = ("correct", "error", "miss")        # the codes of the REF mention statuses

_NO_MAP: dict = {}
_NAMES = attrgetter("names")
_MENTIONS = attrgetter("mentions")
_TYPE = attrgetter("type")
_ROLE = attrgetter("role")
_STYLE = attrgetter("style")
_EXTENT = attrgetter("extent")
_KIND = attrgetter("kind")
_START = attrgetter("start")
_END = attrgetter("end")


def inc(table: dict, a, b, n: int = 1) -> None:
    """``table[a][b] += n`` (rows and cells made as needed)."""
    row = table.get(a)
    if row is None:
        row = table[a] = {}
    row[b] = row.get(b, 0) + n


def pair_stats(result, params, pairs, names: bool = True, mentions: bool = True):
    """(name counts, mention counts) over the doc-mapped pairs ``pairs`` (a
    :class:`~acescore.report.recognition.DocPairs`); None for the one not asked for.

    Name counts: REF element TYPE -> {correct, miss, fa, error}.  Mention counts:
    (detection, role, style) with detection[(type, role, style)] -> {status: n},
    role[host TYPE][ref role][sys role] -> n and style[ref style][sys style] -> n."""
    keys = list(zip(pairs.rids, pairs.sids, pairs.docids))
    name_out = _name_counts(result, pairs, keys) if names else None
    if not mentions:
        return name_out, None
    return name_out, _mention_counts(result, params, pairs, keys)


def _maps(table: dict, keys: list) -> list:
    """The maps of ``table`` at ``keys`` (an empty one where there is none)."""
    maps = list(map(table.get, keys, repeat(_NO_MAP)))
    if None in maps:
        maps = [m or _NO_MAP for m in maps]
    return maps


def _name_counts(result, pairs, keys: list) -> dict:
    rds, sds = pairs.rds, pairs.sds
    n = len(rds)
    if not n:
        return {}
    nmaps = _maps(result.name_map, keys)
    mapped = np.fromiter(map(len, nmaps), dtype=np.intp, count=n)
    correct = np.zeros(n, dtype=np.intp)
    for p in compress(range(n), mapped.tolist()):
        rnames, snames = rds[p].names, sds[p].names
        c = 0
        for i, j in nmaps[p].items():
            if rnames[i] == snames[j]:
                c += 1
        correct[p] = c
    nref = np.fromiter(map(len, map(_NAMES, rds)), dtype=np.intp, count=n)
    nsys = np.fromiter(map(len, map(_NAMES, sds)), dtype=np.intp, count=n)
    codes, types = encode(pairs.types)
    # integer sums in float64: exact far beyond any count of names
    cols = [np.bincount(codes, weights=w, minlength=len(types)).astype(np.int64).tolist()
            for w in (correct, nref - mapped, nsys - mapped, mapped - correct)]
    return {t: dict(zip(ERROR_TYPES, v)) for t, v in zip(types, zip(*cols))}


def _filled(values: list, defaults) -> list:
    """``values`` with each None replaced by the default at its position."""
    if None not in values:
        return values
    return [d if v is None else v for v, d in zip(values, defaults)]


def _spread(per_pair: list, lengths: list) -> list:
    """Each pair's value once per mention of the pair."""
    if lengths.count(1) == len(lengths):       # one mention each (mention passes)
        return per_pair
    return list(chain.from_iterable(map(repeat, per_pair, lengths)))


def _offsets(lengths: list) -> np.ndarray:
    """Where each pair's mentions start in the flat column."""
    out = np.zeros(len(lengths), dtype=np.intp)
    if len(lengths) > 1:
        np.cumsum(np.asarray(lengths[:-1], dtype=np.intp), out=out[1:])
    return out


def _mismatch_ok(mext: list, sext: list, params) -> np.ndarray:
    """Per mapped mention: extent mismatch <= 1 (04 §4.5)."""
    m = len(mext)
    max_chars = params.max_diff_chars
    kinds = list(map(_KIND, mext))
    if m and max_chars and kinds.count("text") == m:
        f = np.float64
        rs = np.fromiter(map(_START, mext), dtype=f, count=m)
        re_ = np.fromiter(map(_END, mext), dtype=f, count=m)
        ss = np.fromiter(map(_START, sext), dtype=f, count=m)
        se = np.fromiter(map(_END, sext), dtype=f, count=m)
        return np.maximum(np.abs(rs - ss), np.abs(re_ - se)) / max_chars <= 1
    return np.fromiter((extent_mismatch(a, b, params) <= 1 for a, b in zip(mext, sext)),
                       dtype=bool, count=m)


def _mention_counts(result, params, pairs, keys: list) -> tuple:
    rds, sds = pairs.rds, pairs.sds
    rlen = list(map(len, map(_MENTIONS, rds)))
    slen = list(map(len, map(_MENTIONS, sds)))
    rms = list(chain.from_iterable(map(_MENTIONS, rds)))
    sms = list(chain.from_iterable(map(_MENTIONS, sds)))
    rtype = _spread(list(map(_TYPE, rds)), rlen)
    stype = _spread(list(map(_TYPE, sds)), slen)
    literal = repeat("LITERAL")
    mtype = _filled(list(map(_TYPE, rms)), rtype)
    mrole = _filled(list(map(_ROLE, rms)), rtype)
    mstyle = _filled(list(map(_STYLE, rms)), literal)
    nrole = _filled(list(map(_ROLE, sms)), stype)
    nstyle = _filled(list(map(_STYLE, sms)), literal)

    # the mapped mentions: positions in the flat columns
    mmaps = _maps(result.mention_map, keys)
    mlen = list(map(len, mmaps))
    m = sum(mlen)
    ri = np.fromiter(chain.from_iterable(mmaps), dtype=np.intp, count=m)
    sj = np.fromiter(chain.from_iterable(map(dict.values, mmaps)), dtype=np.intp, count=m)
    if m:
        owner = np.repeat(np.arange(len(mmaps)), mlen)     # the pair of each entry
        keep = (ri >= 0) & (ri < np.asarray(rlen, dtype=np.intp)[owner])
        if not keep.all():          # a map entry of no REF mention counts nothing
            ri, sj, owner = ri[keep], sj[keep], owner[keep]
        scap = np.asarray(slen, dtype=np.intp)[owner]
        if ((sj < 0) | (sj >= scap)).any():
            raise IndexError("a mention map names a SYS mention the document does not have")
        ri = ri + _offsets(rlen)[owner]
        sj = sj + _offsets(slen)[owner]
    ri_l, sj_l = ri.tolist(), sj.tolist()

    ok = _mismatch_ok(list(map(_EXTENT, map(rms.__getitem__, ri_l))),
                      list(map(_EXTENT, map(sms.__getitem__, sj_l))), params)
    status = np.full(len(rms), 2, dtype=np.intp)
    status[ri] = np.where(ok, 0, 1)
    det = Counter(zip(mtype, mrole, mstyle, map(_STATUSES.__getitem__, status.tolist())))
    unmapped = np.ones(len(sms), dtype=bool)
    unmapped[sj] = False
    fa = np.flatnonzero(unmapped).tolist()
    det.update(zip(map(_TYPE, map(sms.__getitem__, fa)), map(nrole.__getitem__, fa),
                   map(nstyle.__getitem__, fa), repeat("fa")))
    host = _spread(pairs.types, rlen)
    roles = Counter(zip(map(host.__getitem__, ri_l), map(mrole.__getitem__, ri_l),
                        map(nrole.__getitem__, sj_l)))
    styles = Counter(zip(map(mstyle.__getitem__, ri_l), map(nstyle.__getitem__, sj_l)))

    detection: dict = {}
    for (a, b, c, st), n in det.items():
        inc(detection, (a, b, c), st, n)
    role: dict = {}
    for (h, a, b), n in roles.items():
        inc(role.setdefault(h, {}), a, b, n)
    style: dict = {}
    for (a, b), n in styles.items():
        inc(style, a, b, n)
    return detection, role, style
