"""Every TOML example in docs/**/*.md and README.md that holds `[tool.inwards]` or a rule
definition is valid against its schema (and the configurations load): an example a reader
copies must not fail in their editor or their run."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from inwards_core.api import load_config
from tests.e2e.helpers import REPO, assert_valid

PAGES = [*sorted((REPO / "docs").glob("**/*.md")), REPO / "README.md"]
BLOCK = re.compile(r"^```toml\n(.*?)^```", re.S | re.M)
# The fragments some pages show on their own: one table of a definition.
FRAGMENTS = ("[shadow]", "[guidance]")


def toml_blocks() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for number, block in enumerate(BLOCK.findall(text), 1):
            found.append((f"{page.relative_to(REPO)}#{number}", block))
    return found


def kind_of(block: str) -> str:
    if re.search(r"^\s*\.\.\.,?\s*$", block, re.M):
        return "excerpt"  # elided with "...": not meant to be copied whole
    if "[tool.inwards" in block:
        return "config"
    if re.search(r"^code\s*=", block, re.M):
        return "definition"
    if re.search(r"^(overlays\s*=|\[overlay\])", block, re.M):
        return "overlay"  # the fields an overlay changes; the definition schema takes those too
    if block.lstrip().startswith(FRAGMENTS):
        return "fragment"
    return "other"


BLOCKS = toml_blocks()
CHECKED = [(where, block) for where, block in BLOCKS if kind_of(block) not in ("other", "excerpt")]


def test_the_docs_have_examples_of_each_kind() -> None:
    kinds = [kind_of(block) for _, block in CHECKED]
    assert kinds.count("config") >= 10 and kinds.count("definition") >= 5
    assert "fragment" in kinds
    assert any(where.startswith("README.md") for where, _ in CHECKED)


@pytest.mark.parametrize(("where", "block"), CHECKED, ids=[w for w, _ in CHECKED])
def test_toml_example_is_valid(where: str, block: str) -> None:
    data = tomllib.loads(block)
    kind = kind_of(block)
    if kind == "config":
        assert_valid(data, "pyproject")
        table = data["tool"]["inwards"]
        assert_valid(table, "config")
        if "layers" in table:  # a page may show only [tool.inwards.rules]
            load_config(table)
    elif kind in ("definition", "overlay"):
        assert_valid(data, "definition")
    else:
        # One table of a definition: valid as part of a minimal definition.
        definition: dict[str, Any] = {
            "code": "ACME001",
            "name": "example",
            "summary": "An example.",
            "check": "inw.pure-domain",
            **data,
        }
        assert_valid(definition, "definition")


def test_an_overlay_example_is_checked_as_one() -> None:
    assert kind_of('overlays = "INW005"\nseverity = "warning"\n') == "overlay"
    test_toml_example_is_valid("overlay", 'overlays = "INW005"\nseverity = "warning"\n')
    with pytest.raises(AssertionError):
        test_toml_example_is_valid("overlay", 'overlays = "INW005"\ncheck = "inw.forbidden"\n')


def test_a_broken_example_would_be_caught(tmp_path: Path) -> None:
    broken = '[tool.inwards]\nlayers = [{ name = "domain", module = ["shop.domain"] }]\n'
    with pytest.raises(AssertionError, match="'module' was unexpected"):
        test_toml_example_is_valid("broken", broken)
