"""The ``-c`` check (docs/rules/input.md §4): warnings about equivalent (duplicate) SYS elements of
one valuation, as the NIST tool prints them."""

from __future__ import annotations

from collections.abc import Iterable


def _perl_str(x: float | None) -> str:
    """Perl's stringification of a number (15 significant digits)."""
    if x is None:
        return ""
    if isinstance(x, int):
        return str(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    return "%.15g" % x


def duplicate_warnings(
    element_type: str, sys_ids: Iterable[str], sys_value: dict, pair_value: dict
) -> list:
    """The ``-c`` warnings of one valuation (docs/rules/input.md §4): for every SYS element id1 (code-point
    order) with pair values (looked up as a REF id) and every partner id2 > id1, warn when
    the pair value of (id1, id2) equals id1's SYS VALUE as the tool compares them (numbers
    as 15-significant-digit strings).  ``sys_value``: SYS id -> VALUE (None: undefined);
    ``pair_value``: (ref id, sys id) -> mapped value."""
    partners: dict = {}
    for (r, s), v in pair_value.items():
        partners.setdefault(r, {})[s] = v
    out = []
    for id1 in sorted(sys_ids):
        if id1 in ("", "0"):  # the tool's `while (my $id1 = shift @ids)` stops here
            break
        row = partners.get(id1)
        if not row:
            continue
        own = _perl_str(sys_value.get(id1))
        for id2 in sorted(row):
            if id2 <= id1 or _perl_str(row[id2]) != own:
                continue
            out.append(f"\nWARNING:  equivalent {element_type} elements: {id1} and {id2}\n")
    return out
