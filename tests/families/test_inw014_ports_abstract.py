"""INW014 ports-abstract: what a port module may hold, checked in memory."""

from __future__ import annotations

import textwrap

import pytest

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]

[tool.inwards.rules]
extend-select = ["INW014"]
"""
PORTS = "shop/application/ports.py"


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (f"\n[tool.inwards.rules.ports-abstract]\n{options}" if options else "")
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "INW014"]


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(f.file, f.span.line, f.message) for f in findings]


def _lines(files: dict[str, str], options: str = "") -> list[tuple[str, int]]:
    return [(f.file, f.span.line) for f in _findings(files, options)]


# -- what is reported -------------------------------------------------------------------


def test_a_concrete_class_lists_the_methods_that_do_work() -> None:
    source = """\
        class Mailer:
            def __init__(self, host: str) -> None:
                self.host = host.strip()

            def send(self, to: str) -> None:
                print(to)

            def close(self) -> None: ...
        """
    assert _where(_findings({PORTS: source})) == [
        (
            PORTS,
            1,
            "`Mailer` in port module `shop.application.ports` is a concrete class, neither an "
            "interface nor a value type: `__init__`, `send` do work.",
        )
    ]


def test_a_class_implementing_a_port_of_another_module_is_named_with_the_port() -> None:
    files = {
        "shop/application/ports/__init__.py": "from .mail import Mailer\n",
        "shop/application/ports/mail.py": """\
            from typing import Protocol

            class Mailer(Protocol):
                def send(self, to: str) -> None: ...
            """,
        "shop/application/ports/smtp.py": """\
            from shop.application.ports import Mailer

            class SmtpMailer(Mailer):
                def send(self, to: str) -> None:
                    print(to)
            """,
    }
    findings = _findings(files)
    assert _where(findings) == [
        (
            "shop/application/ports/smtp.py",
            3,
            "`SmtpMailer` in port module `shop.application.ports.smtp` implements the port "
            "`Mailer`: `send` does work, which belongs in an adapter.",
        )
    ]
    assert findings[0].fix.summary.startswith("Move `SmtpMailer`, an implementation of `Mailer`")


def test_an_abc_method_with_a_body_and_a_template_method() -> None:
    source = """\
        import abc

        class Exporter(abc.ABC):
            @abc.abstractmethod
            def rows(self) -> list[str]:
                '''The rows.'''

            @abc.abstractmethod
            def write(self, rows: list[str]) -> None:
                raise NotImplementedError

            def run(self) -> None:
                self.write(self.rows())

            def name(self) -> str:
                return type(self).__name__
        """
    assert _where(_findings({PORTS: source})) == [
        (
            PORTS,
            12,
            "`Exporter.run` in port module `shop.application.ports` is a template method of "
            "an interface: its body only calls the abstract methods `write`, `rows`, but that "
            "is work all the same.",
        ),
        (
            PORTS,
            15,
            "`Exporter.name` in port module `shop.application.ports` is a method of an "
            "interface whose body does work.",
        ),
    ]


def test_interface_markers_metaclass_protocol_and_abstract_methods() -> None:
    source = """\
        from abc import ABCMeta, abstractmethod
        import typing as t

        class A(metaclass=ABCMeta):
            def work(self) -> int:
                return 1

        class B(t.Protocol):
            def work(self) -> int:
                return 1

        class C:
            @abstractmethod
            def step(self) -> None: ...

            def work(self) -> None:
                self.step()
        """
    found = [(f.span.line, f.message.split(" in ")[0]) for f in _findings({PORTS: source})]
    assert found == [(5, "`A.work`"), (9, "`B.work`"), (16, "`C.work`")]


def test_a_template_method_may_call_abstract_methods_of_a_first_party_base() -> None:
    files = {
        "shop/application/ports/base.py": """\
            import abc

            class Source(abc.ABC):
                @abc.abstractmethod
                def rows(self) -> list[str]: ...
            """,
        "shop/application/ports/export.py": """\
            import abc
            from shop.application.ports.base import Source

            class Exporter(Source, abc.ABC):
                @abc.abstractmethod
                def write(self, rows: list[str]) -> None: ...

                def run(self) -> None:
                    self.write(self.rows())
            """,
    }
    (finding,) = _findings(files)
    assert "template method" in finding.message


def test_a_first_party_class_called_like_a_value_type_is_not_exempt() -> None:
    files = {
        "shop/application/kernel.py": "class BaseModel:\n    pass\n",
        PORTS: """\
            from shop.application.kernel import BaseModel

            class Orders(BaseModel):
                def total(self) -> int:
                    return 1
            """,
    }
    assert _lines(files) == [(PORTS, 3)]


# -- what is not reported ---------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """\
            class NotFound(LookupError):
                def __init__(self, key: str) -> None:
                    super().__init__(key)
            """,
            id="builtin-exception",
        ),
        pytest.param(
            """\
            from fastapi import HTTPException

            class Denied(HTTPException):
                def detail_text(self) -> str:
                    return str(self.detail)
            """,
            id="third-party-exception-by-name",
        ),
        pytest.param(
            """\
            import pydantic as pd

            class Order(pd.BaseModel):
                id: str

                def label(self) -> str:
                    return self.id
            """,
            id="pydantic-alias",
        ),
        pytest.param(
            """\
            from typing import NamedTuple, TypedDict
            from collections import namedtuple
            import enum

            class Point(NamedTuple):
                x: int
                def norm(self) -> int:
                    return self.x

            class Row(TypedDict):
                id: str

            class Pair(namedtuple("Pair", "a b")):
                def total(self) -> int:
                    return self.a + self.b

            class Colour(enum.Enum):
                RED = 1
                def label(self) -> str:
                    return self.name.lower()
            """,
            id="namedtuple-typeddict-enum",
        ),
        pytest.param(
            """\
            from dataclasses import dataclass
            import attr
            import attrs

            @dataclass(frozen=True)
            class Money:
                cents: int
                def doubled(self) -> int:
                    return self.cents * 2

            @attrs.define
            class Id:
                value: str
                def short(self) -> str:
                    return self.value[:4]

            @attr.s(auto_attribs=True)
            class Old:
                value: str
                def short(self) -> str:
                    return self.value[:4]
            """,
            id="dataclass-attrs",
        ),
        pytest.param(
            """\
            from typing import Generic, TypeVar

            ID = TypeVar("ID")
            Key = str | int

            class BaseUserDatabase(Generic[ID]):
                '''Base adapter.'''

                def get(self, id: ID) -> None:
                    '''Get one.'''
                    raise NotImplementedError()

                async def delete(self, id: ID) -> None:
                    raise NotImplementedError

            def helper() -> int:
                return 1
            """,
            id="interface-by-convention-and-non-classes",
        ),
        pytest.param(
            """\
            import abc
            from typing import Protocol

            class Clock(Protocol):
                __slots__ = ()
                zone: str

                @property
                def now(self) -> float:
                    '''The time.'''
                    ...

                def __class_getitem__(cls, item: object) -> object:
                    return cls

                def __init_subclass__(cls, **kw: object) -> None:
                    super().__init_subclass__(**kw)

            class Sized(abc.ABC):
                @classmethod
                def __subclasshook__(cls, other: type) -> bool:
                    return hasattr(other, "__len__")

                @property
                @abc.abstractmethod
                def size(self) -> int:
                    '''How many.'''
            """,
            id="machinery-and-annotations",
        ),
        pytest.param(
            """\
            import abc

            class Money:
                def __init__(self, cents: int) -> None:
                    self.cents = cents

                def __repr__(self) -> str:
                    return f"Money({self.cents})"

                def __eq__(self, other: object) -> bool:
                    return isinstance(other, Money) and other.cents == self.cents

                def __hash__(self) -> int:
                    return hash(self.cents)

            class Port(abc.ABC):
                def __str__(self) -> str:
                    return type(self).__name__

                @abc.abstractmethod
                def send(self) -> None: ...
            """,
            id="value-dunders",
        ),
        pytest.param(
            """\
            class Constants:
                LIMIT = 10
                NAMES = ("a", "b")

            class Empty:
                pass
            """,
            id="no-methods",
        ),
        pytest.param(
            """\
            def factory():
                class Local:
                    def work(self) -> int:
                        return 1
                return Local

            class Outer(Exception):
                class Inner:
                    def work(self) -> int:
                        return 1
            """,
            id="nested-classes",
        ),
    ],
)
def test_no_finding(source: str) -> None:
    assert _findings({PORTS: source}) == []


def test_a_first_party_exception_hierarchy_through_a_reexport_is_exempt() -> None:
    files = {
        "shop/domain/__init__.py": "from shop.domain.errors import DomainError\n",
        "shop/domain/errors.py": "class DomainError(Exception):\n    pass\n",
        "shop/application/errors.py": (
            "from shop.domain import DomainError as Base\n\nclass AppError(Base):\n    pass\n"
        ),
        PORTS: """\
            from shop.application import errors

            class PortFailed(errors.AppError):
                def __init__(self, why: str) -> None:
                    self.why = why
            """,
    }
    assert _findings(files) == []


def test_a_protocol_extending_a_first_party_protocol_is_an_interface() -> None:
    files = {
        "shop/application/ports/__init__.py": "",
        "shop/application/ports/read.py": (
            "from typing import Protocol\n\nclass Reader(Protocol):\n    def get(self) -> int: ...\n"
        ),
        "shop/application/ports/write.py": """\
            from typing import Protocol
            from .read import Reader

            class Store(Reader, Protocol):
                def put(self, value: int) -> None: ...
            """,
    }
    assert _findings(files) == []


def test_a_cycle_of_first_party_bases_ends() -> None:
    files = {
        "shop/application/ports/__init__.py": "",
        "shop/application/ports/a.py": (
            "from .b import B\n\nclass A(B):\n    def f(self) -> int:\n        return 1\n"
        ),
        "shop/application/ports/b.py": (
            "from .a import A\n\nclass B(A):\n    def g(self) -> int:\n        return 1\n"
        ),
    }
    assert _lines(files) == [
        ("shop/application/ports/a.py", 3),
        ("shop/application/ports/b.py", 3),
    ]


# -- where it looks, and the options ------------------------------------------------------

WORK = "class Service:\n    def run(self) -> int:\n        return 1\n"


def test_only_port_modules_are_judged_and_modules_replaces_the_default() -> None:
    files = {
        "shop/application/ports/mail.py": WORK,
        "shop/application/services.py": WORK,
        "shop/application/gateways/db.py": WORK,
    }
    assert _lines(files) == [("shop/application/ports/mail.py", 1)]
    assert _lines(files, 'modules = ["shop.application.gateways"]\n') == [
        ("shop/application/gateways/db.py", 1)
    ]


def test_a_port_module_outside_the_layers_is_read_when_modules_names_it() -> None:
    files = {"shop/adapters_ports.py": WORK, "shop/domain/x.py": ""}
    assert _lines(files, 'modules = ["shop.adapters_ports"]\n') == [("shop/adapters_ports.py", 1)]


def test_test_modules_are_skipped_unless_check_tests() -> None:
    files = {"shop/application/tests/ports/fakes.py": WORK}
    assert _lines(files) == []
    assert _lines(files, "check-tests = true\n") == [("shop/application/tests/ports/fakes.py", 1)]


def test_allow_bases_replaces_extend_allow_bases_and_allow_decorators_add() -> None:
    source = """\
        import pydantic
        from shop.application.kernel import Value, value_object

        class A(pydantic.BaseModel):
            def f(self) -> int:
                return 1

        class B(Value):
            def f(self) -> int:
                return 1

        @value_object
        class C:
            def f(self) -> int:
                return 1
        """
    files = {
        "shop/application/kernel.py": "class Value:\n    pass\n\ndef value_object(c):\n    return c\n",
        PORTS: source,
    }
    assert _lines(files) == [(PORTS, 8), (PORTS, 13)]
    assert _lines(files, 'allow-bases = ["shop.application.kernel.Value"]\n') == [
        (PORTS, 4),
        (PORTS, 13),
    ]
    options = (
        'extend-allow-bases = ["shop.application.kernel"]\n'
        'allow-decorators = ["shop.application.kernel.value_object"]\n'
    )
    assert _lines(files, options) == []


def test_a_file_that_does_not_parse_is_not_judged() -> None:
    assert _findings({PORTS: "class A:\n    def f(self) -> int:\n        return (\n"}) == []


def test_an_init_that_only_stores_values_is_no_work() -> None:
    source = """\
        class Params:
            def __init__(self, q: str, limit: int = 10) -> None:
                self.q = q
                self.limit = limit

        class Named(Params):
            def __init__(self, name: str) -> None:
                super().__init__(name)
                self.name = name

        class Builds:
            def __init__(self) -> None:
                self.db = connect()

        class Decides:
            def __init__(self, q: str | None) -> None:
                if q:
                    self.q = q
        """
    assert _lines({PORTS: source}) == [(PORTS, 11), (PORTS, 15)]


def test_bases_that_fan_out_are_each_judged_once() -> None:
    # Twenty classes per level, each deriving from all twenty of the level below, ten
    # levels deep: following every path would take 20**8 steps.
    lines = [f"class C0_{i}:\n    pass" for i in range(20)]
    for level in range(1, 10):
        below = ", ".join(f"C{level - 1}_{i}" for i in range(20))
        lines += [f"class C{level}_{i}({below}):\n    pass" for i in range(20)]
    lines += ["class Top(C9_0):\n    def run(self) -> int:\n        return 1\n"]
    assert _lines({PORTS: "\n".join(lines)}) == [(PORTS, 1 + 2 * 200)]


def test_a_subclass_of_a_value_class_is_concrete_not_an_implementation_of_a_port() -> None:
    # A hand-written value (an initialiser that only stores) leaves nothing to implement:
    # a subclass adding behaviour is a concrete class, not an adapter of a port. A base
    # that leaves a method to implement, here through its own base, is still a port.
    source = """\
        class Coordinates:
            def __init__(self, lat: float, lon: float) -> None:
                self.lat = lat
                self.lon = lon

            def __repr__(self) -> str:
                return f"{self.lat},{self.lon}"

        class UnpackableCoordinates(Coordinates):
            def __iter__(self):
                return iter((self.lat, self.lon))

        class Geocoder:
            def locate(self, address: str) -> Coordinates:
                raise NotImplementedError

        class CachingGeocoder(Geocoder):
            def __init__(self, size: int) -> None:
                self.size = size

        class TableGeocoder(CachingGeocoder):
            def locate(self, address: str) -> Coordinates:
                return Coordinates(0.0, 0.0)
        """
    assert [message for _, _, message in _where(_findings({PORTS: source}))] == [
        "`UnpackableCoordinates` in port module `shop.application.ports` is a concrete class, "
        "neither an interface nor a value type: `__iter__` does work.",
        "`TableGeocoder` in port module `shop.application.ports` implements the port "
        "`CachingGeocoder`: `locate` does work, which belongs in an adapter.",
    ]
