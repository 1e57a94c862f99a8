"""FAPI007 yield-dependency-swallows: an `except` around a dependency's `yield` that can
end without raising, checked in memory over small projects."""

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
extend-select = ["FAPI007"]
"""
HEAD = "from fastapi import Depends, FastAPI\n\napp = FastAPI()\n\n"


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (
        f"\n[tool.inwards.rules.yield-dependency-swallows]\n{options}" if options else ""
    )
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "FAPI007"]


def _lines(source: str) -> list[int]:
    return [f.span.line for f in _findings({"shop/api.py": HEAD + textwrap.dedent(source)})]


def test_a_handler_that_does_not_reraise_is_reported_once_per_handler() -> None:
    source = """\
        def get_db():
            db = object()
            try:
                yield db
            except ValueError:
                pass
            except KeyError:
                raise
            except:
                return

        @app.get("/")
        def read(db=Depends(get_db)): ...
        """
    findings = _findings({"shop/api.py": HEAD + textwrap.dedent(source)})
    assert [f.span.line for f in findings] == [9, 13]
    assert findings[0].message.startswith(
        "The `except ValueError` around the `yield` of the dependency `get_db` can end "
        "without raising"
    )
    assert "bare `except`" in findings[1].message


def test_only_dependencies_are_judged() -> None:
    source = """\
        from contextlib import contextmanager

        def not_used():
            try:
                yield 1
            except Exception:
                pass

        @contextmanager
        def managed():
            try:
                yield 1
            except Exception:
                pass

        @app.get("/")
        def read(m=Depends(managed)): ...
        """
    assert _lines(source) == []


def test_streams_are_skipped() -> None:
    source = """\
        def two():
            try:
                yield 1
                yield 2
            except Exception:
                pass

        def looped():
            while True:
                try:
                    yield 1
                except Exception:
                    pass

        @app.get("/")
        def read(a=Depends(two), b=Depends(looped)): ...
        """
    assert _lines(source) == []


def test_a_dependency_in_another_module_named_through_an_alias() -> None:
    files = {
        "shop/db.py": (
            "async def get_session():\n"
            "    try:\n"
            "        yield 1\n"
            "    except Exception as error:\n"
            "        log(error)\n"
        ),
        "shop/deps.py": (
            "from typing import Annotated\n"
            "from fastapi import Depends\n"
            "from shop.db import get_session\n\n"
            "SessionDep = Annotated[int, Depends(get_session)]\n"
        ),
    }
    (finding,) = _findings(files)
    assert (finding.file, finding.span.line, finding.span.column) == ("shop/db.py", 4, 5)
    assert finding.fix is not None
    assert "(it catches Exception)" in finding.fix.summary


def test_router_dependencies_and_security_count() -> None:
    source = """\
        from fastapi import APIRouter, Security

        def token():
            try:
                yield "t"
            except RuntimeError:
                print("failed")

        def scopes():
            try:
                yield []
            except (KeyError, IndexError):
                pass

        router = APIRouter(dependencies=[Depends(token)])

        @router.get("/")
        def read(s=Security(scopes)): ...
        """
    findings = _findings({"shop/api.py": HEAD + textwrap.dedent(source)})
    assert [f.span.line for f in findings] == [10, 16]
    assert "`except (KeyError, IndexError)`" in findings[1].message


def test_test_modules_are_skipped_unless_asked() -> None:
    source = HEAD + (
        "def dep():\n    try:\n        yield 1\n    except Exception:\n        pass\n\n"
        "def read(d=Depends(dep)): ...\n"
    )
    files = {"shop/tests/test_x.py": source}
    assert _findings(files) == []
    assert len(_findings(files, "check-tests = true")) == 1


def test_a_handler_of_generator_exit_alone_passes() -> None:
    source = """\
        def dep():
            try:
                yield 1
            except GeneratorExit:
                print("closed")
            except (GeneratorExit, KeyError):
                pass

        def read(d=Depends(dep)): ...
        """
    assert _lines(source) == [10]
