"""``dataclass`` without the code generation at import: the drop-in decorator of acescore's
data classes (``from acescore.model.records import dataclass``).

A one-document run is mostly imports, and :func:`dataclasses.dataclass` was a fifth of
them: for each class it writes the source of up to six methods (``__init__``,
``__repr__``, ``__eq__``, ``__hash__``, a frozen class's ``__setattr__`` and
``__delattr__``) and compiles each with ``exec`` -- 129 compilations and 79,000 characters
of source for the 33 classes of a text ``score`` run, ~90 M instructions of ~490 M.  This
decorator makes the same class with :func:`dataclasses.dataclass` doing no code generation
(``init=False, repr=False, eq=False``, not frozen: the fields, ``__match_args__``, slots and
``dataclasses.fields``/``replace``/``asdict`` as before) and adds the methods itself:

* ``__init__``: the one that dataclasses writes (the same parameters, defaults, default
  factories, keyword-only parameters, ``__post_init__`` call, frozen fields stored with
  ``object.__setattr__``), compiled when the class has made :data:`COMPILE_AFTER`
  instances -- before, the same work done by a loop over the fields (most classes make a
  few instances a run, and compiling costs as much as thirty of them); a class made a
  million times runs the same code as before;
* ``__repr__``, ``__eq__``, ``__hash__`` (dataclasses' rules: added for ``eq`` and
  ``frozen``, ``None`` for ``eq`` alone, a class's own kept), a frozen class's
  ``__setattr__``/``__delattr__`` and a frozen slots class's ``__getstate__``/
  ``__setstate__``: functions defined here once, made for each class from the names of its
  fields (equality and hashing over a tuple of the compared fields, as dataclasses' own).

Options: ``frozen``, ``eq``, ``slots``, ``kw_only``; any other is refused (a ``TypeError``
at import).  mypy sees a dataclass (``dataclass_transform``).

:func:`record` is the APF model's variant (:mod:`acescore.model.apf`): frozen slots
records made by the hundred thousand, whose ``__init__`` is compiled at once and stores
through the slots' descriptors."""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError, field, fields
from dataclasses import dataclass as _std_dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_kw):
        return lambda f: f


_T = TypeVar("_T")
_Record = TypeVar("_Record")
_FACTORY = object()  # (dataclasses' _HAS_DEFAULT_FACTORY: a factory's field was not given)


@overload
def dataclass(cls: type[_T], /) -> type[_T]: ...


@overload
def dataclass(
    *, frozen: bool = False, eq: bool = True, slots: bool = False, kw_only: bool = False
) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(field,))
def dataclass(
    cls: type[_T] | None = None,
    /,
    *,
    frozen: bool = False,
    eq: bool = True,
    slots: bool = False,
    kw_only: bool = False,
) -> Any:
    """:func:`dataclasses.dataclass` with these options, its methods not compiled at import
    (the module's docstring)."""

    def wrap(c: type[_T]) -> type[_T]:
        made: type[_T] = _make(c, frozen=frozen, eq=eq, slots=slots, kw_only=kw_only)
        return made

    return wrap if cls is None else wrap(cls)


