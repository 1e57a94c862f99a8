"""INW016 orm-naming through the installed `inwards`: off by default, on with `extend-select`
and its options table, the same findings cold and from the cache, the project-wide findings
only on a whole-project run, a bad option is exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""
ON = """
[tool.inwards.rules]
extend-select = ["INW016"]

[tool.inwards.rules.orm-naming]
date-suffix = "_on"
allow-tables = ["LegacyOrders"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/infrastructure/__init__.py": "",
    "shop/infrastructure/tables.py": (
        "from datetime import date, datetime\n\n"
        "from sqlalchemy import MetaData\n"
        "from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column\n\n\n"
        "class Base(DeclarativeBase):\n"
        "    metadata = MetaData()\n\n\n"
        "class Order(Base):\n"
        '    __tablename__ = "orders"\n'
        "    id: Mapped[int] = mapped_column(primary_key=True)\n"
        "    placed: Mapped[datetime]\n"
        "    shipped_on: Mapped[date]\n\n\n"
        "class Legacy(Base):\n"
        '    __tablename__ = "LegacyOrders"\n'
        "    id: Mapped[int] = mapped_column(primary_key=True)\n"
    ),
}
PER_NAME = [
    (
        "shop/infrastructure/tables.py",
        12,
        'Table name "orders" is plural; name it in the singular: "order".',
    ),
    (
        "shop/infrastructure/tables.py",
        14,
        'Datetime column "placed" does not end with "_at"; name it "placed_at".',
    ),
]
CONVENTION = (
    "shop/infrastructure/tables.py",
    12,
    "The project defines SQLAlchemy or SQLModel tables but no MetaData(naming_convention=...): the "
    "database names their constraints and indexes, differently per database (reported at its "
    'first table, "orders").',
)


def _findings(stdout: str) -> list[tuple[str, int, str]]:
    return [
        (d["file"], d["line"], d["message"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "INW016"
    ]


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_cold_cached_and_with_paths(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (1, ""), cold.stdout + cold.stderr
    assert sorted(_findings(cold.stdout)) == sorted([*PER_NAME, CONVENTION])
    for _ in range(2):  # fills the cache, then reads it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert sorted(_findings(warm.stdout)) == sorted([*PER_NAME, CONVENTION])
    one = run_inwards("check", "--format", "json", "shop/infrastructure/tables.py", cwd=project)
    assert _findings(one.stdout) == PER_NAME  # no project-wide finding with PATHS


def test_a_bad_option_is_a_usage_error(tmp_path: Path) -> None:
    bad = ON.replace('date-suffix = "_on"', 'table-name = "camel"')
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + bad, **FILES})
    run = run_inwards("check", "--no-cache", cwd=project)
    assert run.code == 2, run.stdout + run.stderr
    assert "orm-naming.table-name" in run.stderr
