"""What a class is, for INW014 (`inw.ports-abstract`): exempt (an exception, a value type),
an interface (Protocol, ABC, abstract methods) or plain, its bases resolved through the
imports of the module that defines it and, for first-party bases, through that module's
content facts (a few hops, never a cycle)."""

from __future__ import annotations

import builtins
import enum
import functools
from collections.abc import Callable, Iterator

import attrs

from inwards_core import ClassFact, ContentFacts, FunctionFact

# A module's names resolved through its imports (`inwards_core.families.inw.content.content_names`).
Qualify = Callable[[str], str]

INTERFACE_BASES = frozenset(("typing.Protocol", "typing_extensions.Protocol", "abc.ABC"))
INTERFACE_METACLASSES = frozenset(("abc.ABCMeta",))
ABSTRACT_DECORATORS = frozenset(
    (
        "abc.abstractmethod",
        "abc.abstractproperty",
        "abc.abstractclassmethod",
        "abc.abstractstaticmethod",
    )
)
# Type machinery, not behaviour: never "work", whatever the body.
MACHINERY_METHODS = frozenset(("__class_getitem__", "__init_subclass__", "__subclasshook__"))
# How a value shows and compares itself: a value's own business, never "work" either.
VALUE_METHODS = frozenset(
    ("__repr__", "__str__", "__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__")
)
# Methods whose empty body promises nothing: not what makes a class an interface.
_NOT_STUBS = frozenset(("__init__", "__new__", "__post_init__")) | MACHINERY_METHODS | VALUE_METHODS
# How far first-party bases are followed (each hop may be another module).
BASE_HOPS = 8
# The only calls a plain initialiser makes (`super().__init__(...)` is both).
_PLAIN_INIT_CALLS = frozenset(("super", "super().__init__"))
# A third-party base we cannot read is an exception when its name says so.
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning")


@functools.cache
def builtin_exceptions() -> frozenset[str]:
    return frozenset(
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    )


class Nature(enum.Enum):
    EXEMPT = "exempt"  # an exception or a value type
    INTERFACE = "interface"  # Protocol, ABC, ABCMeta or abstract methods of its own
    PLAIN = "plain"


@attrs.frozen
class Place:
    """A module's content facts with the resolver of its names."""

    module: str
    facts: ContentFacts
    qualify: Qualify

    def class_named(self, qualname: str) -> ClassFact | None:
        for cls in self.facts.classes:
            if cls.qualname == qualname:
                return cls
        return None

    def methods(self, cls: ClassFact) -> tuple[FunctionFact, ...]:
        wanted = set(cls.methods)
        return tuple(f for f in self.facts.functions if f.qualname in wanted)

    def canonical(self, text: str) -> str:
        """`text` (a base, keyword value or decorator as written) as a dotted name: a bare
        name neither imported nor defined here is a builtin (`builtins.ValueError`); a call
        in the chain is dropped (`namedtuple("P", "x")` is `collections.namedtuple`)."""
        text = text.replace("()", "")
        if not text:
            return ""
        qualified = self.qualify(text)
        if "." not in text and qualified == text:
            return f"builtins.{text}"
        return qualified


# Finds the class a canonical dotted name stands for in a first-party module: its place
# and its facts; None when the name is not a first-party class that could be read.
FindClass = Callable[[str], tuple[Place, ClassFact] | None]


def covers(entries: tuple[str, ...], name: str) -> bool:
    return any(name == entry or name.startswith(entry + ".") for entry in entries)