def _make(cls: Any, *, frozen: bool, eq: bool, slots: bool, kw_only: bool) -> Any:
    own = cls.__dict__
    if frozen and ("__setattr__" in own or "__delattr__" in own):
        raise TypeError(f"{cls.__name__}: a frozen dataclass defines no __setattr__/__delattr__")
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if own.get("__doc__") is None:  # (dataclasses would make it with inspect.signature)
        cls.__doc__ = f"{cls.__name__}({', '.join(own.get('__annotations__', ()))})"
    cls = _std_dataclass(init=False, repr=False, eq=False, slots=slots, kw_only=kw_only)(cls)
    every = fields(cls)
    names = tuple(f.name for f in every)
    _check_init_order(cls, every)

    def put(name: str, method: Callable) -> None:
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, method)

    if "__init__" not in own:
        put("__init__", _lazy_init(cls, frozen))
    if "__repr__" not in own:
        put("__repr__", _repr(tuple(f.name for f in every if f.repr)))
    if eq:
        key = _getter(tuple(f.name for f in every if f.compare))
        if "__eq__" not in own:
            put("__eq__", _eq(key))
        if frozen and not explicit_hash:
            hashed = (f.name for f in every if (f.compare if f.hash is None else f.hash))
            put("__hash__", _hash(_getter(tuple(hashed))))
        elif not explicit_hash:
            cls.__hash__ = None
    if frozen:
        setattr_, delattr_ = _frozen(cls, frozenset(names))
        put("__setattr__", setattr_)
        put("__delattr__", delattr_)
        if slots:
            getstate, setstate = _slot_state(names)
            put("__getstate__", getstate)
            put("__setstate__", setstate)
    return cls


def _check_init_order(cls: Any, every: tuple) -> None:
    """dataclasses' own check: a positional parameter without a default after one with."""
    seen_default = False
    for f in every:
        if not f.init or f.kw_only:
            continue
        if f.default is MISSING and f.default_factory is MISSING:
            if seen_default:
                raise TypeError(
                    f"{cls.__name__}: non-default argument {f.name!r} follows default argument"
                )
        else:
            seen_default = True


