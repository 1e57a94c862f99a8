"""`value_repr` writes what attrs' generated `__repr__` writes, for every class that uses it
(see inwards_core/model/value_repr.py: the start-up of a one-file check)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import attrs
import pytest

import inwards_cli
import inwards_core
from inwards_core.model.value_repr import value_repr


def _twin(cls: type) -> type:
    """An attrs class with the fields of `cls` and the `__repr__` attrs generates."""
    these = {
        field.name: attrs.field(repr=field.repr, init=field.init, default=None)
        for field in attrs.fields(cls)
    }
    twin = attrs.make_class(cls.__name__, these, slots=True)
    twin.__qualname__ = cls.__qualname__
    return twin


def _same_values(cls: type, values: dict[str, Any]) -> tuple[object, object]:
    """An instance of `cls` and one of its twin holding `values`, set as they are."""
    ours, theirs = object.__new__(cls), object.__new__(_twin(cls))
    for name, value in values.items():
        object.__setattr__(ours, name, value)
        object.__setattr__(theirs, name, value)
    return ours, theirs


def _classes_using_it() -> list[type]:
    found: dict[str, type] = {}
    for package in (inwards_core, inwards_cli):
        for module_info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module_info.name.endswith(".__main__"):
                continue  # runs the command line
            module = importlib.import_module(module_info.name)
            for value in vars(module).values():
                if isinstance(value, type) and value.__dict__.get("__repr__") is value_repr:
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


USING_IT = _classes_using_it()


def test_the_start_up_classes_use_it() -> None:
    names = {cls.__qualname__ for cls in USING_IT}
    assert {"Finding", "Report", "ImportFact", "ModuleFacts", "Config", "CheckKind"} <= names


@pytest.mark.parametrize("cls", USING_IT, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_class_reads_as_attrs_would_write_it(cls: type) -> None:
    assert attrs.has(cls) and "__repr__" in cls.__dict__
    values = {field.name: f"<{field.name}>" for field in attrs.fields(cls)}
    ours, theirs = _same_values(cls, values)
    assert repr(ours) == repr(theirs)


def test_repr_flags_callables_unset_fields_and_cycles() -> None:
    def shout(value: object) -> str:
        return str(value).upper()

    @attrs.define
    class Node:
        __repr__ = value_repr

        name: str
        hidden: str = attrs.field(default="h", repr=False)
        loud: str = attrs.field(default="quiet", repr=shout)
        later: str = attrs.field(init=False)
        children: list[object] = attrs.field(factory=list)

    @attrs.define
    class Twin:
        name: str
        hidden: str = attrs.field(default="h", repr=False)
        loud: str = attrs.field(default="quiet", repr=shout)
        later: str = attrs.field(init=False)
        children: list[object] = attrs.field(factory=list)

    Twin.__qualname__ = Node.__qualname__
    node, twin = Node("n"), Twin("n")
    assert repr(node) == repr(twin)
    assert "<locals>" not in repr(node) and "NOTHING" in repr(node) and "QUIET" in repr(node)
    node.later, twin.later = "set", "set"
    node.children.append(node)  # a cycle: the value met again is "..."
    twin.children.append(twin)
    assert repr(node) == repr(twin) == "Node(name='n', loud=QUIET, later='set', children=[...])"
    node.children[0] = twin  # attrs' repr inside ours, and ours again inside it
    twin.children[0] = node
    assert repr(node).replace("Node", "X") == repr(twin).replace("Node", "X")