@attrs.frozen
class Judge:
    """Classifies classes with the rule's exempt lists and a way to find first-party
    classes."""

    allow_bases: tuple[str, ...]
    allow_decorators: tuple[str, ...]
    find: FindClass
    # Each class is judged once (PLAIN while in progress, so a cycle of bases ends).
    _natures: dict[str, Nature] = attrs.field(factory=dict, alias="_natures")
    # Whether a class leaves methods to implement, each class judged once too.
    _stubs: dict[str, bool] = attrs.field(factory=dict, alias="_stubs")

    def nature(self, place: Place, cls: ClassFact, hops: int = BASE_HOPS) -> Nature:
        """EXEMPT, INTERFACE or PLAIN; an exempt base wins over everything, then an
        interface marker of the class's own."""
        key = f"{place.module}:{cls.qualname}"
        if key not in self._natures:
            self._natures[key] = Nature.PLAIN
            self._natures[key] = self._nature(place, cls, hops)
        return self._natures[key]

    def _nature(self, place: Place, cls: ClassFact, hops: int) -> Nature:
        if any(covers(self.allow_decorators, place.canonical(d.callee)) for d in cls.decorators):
            return Nature.EXEMPT
        marked = self.own_marker(place, cls)
        for base in self.bases(place, cls):
            if self._exempt_name(base):
                return Nature.EXEMPT
            found = self.find(base) if hops > 0 else None
            if found is not None and self.nature(*found, hops=hops - 1) is Nature.EXEMPT:
                return Nature.EXEMPT
            if found is None and base.rpartition(".")[2].endswith(_EXCEPTION_SUFFIXES):
                return Nature.EXEMPT
        return Nature.INTERFACE if marked else Nature.PLAIN

    def bases(self, place: Place, cls: ClassFact) -> Iterator[str]:
        for base in cls.bases:
            name = place.canonical(base)
            if name:
                yield name

    def own_marker(self, place: Place, cls: ClassFact) -> bool:
        """Protocol or ABC among its bases, `metaclass=ABCMeta`, or an abstract method."""
        if any(base in INTERFACE_BASES for base in self.bases(place, cls)):
            return True
        if any(
            key == "metaclass" and place.canonical(value) in INTERFACE_METACLASSES
            for key, value in cls.keywords
        ):
            return True
        return any(is_abstract(place, method) for method in place.methods(cls))

    def ports_among_bases(self, place: Place, cls: ClassFact) -> Iterator[str]:
        """The bases (as written) that are first-party interfaces: the ports it implements.
        A plain base is one by convention when no method of it does work and it leaves
        something to implement; one whose only method stores values is a value class."""
        for written in cls.bases:
            found = self.find(place.canonical(written))
            if found is None:
                continue
            base_place, base = found
            nature = self.nature(base_place, base, BASE_HOPS - 1)
            if nature is Nature.INTERFACE or (
                nature is Nature.PLAIN
                and not working_methods(base_place, base)
                and self.declares_stubs(base_place, base)
            ):
                yield written.replace("()", "")

    def declares_stubs(self, place: Place, cls: ClassFact, hops: int = BASE_HOPS) -> bool:
        """Whether the class or a first-party base of it declares a method left to
        implement: a body of `...`, `pass` or `raise NotImplementedError`, or an abstract
        decorator (an initialiser and the value dunders are not such methods)."""
        key = f"{place.module}:{cls.qualname}"
        if key not in self._stubs:
            self._stubs[key] = False  # while in progress, so a cycle of bases ends
            self._stubs[key] = self._declares_stubs(place, cls, hops)
        return self._stubs[key]

    def _declares_stubs(self, place: Place, cls: ClassFact, hops: int) -> bool:
        if any(
            (m.trivial or is_abstract(place, m)) and last_name(m.qualname) not in _NOT_STUBS
            for m in place.methods(cls)
        ):
            return True
        if hops <= 0:
            return False
        for base in self.bases(place, cls):
            found = self.find(base)
            if found is not None and self.declares_stubs(*found, hops=hops - 1):
                return True
        return False

    def _exempt_name(self, name: str) -> bool:
        if name.startswith("builtins.") and name[9:] in builtin_exceptions():
            return True
        return covers(self.allow_bases, name)


def is_abstract(place: Place, method: FunctionFact) -> bool:
    return any(place.canonical(d.callee) in ABSTRACT_DECORATORS for d in method.decorators)


def last_name(qualname: str) -> str:
    return qualname.rpartition(".")[2]


def working_methods(place: Place, cls: ClassFact) -> tuple[FunctionFact, ...]:
    """The methods whose bodies do work (more than a docstring, `...`, `pass` or `raise
    NotImplementedError`), type machinery, value dunders and plain initialisers aside."""
    return tuple(
        m
        for m in place.methods(cls)
        if not m.trivial
        and last_name(m.qualname) not in MACHINERY_METHODS
        and last_name(m.qualname) not in VALUE_METHODS
        and not is_plain_initialiser(m)
    )


def is_plain_initialiser(method: FunctionFact) -> bool:
    """An `__init__` that only stores values (`self.name = name`): no call but
    `super().__init__(...)`, no branch, no loop, no block. A hand-written value class
    has one; it builds nothing and talks to nothing."""
    return (
        last_name(method.qualname) == "__init__"
        and method.branches == 0
        and method.loops == 0
        and method.nesting == 0
        and method.comprehensions == 0
        and all(call.callee in _PLAIN_INIT_CALLS for call in method.calls)
    )


def abstract_names(place: Place, cls: ClassFact) -> frozenset[str]:
    """The names of the class's methods with trivial bodies or abstract decorators."""
    return frozenset(
        last_name(m.qualname) for m in place.methods(cls) if m.trivial or is_abstract(place, m)
    )


def template_calls(method: FunctionFact, abstract: frozenset[str]) -> tuple[str, ...]:
    """The abstract methods a method calls when those are all it calls (`self.load()`,
    `cls.build()`); empty when it calls anything else or nothing."""
    called: list[str] = []
    for call in method.calls:
        receiver, _, name = call.callee.partition(".")
        if receiver not in ("self", "cls") or name not in abstract:
            return ()
        if name not in called:
            called.append(name)
    return tuple(called)