def _getter(names: tuple) -> Callable[[Any], tuple]:
    """The tuple of ``names``' values of an object, as dataclasses' methods make it
    (:func:`operator.attrgetter`: the same tuples, the same hashes), for one name or none
    too."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr(names: tuple) -> Callable:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join([f"{n}={getattr(self, n)!r}" for n in names])
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(key: Callable[[Any], tuple]) -> Callable:
    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple]) -> Callable:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _frozen(cls: Any, names: frozenset) -> tuple[Callable, Callable]:
    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _slot_state(names: tuple) -> tuple[Callable, Callable]:
    """Pickling of a frozen slots class (no ``__dict__``, no ``__setattr__``), as
    dataclasses does it."""

    def __getstate__(self: Any) -> list:
        return [getattr(self, n) for n in names]

    def __setstate__(self: Any, state: list) -> None:
        for n, value in zip(names, state):
            object.__setattr__(self, n, value)

    return __getstate__, __setstate__


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[_Record]) -> type[_Record]:
    """A frozen slots dataclass of the APF model (:func:`dataclass` ``(frozen=True,
    slots=True)``'s methods: equality, hashing, ``repr``, frozenness, pickling), with the
    one method that differs compiled at once: a corpus has hundreds of thousands of
    records, and the ``__init__`` that dataclasses writes for a frozen class stores every
    field with ``object.__setattr__`` -- over a tenth of the time to read one.  This one
    has the same parameters and defaults and stores the fields through their slot
    descriptors, which is what ``object.__setattr__`` ends up doing.  No
    ``__post_init__``, no default factories, two compared fields or more."""
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: @record does not call __post_init__")
    made: Any = dataclass(frozen=True, slots=True)(cls)
    env: dict = {}
    args, body = [], []
    for f in fields(made):
        if f.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: default_factory is not supported by @record")
        if f.default is not MISSING:
            env[f"_default_{f.name}"] = f.default
        if f.init:
            value = f.name
            args.append(f.name if f.default is MISSING else f"{f.name}=_default_{f.name}")
        elif f.default is not MISSING:
            value = f"_default_{f.name}"
        else:
            continue  # dataclasses leaves it unset as well
        env[f"_set_{f.name}"] = getattr(made, f.name).__set__
        body.append(f"    _set_{f.name}(self, {value})")
    if sum(1 for f in fields(made) if f.compare) < 2:
        raise TypeError(f"{cls.__name__}: @record needs two fields that compare or more")
    exec(f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body or ["    pass"]) + "\n", env)
    init = env["__init__"]
    init.__qualname__ = f"{made.__qualname__}.__init__"
    made.__init__ = init
    result: type[_Record] = made
    return result


#: how many instances a class's ``__init__`` makes field by field before it is compiled
COMPILE_AFTER = 32


def _lazy_init(cls: Any, frozen: bool) -> Callable:
    """The class's ``__init__`` until it is compiled: the first :data:`COMPILE_AFTER`
    instances are made by :func:`_bind` (most classes make a few per run: compiling
    their ``__init__`` would cost more than it saves), then :func:`_init`'s replaces it."""
    made = [0]
    bind: list[Callable] = []

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        made[0] += 1
        if made[0] > COMPILE_AFTER:
            init = _init(cls, frozen)
            cls.__init__ = init
            init(self, *args, **kwargs)
            return
        if not bind:
            bind.append(_bind(cls, frozen))
        bind[0](self, args, kwargs)

    return __init__


def _bind(cls: Any, frozen: bool) -> Callable:
    """What the compiled ``__init__`` does, by a loop over the fields: the arguments
    bound to the parameters as Python binds them (a ``TypeError`` as Python's), each field
    stored, ``__post_init__`` called."""
    qual = f"{cls.__qualname__}.__init__()"
    every = fields(cls)
    positional = [f.name for f in every if f.init and not f.kw_only]
    given = {f.name for f in every if f.init}
    required = [
        f.name for f in every if f.init and f.default is MISSING and f.default_factory is MISSING
    ]
    store = object.__setattr__ if frozen else setattr
    post_init = hasattr(cls, "__post_init__")
    plan = [  # (name, its default factory or None, its default or MISSING)
        (f.name, None if f.default_factory is MISSING else f.default_factory, f.default)
        for f in every
    ]

    def bind(self: Any, args: tuple, kwargs: dict) -> None:
        if len(args) > len(positional):
            raise TypeError(
                f"{qual} takes {len(positional) + 1} positional arguments but"
                f" {len(args) + 1} were given"
            )
        values = dict(zip(positional, args))
        if kwargs:
            for name in kwargs:
                if name in values:
                    raise TypeError(f"{qual} got multiple values for argument '{name}'")
                if name not in given:
                    raise TypeError(f"{qual} got an unexpected keyword argument '{name}'")
            values.update(kwargs)
        missing = [n for n in required if n not in values]
        if missing:
            raise TypeError(f"{qual} missing required arguments: {', '.join(missing)}")
        for name, factory, default in plan:
            if name in values:
                value = values[name]
            elif factory is not None:
                value = factory()
            elif default is not MISSING:
                value = default
            else:
                continue  # (a field not given to __init__, without a default: unset)
            store(self, name, value)
        if post_init:
            self.__post_init__()

    return bind


def _init(cls: Any, frozen: bool) -> Callable:
    """The ``__init__`` that :func:`dataclasses.dataclass` writes for ``cls``, compiled."""
    env: dict = {"_FACTORY": _FACTORY, "_setattr": object.__setattr__}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields(cls):
        default = f"_default_{f.name}"
        if f.default is not MISSING:
            env[default] = f.default
        elif f.default_factory is not MISSING:
            env[default] = f.default_factory
        if f.init:
            if f.default is not MISSING:
                param, value = f"{f.name}={default}", f.name
            elif f.default_factory is not MISSING:
                param = f"{f.name}=_FACTORY"
                value = f"{default}() if {f.name} is _FACTORY else {f.name}"
            else:
                param, value = f.name, f.name
            (keyword if f.kw_only else positional).append(param)
        elif f.default is not MISSING:
            value = default
        elif f.default_factory is not MISSING:
            value = f"{default}()"
        else:
            continue  # (dataclasses leaves it unset too)
        body.append(
            f"    _setattr(self, {f.name!r}, {value})" if frozen else f"    self.{f.name} = {value}"
        )
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    params = ["self", *positional] + (["*", *keyword] if keyword else [])
    exec(f"def __init__({', '.join(params)}):\n" + "\n".join(body or ["    pass"]) + "\n", env)
    init: Callable = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
