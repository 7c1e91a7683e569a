"""acescore.model.records.dataclass: the classes it makes behave as the standard library's
dataclasses with the same options (construction, defaults, keyword-only parameters,
``__post_init__``, equality, hashing, frozenness, ``repr``, pickling, copying and
``dataclasses.replace``), without compiling their methods at import."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import FrozenInstanceError, field

import pytest

from acescore.model import records
from acescore.model.records import dataclass


@pytest.fixture(params=["bound", "compiled"])
def init_kind(request, monkeypatch):
    """Each test twice: the instances made by the loop over the fields, and by the
    compiled ``__init__`` (from the first instance on)."""
    if request.param == "compiled":
        monkeypatch.setattr(records, "COMPILE_AFTER", 0)
    return request.param


def _body(name: str) -> type:
    """A class body: two fields that compare, a default factory that does not, a field
    not shown."""
    namespace = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": "A point.",
        "__annotations__": {"x": "int", "y": "float", "tags": "list", "note": "str"},
        "y": 0.5,
        "tags": field(default_factory=list, compare=False),
        "note": field(default="", repr=False),
    }
    return type(name, (), namespace)


def _pair(**options):
    """The same class body made by this decorator and by the standard library's, each a
    name of this module (pickle finds them)."""
    made = []
    for decorator, prefix in ((dataclass, "Ours"), (dataclasses.dataclass, "Std")):
        name = prefix + "".join(f"_{k}{int(v)}" for k, v in sorted(options.items()))
        cls = decorator(**options)(_body(name))
        globals()[name] = cls
        made.append(cls)
    return made[0], made[1]


OPTIONS = [{}, {"frozen": True}, {"slots": True}, {"frozen": True, "slots": True}, {"eq": False}]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_as_the_standard_dataclass(options, init_kind):
    ours, std = _pair(**options)
    for args, kw in (((1,), {}), ((1, 2.0, ["a"]), {"note": "n"}), ((), {"x": 3, "y": 1.5})):
        a, b = ours(*args, **kw), std(*args, **kw)
        assert repr(a) == repr(b).replace(std.__qualname__, ours.__qualname__)
        assert dataclasses.astuple(a) == dataclasses.astuple(b)
        assert (a == ours(*args, **kw)) == (b == std(*args, **kw))
        assert (a == ours(*args, **kw)) == options.get("eq", True)
        assert a != b  # (another class: NotImplemented both ways)
        if std.__hash__ in (None, object.__hash__):  # unhashable, or by identity
            assert ours.__hash__ is std.__hash__
        else:
            assert hash(a) == hash(b)
        back = pickle.loads(pickle.dumps(a))
        assert dataclasses.astuple(back) == dataclasses.astuple(a)
        assert dataclasses.astuple(copy.deepcopy(a)) == dataclasses.astuple(a)
        moved = dataclasses.replace(a, y=9.0)
        assert (moved.x, moved.y) == (a.x, 9.0)
    assert [f.name for f in dataclasses.fields(ours)] == ["x", "y", "tags", "note"]
    assert ours.__match_args__ == std.__match_args__
    assert ours(1).tags is not ours(1).tags  # a default factory: one list each
    if options.get("eq", True):
        assert ours(1, tags=["a"]) == ours(1, tags=["b"]) != ours(1, note="b")
    with pytest.raises(TypeError, match="x"):
        ours()
    with pytest.raises(TypeError, match="z"):
        ours(1, z=2)


def test_frozen(init_kind):
    ours, _ = _pair(frozen=True)
    p = ours(1)
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        p.x = 2
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'y'"):
        del p.y
    assert {ours(1), ours(1, tags=[1]), ours(2)} == {ours(1), ours(2)}


def test_eq_without_frozen_is_unhashable():
    ours, std = _pair()
    assert ours.__hash__ is None and std.__hash__ is None


def test_kw_only_and_post_init(init_kind):
    @dataclass(frozen=True, kw_only=True)
    class Opts:
        a: int = 1
        b: str = ""

        def __post_init__(self) -> None:
            if not self.b:
                object.__setattr__(self, "b", str(self.a))

    assert Opts(a=3).b == "3"
    assert Opts(a=3, b="x") == Opts(b="x", a=3)
    with pytest.raises(TypeError):
        Opts(3)  # type: ignore[misc]  # keyword-only
    assert dataclasses.replace(Opts(a=2), a=5).b == "2"


def test_methods_of_the_class_are_kept():
    @dataclass(frozen=True)
    class Named:
        a: int
        b: int

        def __repr__(self) -> str:
            return "named"

        def __hash__(self) -> int:
            return 7

    assert repr(Named(1, 2)) == "named" and hash(Named(1, 2)) == 7
    assert Named(1, 2) == Named(1, 2) != Named(1, 3)


def test_refused_at_definition():
    with pytest.raises(TypeError, match="follows default argument"):

        @dataclass
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="frozen"):

        @dataclass(frozen=True)
        class Settable:
            a: int

            def __setattr__(self, name: str, value: object) -> None:
                pass


def test_init_compiled_after_some_instances(monkeypatch):
    """The compiled ``__init__`` replaces the placeholder once the class has made
    COMPILE_AFTER instances; a wrong call is a TypeError before and after."""
    monkeypatch.setattr(records, "COMPILE_AFTER", 6)
    ours, _ = _pair(slots=True)
    placeholder = ours.__init__
    wrong = (lambda: ours(), lambda: ours(1, 2, [], "", 5), lambda: ours(1, x=1))
    for compiled in (False, True):
        for call in wrong:  # (each call counts)
            with pytest.raises(TypeError, match=r"__init__\(\) (missing|takes|got multiple)"):
                call()
        assert ours(4).x == 4
        assert (ours.__init__ is placeholder) != compiled
    assert ours.__init__.__qualname__ == f"{ours.__qualname__}.__init__"


def test_a_required_field_not_given(init_kind):
    """A required field missing is a TypeError even where other fields are given."""
    ours, _ = _pair()
    with pytest.raises(TypeError, match="x"):
        ours(y=1.0)
    with pytest.raises(TypeError, match="x"):
        ours(y=1.0, note="a")
