"""FAPI006, FAPI007 and FAPI009 (the per-file FastAPI rules) through the installed
`inwards`: off by default, on with `extend-select` (FAPI006's deprecated-only finding a
warning, the rest errors: exit 1), the same findings cold and from the cache, SARIF,
baseline, `rule --full` and the schema."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [{ name = "api", modules = ["shop"] }]
"""
ON = """
[tool.inwards.rules]
extend-select = ["FAPI006", "FAPI007", "FAPI009"]

[tool.inwards.rules.depends-called]
check-tests = false
"""
FILES = {
    "shop/__init__.py": "",
    # Only `yield` marks this file for the content reader.
    "shop/db.py": (
        "def get_db():\n"
        "    db = {}\n"
        "    try:\n"
        "        yield db\n"
        "    except Exception:\n"
        "        db.clear()\n"
    ),
    "shop/main.py": (
        "from fastapi import Depends, FastAPI\n\n"
        "from shop.db import get_db\n\n"
        "app = FastAPI()\n"
        'app.add_event_handler("startup", print)\n\n\n'
        '@app.get("/")\n'
        "def read(db=Depends(get_db), again=Depends(get_db())) -> dict:\n"
        "    return db\n"
    ),
}
EXPECTED = [
    ("shop/db.py", 5, "FAPI007", "error"),
    ("shop/main.py", 6, "FAPI006", "warning"),
    ("shop/main.py", 10, "FAPI009", "error"),
]


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return sorted(
        (d["file"], d["line"], d["code"], d["severity"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"].startswith("FAPI")
    )


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_cold_and_from_the_cache(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (1, ""), cold.stdout + cold.stderr
    assert _findings(cold.stdout) == EXPECTED
    messages = {d["code"]: d["message"] for d in json.loads(cold.stdout)["diagnostics"]}
    assert "`get_db` is a generator" in messages["FAPI009"]
    assert "`except Exception`" in messages["FAPI007"]
    assert "deprecated" in messages["FAPI006"]
    for _ in range(2):  # fills the cache, then reads from it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert (warm.code, _findings(warm.stdout)) == (1, EXPECTED), warm.stdout + warm.stderr


def test_a_warning_alone_exits_zero(tmp_path: Path) -> None:
    files = {
        **FILES,
        "shop/main.py": FILES["shop/main.py"].replace(", again=Depends(get_db())", ""),
    }
    files["shop/db.py"] = files["shop/db.py"].replace("db.clear()", "raise")
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **files})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, [("shop/main.py", 6, "FAPI006", "warning")])


def test_sarif_and_baseline(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "sarif", cwd=project)
    log = json.loads(run.stdout)
    assert sorted(r["ruleId"] for r in log["runs"][0]["results"]) == [
        "FAPI006",
        "FAPI007",
        "FAPI009",
    ]
    written = run_inwards("baseline", cwd=project)
    assert written.code == 0, written.stdout + written.stderr
    again = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    # Errors are accepted; the warning stays (a baseline records no warnings).
    warning = [("shop/main.py", 6, "FAPI006", "warning")]
    assert (again.code, _findings(again.stdout)) == (0, warning), again.stdout + again.stderr


def test_a_bad_option_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    bad = PYPROJECT + ON + "loud = true\n"
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "tool.inwards.rules.depends-called.loud" in run.stderr, run.stderr


def test_the_rule_pages_and_the_schema(tmp_path: Path) -> None:
    for code, name in (
        ("FAPI006", "lifespan-events"),
        ("FAPI007", "yield-dependency-swallows"),
        ("FAPI009", "depends-called"),
    ):
        run = run_inwards("rule", code, "--full", cwd=tmp_path)
        assert run.code == 0 and name in run.stdout, run.stdout + run.stderr
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")
