"""FAPI009 depends-called: `Depends(f())` where `f` cannot give FastAPI a dependency,
checked in memory over small projects."""

from __future__ import annotations

import textwrap

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI009"]
"""
HEAD = "from fastapi import APIRouter, Depends, Security\n\nrouter = APIRouter()\n\n"


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (f"\n[tool.inwards.rules.depends-called]\n{options}" if options else "")
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "FAPI009"]


def _lines(source: str, **more: str) -> list[int]:
    files = {"shop/api.py": HEAD + textwrap.dedent(source), **more}
    return [f.span.line for f in _findings(files) if f.file == "shop/api.py"]


def test_a_generator_an_async_def_and_a_plain_value_are_reported() -> None:
    source = """\
        def get_db():
            yield 1

        async def get_user():
            return "u"

        def get_limit():
            if True:
                return 10
            return None

        def nothing():
            print("x")

        @router.get("/")
        def read(
            db=Depends(get_db()),
            user=Security(get_user()),
            limit=Depends(get_limit()),
            other=Depends(nothing()),
        ): ...
        """
    assert _lines(source) == [21, 22, 23, 24]


def test_factories_returning_callables_pass() -> None:
    source = """\
        import functools

        def role(name):
            def check():
                return name
            return check

        def lam():
            return lambda: 1

        def part():
            return functools.partial(print, 1)

        def named():
            return role

        class Checker:
            def __call__(self):
                return 1

        def instance():
            return Checker()

        def unknown(x):
            return x[0]

        @router.get("/", dependencies=[Depends(role("admin")), Depends(lam())])
        def read(
            a=Depends(part()),
            b=Depends(named()),
            c=Depends(instance()),
            d=Depends(unknown(1)),
            e=Depends(Checker()),
            f=Depends(role),
        ): ...
        """
    assert _lines(source) == []


def test_the_callee_is_resolved_one_hop_through_imports_and_reexports() -> None:
    files = {
        "shop/db/session.py": "def get_db():\n    yield 1\n",
        "shop/db/__init__.py": "from shop.db.session import get_db\n",
        "shop/deps.py": "async def current():\n    return 1\n",
    }
    source = """\
        from typing import Annotated
        from shop import deps
        from shop.db import get_db as db_dep

        @router.get("/")
        def read(
            db: Annotated[object, Depends(db_dep())],
            user=Depends(deps.current()),
        ): ...
        """
    findings = _findings({"shop/api.py": HEAD + textwrap.dedent(source), **files})
    assert [f.span.line for f in findings] == [11, 12]
    assert "`db_dep` is a generator" in findings[0].message
    assert "`Depends(db_dep)`" in findings[0].message
    assert "`deps.current` is an `async def`" in findings[1].message


def test_depends_of_another_library_and_methods_are_left_alone() -> None:
    source = """\
        from other import Depends as OtherDepends

        def get_db():
            yield 1

        class Service:
            def dep(self):
                return 1

        service = Service()

        def read(a=OtherDepends(get_db()), b=Depends(service.dep())): ...
        """
    assert _lines(source) == []


def test_module_level_aliases_and_router_dependencies_are_seen() -> None:
    source = """\
        from typing import Annotated

        def get_db():
            yield 1

        DbDep = Annotated[object, Depends(get_db())]
        other = APIRouter(dependencies=[Depends(get_db())])
        """
    assert _lines(source) == [10, 11]


def test_tests_are_skipped_unless_asked_and_modules_limits() -> None:
    source = HEAD + "def get_db():\n    yield 1\n\ndef read(db=Depends(get_db())): ...\n"
    files = {"shop/tests/test_api.py": source, "shop/other.py": source}
    assert [f.file for f in _findings(files)] == ["shop/other.py"]
    assert [f.file for f in _findings(files, "check-tests = true")] == [
        "shop/other.py",
        "shop/tests/test_api.py",
    ]
    assert _findings(files, 'modules = ["shop.api"]') == []


def test_the_guidance_names_the_function() -> None:
    (finding,) = _findings(
        {"shop/api.py": HEAD + "async def me():\n    return 1\n\ndef r(u=Security(me())): ...\n"}
    )
    assert finding.fix is not None
    assert finding.fix.summary == (
        "Pass the `async def` `me` to `Security` without calling it: `Security(me)`."
    )
