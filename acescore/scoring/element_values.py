"""The element value EV(x, y) of two entities, values or timex2 (docs/rules/entities.md §2):
type and class weights, the discount of every attribute that differs, the name similarity
of the name-similarity parameter sets; what :class:`acescore.scoring.elements.ElementPass`
values every element pair and mention pair with.

Products are formed with the discount attributes in name order (docs/rules/determinism.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from acescore.model.apf import Entity, Value
from acescore.model.params import EPSILON, Params
from acescore.scoring.names import entity_name_similarity

EPS = EPSILON


def _differs(a: str | None, b: str | None) -> bool:
    """Perl truthiness comparison of two attribute values."""
    ta = bool(a) and a != "0"
    tb = bool(b) and b != "0"
    return (ta != tb) or (ta and a != b)


class ElementValuation:
    """EV of two elements of one kind under one parameter set (cached by attribute values
    where the names do not count)."""

    _ENTITY_FIELDS: ClassVar[dict[str, str]] = {
        "CLASS": "cls",
        "LEVEL": "level",
        "SUBTYPE": "subtype",
        "TYPE": "type",
    }
    _VALUE_FIELDS: ClassVar[dict[str, str]] = {"SUBTYPE": "subtype", "TYPE": "type"}

    def __init__(self, kind: str, params: Params):
        self.kind = kind
        self.p = params
        self._ev_by_attrs: dict = {}  # attribute values of x and y -> EV (no names)
        #: (attribute, error weight) of the discount attributes, by name
        p = params
        if self.kind == "entity":
            self._discounts = [
                (self._ENTITY_FIELDS[a], p.entity_err_wgt[a])
                for a in sorted(p.entity_err_wgt)
                if a in self._ENTITY_FIELDS
            ]
        elif self.kind == "value":
            self._discounts = [
                (self._VALUE_FIELDS[a], p.value_err_wgt[a])
                for a in sorted(p.value_err_wgt)
                if a in self._VALUE_FIELDS
            ]
        else:
            self._discounts = [
                (a, p.timex2_attribute_wgt[a]) for a in sorted(p.timex2_attribute_wgt)
            ]

    def element_value(self, x: Any, y: Any) -> tuple[float, dict | None]:
        """EV(x, y) (docs/rules/entities.md §2) and, in the name-similarity sets, the name map."""
        p = self.p
        k = self.kind
        if k == "entity":
            if not p.use_name_similarity:
                # then EV depends on these attributes only: few distinct combinations
                key: tuple = (x.type, x.cls, x.subtype, x.level, y.type, y.cls, y.subtype, y.level)
                ev = self._ev_by_attrs.get(key)
                if ev is None:
                    ev = self._ev_by_attrs[key] = self._entity_value(x, y)
                return ev, None
            ev = self._entity_value(x, y)
            ns, nmap = entity_name_similarity(x, y, p.min_name_similarity)
            return ev * ns, nmap
        if k == "value":
            key = (x.type, x.subtype, y.type, y.subtype)
            ev = self._ev_by_attrs.get(key)
            if ev is None:
                ev = self._ev_by_attrs[key] = self._value_value(x, y)
            return ev, None
        # timex2: EV depends on the two attribute tuples only
        key = (x.attrs, y.attrs)
        ev = self._ev_by_attrs.get(key)
        if ev is None:
            ev = EPS
            xa = x.attributes()
            ya = xa if x is y else y.attributes()
            for attr, w in self._discounts:
                va, vb = xa.get(attr), ya.get(attr)
                if va is None or vb is None:
                    continue
                ev += w * (1 if va == vb else EPS)
            self._ev_by_attrs[key] = ev
        return ev, None

    def _entity_value(self, x: Entity, y: Entity) -> float:
        """EV of two entities without the name similarity (docs/rules/entities.md §2.1-2.3)."""
        p = self.p
        wt = p.entity_type_wgt
        wc = p.entity_class_wgt
        # Perl min(): undefined first argument stays undefined (docs/rules/entities.md §2.1 quirk)
        a, b = wt.get(x.type), wt.get(y.type)
        t = a if a is None or b is None or not (b < a) else b
        a, b = wc.get(x.cls), wc.get(y.cls)
        c = a if a is None or b is None or not (b < a) else b
        ev = EPS + ((t or 0) * (c or 0))
        return self._discounted(ev, x, y)

    def _value_value(self, x: Value, y: Value) -> float:
        """EV of two values (docs/rules/entities.md §2.2)."""
        wv = self.p.value_type_wgt
        a, b = wv.get(x.type), wv.get(y.type)
        t = a if a is None or b is None or not (b < a) else b
        return self._discounted(EPS + (t or 0), x, y)

    def _discounted(self, ev: float, x: Any, y: Any) -> float:
        """``ev`` times the error weight of every discount attribute that differs (by name)."""
        for field_name, w in self._discounts:
            if _differs(getattr(x, field_name), getattr(y, field_name)):
                ev *= w
        return ev


__all__ = ["ElementValuation"]
