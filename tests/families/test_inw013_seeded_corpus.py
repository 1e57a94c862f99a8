"""INW013 on real code with a seeded mistake: FastAPI's own SQLModel tutorials
(`docs_src/sql_databases`, plain `def` endpoints on a synchronous `Session`) with their
endpoints turned into `async def`, the classic way to block the event loop. The corpora
hold no true case of INW013 (1,528 `async def`s, no finding), so this is the proof that the
rule fires on code nobody here wrote. Skipped without the corpora."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
TUTORIALS = CORPORA / "fastapi" / "fastapi-0.163.2" / "docs_src" / "sql_databases"
CONFIG = """\
[tool.inwards]
layers = [{ name = "app", modules = ["docs_src"] }]

[tool.inwards.rules]
extend-select = ["INW013"]
"""
ENDPOINT = re.compile(r"^def (create_hero|read_heroes|read_hero|update_hero|delete_hero)\(", re.M)
# The session methods each seeded endpoint calls that wait on the database (`add` doesn't).
EXPECTED = {
    "tutorial001.py": [
        "session.commit", "session.refresh", "session.exec", "session.get",
        "session.get", "session.delete", "session.commit",
    ],
    "tutorial002.py": [
        "session.commit", "session.refresh", "session.exec", "session.get",
        "session.get", "session.commit", "session.refresh",
        "session.get", "session.delete", "session.commit",
    ],
}  # fmt: skip
EXPECTED["tutorial001_non_an.py"] = EXPECTED["tutorial001.py"]
EXPECTED["tutorial002_non_an.py"] = EXPECTED["tutorial002.py"]


@pytest.mark.skipif(not TUTORIALS.is_dir(), reason=f"corpora not in {CORPORA}")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seeded_async_endpoints_on_a_sync_session_are_found(name: str) -> None:
    text = (TUTORIALS / name).read_text(encoding="utf-8")
    seeded, count = ENDPOINT.subn(r"async def \1(", text)
    assert count >= 4
    files = {"docs_src/__init__.py": "", f"docs_src/{name}": seeded}
    rules = load_rules(installed_families())
    report = check(load_config_text(CONFIG), InMemoryProjectFiles(files), rule_set=rules)
    found = [f.message.split("`")[1] for f in report.findings if f.code == "INW013"]
    assert found == EXPECTED[name]
    # The tutorial as FastAPI ships it (plain `def` endpoints) is clean.
    files[f"docs_src/{name}"] = text
    report = check(load_config_text(CONFIG), InMemoryProjectFiles(files), rule_set=rules)
    assert [f for f in report.findings if f.code == "INW013"] == []
