"""INW013 async-blocking through the installed `inwards`: off by default, on with
`extend-select`, options from its table, the same findings cold and from the cache."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "api", modules = ["shop.api", "shop.db"] },
]
"""
ON = """
[tool.inwards.rules]
extend-select = ["INW013"]

[tool.inwards.rules.async-blocking]
extend-blocking-calls = ["shop.db.legacy.fetch_rates"]
follow-modules = ["shop.db"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/api/__init__.py": "",
    "shop/db/__init__.py": "",
    "shop/db/session.py": (
        "from sqlalchemy import create_engine\n"
        "from sqlalchemy.orm import sessionmaker\n\n"
        'engine = create_engine("sqlite://")\n'
        "SessionLocal = sessionmaker(bind=engine)\n\n\n"
        "async def lifespan(app): ...\n\n\n"
        "def count_users() -> int:\n"
        "    with SessionLocal() as db:\n"
        '        return db.scalar("select count(*) from users")\n'
    ),
    "shop/db/legacy.py": "def fetch_rates() -> dict:\n    return {}\n",
    "shop/api/users.py": (
        "import asyncio\n\n"
        "from shop.db import legacy\n"
        "from shop.db.session import SessionLocal, count_users\n\n\n"
        "async def stats() -> dict:\n"
        "    db = SessionLocal()\n"
        '    db.execute("select 1")\n'
        "    await asyncio.to_thread(count_users)\n"
        "    return {'users': count_users(), 'rates': legacy.fetch_rates()}\n"
    ),
}


def _findings(stdout: str) -> list[tuple[str, int, str]]:
    return [
        (d["file"], d["line"], d["message"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "INW013"
    ]


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_with_extend_select_and_the_same_from_the_cache(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    expected = [
        (
            "shop/api/users.py",
            9,
            "`db.execute` waits on a synchronous SQLAlchemy session inside `async def stats`: "
            "the event loop stops until it returns.",
        ),
        (
            "shop/api/users.py",
            11,
            "`count_users` is a plain function of `shop.db.session`, where line 13's "
            "`db.scalar` waits on a synchronous SQLAlchemy session: called inside `async def "
            "stats`, it stops the event loop until it returns.",
        ),
        (
            "shop/api/users.py",
            11,
            "`legacy.fetch_rates` is a blocking call of `extend-blocking-calls` inside `async "
            "def stats`: the event loop stops until it returns.",
        ),
    ]
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (1, ""), cold.stdout + cold.stderr
    assert _findings(cold.stdout) == expected
    for _ in range(2):  # fills the cache, then reads from it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert (warm.code, _findings(warm.stdout)) == (1, expected), warm.stdout + warm.stderr


def test_follow_modules_leaves_other_helpers_alone(tmp_path: Path) -> None:
    config = PYPROJECT + ON.replace('follow-modules = ["shop.db"]', 'follow-modules = ["shop.api"]')
    project = write_tree(tmp_path, {"pyproject.toml": config, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert [line for _, line, _ in _findings(run.stdout)] == [9, 11]


def test_a_bad_option_is_a_config_error(tmp_path: Path) -> None:
    bad = PYPROJECT + ON.replace('"shop.db.legacy.fetch_rates"', '"fetch_rates"')
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "tool.inwards.rules.async-blocking.extend-blocking-calls" in run.stderr, run.stderr


def test_the_schema_takes_the_options() -> None:
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")
