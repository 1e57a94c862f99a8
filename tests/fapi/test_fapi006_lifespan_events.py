"""FAPI006 lifespan-events: deprecated startup and shutdown handlers, and handlers a
`lifespan=` silences, checked in memory over small projects."""

from __future__ import annotations

import textwrap

from inwards_core import Finding, Severity
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["FAPI006"]
"""


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (f"\n[tool.inwards.rules.lifespan-events]\n{options}" if options else "")
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "FAPI006"]


def _seen(files: dict[str, str]) -> list[tuple[str, int, str]]:
    return [
        (f.file, f.span.line, "error" if f.severity is Severity.ERROR else "warning")
        for f in _findings(files)
    ]


def test_every_deprecated_form_is_a_warning() -> None:
    source = """\
        from fastapi import APIRouter, FastAPI

        app = FastAPI(on_startup=[connect], on_shutdown=[close])
        router = APIRouter(on_shutdown=[close])

        @app.on_event("startup")
        async def connect(): ...

        @router.on_event("shutdown")
        def close(): ...

        app.add_event_handler("shutdown", close)
        app.add_event_handler(event_type="startup", func=connect)
        """
    findings = _findings({"shop/main.py": source})
    assert [(f.span.line, f.severity) for f in findings] == [
        (3, Severity.WARNING),
        (4, Severity.WARNING),
        (6, Severity.WARNING),
        (9, Severity.WARNING),
        (12, Severity.WARNING),
        (13, Severity.WARNING),
    ]
    assert findings[0].message == (
        "`FastAPI(on_startup=..., on_shutdown=...)` registers startup and shutdown handlers "
        "the deprecated way: move the code into the `lifespan` function of `app`."
    )
    assert findings[2].message.startswith('`@app.on_event("startup")` registers a startup')


def test_a_receiver_that_sets_lifespan_makes_an_error() -> None:
    source = """\
        from fastapi import APIRouter, FastAPI

        app = FastAPI(lifespan=lifespan, on_startup=[connect])
        other = FastAPI(lifespan=None)

        @app.on_event("startup")
        async def connect(): ...

        @other.on_event("startup")
        async def warm(): ...
        """
    assert _seen({"shop/main.py": source}) == [
        ("shop/main.py", 3, "error"),
        ("shop/main.py", 6, "error"),
        ("shop/main.py", 9, "warning"),
    ]
    message = _findings({"shop/main.py": source})[1].message
    assert message == (
        '`@app.on_event("startup")` registers a startup handler on `app`, which also sets '
        "`lifespan=`: FastAPI runs the lifespan alone and these handlers never run."
    )


def test_receivers_across_files_and_in_factories() -> None:
    files = {
        "shop/main.py": "from fastapi import FastAPI\n\napp = FastAPI(lifespan=lifespan)\n",
        "shop/__init__.py": "from shop.main import app\n",
        "shop/events.py": ('from shop import app\n\n@app.on_event("shutdown")\ndef close(): ...\n'),
        "shop/factory.py": (
            "from fastapi import FastAPI\n\n"
            "def create_app():\n"
            "    app = FastAPI()\n"
            '    app.add_event_handler("startup", lambda: None)\n'
            "    return app\n\n"
            "def register(app: FastAPI):\n"
            '    @app.on_event("startup")\n'
            "    def hello(): ...\n"
        ),
    }
    assert _seen(files) == [
        ("shop/events.py", 3, "error"),
        ("shop/factory.py", 5, "warning"),
        ("shop/factory.py", 9, "warning"),
    ]


def test_unknown_receivers_are_silent() -> None:
    source = """\
        from fastapi import FastAPI

        class Server:
            def setup(self, app):
                app.add_event_handler("startup", self.go)

                @app.on_event("startup")
                def go(): ...

        emitter.on_event("startup")
        """
    assert _findings({"shop/main.py": source}) == []


def test_tests_are_skipped_unless_asked() -> None:
    source = 'from fastapi import FastAPI\n\napp = FastAPI()\napp.add_event_handler("startup", f)\n'
    files = {"shop/tests/test_app.py": source}
    assert _findings(files) == []
    assert len(_findings(files, "check-tests = true")) == 1


def test_a_router_with_its_own_lifespan_is_an_error_an_including_app_is_not() -> None:
    source = """\
        from fastapi import APIRouter, FastAPI

        router = APIRouter(lifespan=router_lifespan)
        plain = APIRouter()
        app = FastAPI(lifespan=app_lifespan)
        app.include_router(router)
        app.include_router(plain)

        @router.on_event("startup")
        def a(): ...

        @plain.on_event("startup")
        def b(): ...
        """
    assert _seen({"shop/main.py": source}) == [
        ("shop/main.py", 9, "error"),
        ("shop/main.py", 12, "warning"),
    ]
