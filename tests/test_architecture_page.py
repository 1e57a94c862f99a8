"""docs/architecture.md stays true: its rooms are the layers of the repository's own
[tool.inwards], in the same order, each with the same modules, and every path it names
exists."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGE = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def configured_rooms() -> list[tuple[str, list[str]]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    rooms: list[tuple[str, list[str]]] = []
    for entry in config["tool"]["inwards"]["layers"]:
        for layer in entry if isinstance(entry, list) else [entry]:
            rooms.append((layer["name"], layer["modules"]))
    return rooms


def page_rooms() -> list[tuple[str, list[str]]]:
    """The rows of the rooms table: (room names, the modules of its second column)."""
    table = PAGE.split("## The rooms of inwards_core", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("room", "---"):
            continue
        paths = re.findall(r"`([\w/]+(?:\.py|/))`", cells[1])
        rows.append((cells[0], paths))
    return rows


def as_module(path: str) -> str:
    return path.removesuffix("/").removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def test_the_rooms_are_the_layers_in_order() -> None:
    configured = configured_rooms()
    names = [name for row, _ in page_rooms() for name in re.split(r",\s*", row)]
    assert names == [name for name, _ in configured]


def test_each_room_lists_the_modules_of_its_layer() -> None:
    modules = dict(configured_rooms())
    for row, paths in page_rooms():
        listed = sorted(as_module(path) for path in paths)
        expected = sorted(m for name in re.split(r",\s*", row) for m in modules[name])
        assert listed == expected, row


def test_every_path_the_page_names_exists() -> None:
    named = set(re.findall(r"`((?:inwards_core|inwards_cli|tests|docs)/[\w/.-]*)`", PAGE))
    assert named
    for path in named:
        assert (REPO / path).exists(), path
