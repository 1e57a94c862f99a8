"""`ignore-imports`, `unmatched-ignore = "error"` and `type-checking = false` on a project
rule through the installed `inwards`, as `inwards import-config` writes them: the ignored
import and the type-only one are quiet, a stale ignore fails the run by name."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

DEFINITION = (
    'code = "IL001"\n'
    'name = "il-domain-independent"\n'
    'summary = "The domain stays independent of the adapters."\n'
    'check = "inw.forbidden"\n'
    'severity = "error"\n'
    "\n"
    "[options]\n"
    'modules = ["shop.domain"]\n'
    'forbidden = ["shop.adapters"]\n'
    "indirect = true\n"
    "ignore-imports = [\n"
    '  "shop.domain.legacy.* -> shop.adapters.db",\n'
    "{stale}"
    "]\n"
    'unmatched-ignore = "error"\n'
    "type-checking = false\n"
)
PROJECT = {
    "pyproject.toml": '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n',
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/legacy/__init__.py": "",
    "shop/domain/legacy/report.py": "from shop.adapters.db import connect\n",
    "shop/domain/order.py": (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from shop.adapters.db import Row\n"
    ),
    "shop/adapters/__init__.py": "",
    "shop/adapters/db.py": "def connect() -> None: ...\n\nclass Row: ...\n",
}


def _project(tmp_path: Path, stale: str) -> Path:
    rule = {".inwards/rules/IL001.toml": DEFINITION.replace("{stale}", stale)}
    return write_tree(tmp_path, {**PROJECT, **rule})


def test_ignored_and_type_only_imports_are_quiet(tmp_path: Path) -> None:
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=_project(tmp_path, ""))
    assert (run.code, run.stderr) == (0, ""), run.stdout + run.stderr
    assert "IL001" not in run.stdout


def test_an_unmatched_ignore_fails_the_run_naming_it(tmp_path: Path) -> None:
    stale = '  "shop.domain.order -> shop.adapters.db",\n'
    project = _project(tmp_path, stale)
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=project)
    assert (run.code, run.stderr) == (1, ""), run.stdout + run.stderr
    (line,) = [line for line in run.stdout.splitlines() if "IL001" in line]
    assert line.startswith(".inwards/rules/IL001.toml:1:1: IL001 ")
    assert "(warning)" not in line
    # Its only import is under TYPE_CHECKING, which `type-checking = false` leaves out.
    assert '`options.ignore-imports[1]` is "shop.domain.order -> shop.adapters.db"' in line
    assert "matches no import" in line


def test_a_malformed_ignore_stops_the_run_naming_file_line_and_key(tmp_path: Path) -> None:
    project = _project(tmp_path, '  "shop.domain.leg* -> shop.adapters",\n')
    run = run_inwards("check", "--no-cache", cwd=project)
    assert run.code == 2, run.stdout + run.stderr
    assert ".inwards/rules/IL001.toml:11" in run.stderr
    assert "options.ignore-imports" in run.stderr
    assert '"leg*" is part name, part wildcard' in run.stderr
