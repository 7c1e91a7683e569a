"""Relation and event element values (docs/rules/relations-events.md §§4-5): the weights of a parameter set, the
attribute signatures and element values RV(x) and RV(x, y), formed in attribute-name
order (docs/rules/determinism.md R20) with the tool's Perl semantics of truth and minimum."""

from __future__ import annotations

from acescore.model.params import SYMMETRIC_RELATIONS, Params

_ASYM_ROLES = ("Arg-1", "Arg-2")


class Weights:
    """The relation or event weights of one parameter set."""

    def __init__(self, kind: str, p: Params) -> None:
        self.relation = kind == "relation"
        self.old_symmetry = self.relation and p.nist == "ace07"
        if self.relation:
            self.type_wgt = p.relation_type_wgt
            self.modality_wgt = p.relation_modality_wgt
            err = p.relation_err_wgt
            self.fa_wgt = p.relation_fa_wgt
            self.role_err_wgt: float = p.relation_argument_role_err_wgt
            self.asym_wgt: float = p.relation_asymmetry_err_wgt
        else:
            self.type_wgt = p.event_type_wgt
            self.modality_wgt = p.event_modality_wgt
            err = p.event_err_wgt
            self.fa_wgt = p.event_fa_wgt
            self.role_err_wgt = p.event_argument_role_err_wgt
            self.asym_wgt = 1
        self.err = [(a, err[a]) for a in sorted(err)]  # R20: attribute-name order
        self.sig_attrs = ("TYPE", "MODALITY") + tuple(a for a, _ in self.err)

    def role_discount(self, ref_role: str) -> float:
        if self.relation and ref_role in _ASYM_ROLES:
            return self.asym_wgt
        return self.role_err_wgt

    def value_role_discount(self, ref_role: str, ref_type: str | None) -> float:
        """The discount of a matched argument whose role differs, in a pair's value: ace07
        charges nothing for a symmetric REF type (docs/rules/versions.md §3.5.4)."""
        if self.old_symmetry and ref_type in SYMMETRIC_RELATIONS:
            return 1.0
        return self.role_discount(ref_role)


def _truthy(v: str | None) -> bool:
    """Perl truthiness of an attribute value."""
    return v is not None and v != "" and v != "0"


def _perl_min(a: float | None, b: float | None) -> float | None:
    """The tool's min(): undefined if the first argument is undefined."""
    if a is None or b is None:
        return a
    return b if b < a else a


def pair_value_of_signatures(w: Weights, x: tuple, y: tuple) -> float:
    """RV(x, y) (docs/rules/relations-events.md §3) from attribute signatures (:func:`signature`); RV(x) is RV(x, x).
    Discounts are applied in attribute-name order (R20)."""
    t = _perl_min(w.type_wgt.get(x[0]), w.type_wgt.get(y[0]))
    m = _perl_min(w.modality_wgt.get(x[1]), w.modality_wgt.get(y[1]))
    value = (t or 0) * (m or 0)
    k = 2
    for _attr, weight in w.err:
        a, b = x[k], y[k]
        k += 1
        if a == b:
            continue
        ta, tb = _truthy(a), _truthy(b)
        if (ta != tb) or (tb and a != b):
            value *= weight
    return value


def signature(w: Weights, attrs: dict) -> tuple:
    """The attribute values RV depends on: TYPE, MODALITY, then those of ``w.err``."""
    return tuple(map(attrs.get, w.sig_attrs))


def releve_value(w: Weights, x: dict, y: dict | None) -> float:
    """RV(x) (``y`` None) or RV(x, y) (docs/rules/relations-events.md §3); ``x``/``y`` are attribute dicts."""
    sx = signature(w, x)
    return pair_value_of_signatures(w, sx, sx if y is None else signature(w, y))
