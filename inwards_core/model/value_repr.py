"""One `__repr__` for the attrs classes a one-file check builds at start-up.

attrs compiles a `__repr__` of its own for every class it decorates, and compiling is most
of what building a class costs: on the path of `inwards check FILE` the reprs were about a
third of the compiled source and about 10 ms of each run, for a method a check never calls.
A class whose body says `__repr__ = value_repr` gets this function instead (attrs leaves a
method the class defines itself alone: `auto_detect`), which writes what attrs' would:
`Name(field=value, ...)`, each field with `repr=True` as `repr(value)`, one with a repr
callable through it, none with `repr=False`, an unset `init=False` field as `NOTHING`, and
`...` for a value met again while it is being written (a cycle).
"""

from __future__ import annotations

import threading

import attrs

_writing = threading.local()  # the ids of the values each thread is writing


def value_repr(self: object) -> str:
    """The repr attrs would generate for `self`, an instance of an attrs class."""
    try:
        seen: set[int] = _writing.ids
    except AttributeError:
        seen = _writing.ids = set()
    if id(self) in seen:
        return "..."
    seen.add(id(self))
    try:
        parts = []
        for field in self.__class__.__attrs_attrs__:  # type: ignore[attr-defined]
            if field.repr is False:
                continue
            if field.init:
                value = getattr(self, field.name)
            else:
                value = getattr(self, field.name, attrs.NOTHING)
            text = repr(value) if field.repr is True else f"{field.repr(value)}"
            parts.append(f"{field.name}={text}")
        name = self.__class__.__qualname__.rsplit(">.", 1)[-1]
        return f"{name}({', '.join(parts)})"
    finally:
        seen.remove(id(self))
