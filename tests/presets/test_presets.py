"""The preset tables of `inwards init`: each loads through the real config builder, names
its gap, and its scaffold is a coherent set of files."""

from __future__ import annotations

from typing import Any

import pytest

from inwards_cli.commands.init import STYLES_HELP
from inwards_core.config.load import TOP_LEVEL_KEYS, build_config
from inwards_core.config.values import NoPositions
from inwards_core.presets import PRESETS, STYLE_NAMES, PresetTarget, preset_comment
from inwards_core.presets.styles import FASTAPI_ROLES_FLAT

EXISTING = (
    "shop",
    "shop.features.orders",
    "shop.features.orders.api",
    "shop.features.billing",
    "shop.features.billing.domain",
    "shop.orders",
    "shop.orders.domain",
    "shop.orders.models",
    "shop.orders.views",
    "shop.orders.router",
    "shop.kernel",
)


def load(table: dict[str, Any]) -> None:
    build_config(table, file="pyproject.toml", positions=NoPositions())


@pytest.mark.parametrize("style", list(PRESETS))
@pytest.mark.parametrize("modules", [(), EXISTING], ids=["new project", "existing packages"])
def test_preset_table_loads(style: str, modules: tuple[str, ...]) -> None:
    table = PRESETS[style].table(PresetTarget("shop", "src", "0.1.0", modules))
    load(table)  # raises ConfigError listing every problem
    assert set(table) <= set(TOP_LEVEL_KEYS)


@pytest.mark.parametrize("style", list(PRESETS))
def test_every_preset_writes_the_common_head(style: str) -> None:
    table = PRESETS[style].table(PresetTarget("shop", "src", "9.8.7"))
    assert list(table)[:4] == ["root", "required-version", "ignore", "cycles"]
    assert table["root"] == "src"
    assert table["required-version"] == "9.8.7"
    assert table["cycles"] == ["modules", "contexts"]
    assert table["ignore"]


@pytest.mark.parametrize("style", list(PRESETS))
def test_the_comment_names_the_style_and_its_gap(style: str) -> None:
    preset = PRESETS[style]
    comment = preset_comment(preset)
    assert comment.startswith(f"Preset: {style} ")
    assert "Not enforced by this preset:" in comment
    assert all(len(line) <= 86 for line in comment.splitlines())


def test_style_names_and_the_help_agree() -> None:
    assert ", ".join(STYLE_NAMES) == STYLES_HELP
    assert STYLE_NAMES[-1] == "auto"


def test_contexts_are_declared_for_the_packages_that_exist() -> None:
    slices = PRESETS["vertical-slices"].table(PresetTarget("shop", modules=EXISTING))
    assert [c["name"] for c in slices["contexts"]] == ["billing", "orders"]
    assert slices["contexts"][0] == {
        "name": "billing",
        "modules": ["shop.features.billing"],
        "template": "slice",
    }
    assert "contexts" not in PRESETS["vertical-slices"].table(PresetTarget("shop"))
    django = PRESETS["django"].table(PresetTarget("shop", ".", modules=EXISTING))
    assert django["contexts"] == [
        {
            "name": "orders",
            "modules": ["shop.orders"],
            "public": ["shop.orders.services", "shop.orders.urls"],
        }
    ]
    assert django["rules"] == {"ignore": ["INW002"]}
    fastapi = PRESETS["fastapi"].table(PresetTarget("shop", modules=EXISTING))
    assert [c["name"] for c in fastapi["contexts"]] == ["orders"]


def test_fastapi_never_names_a_rule_that_does_not_exist() -> None:
    table = PRESETS["fastapi"].table(PresetTarget("shop"))
    assert "FAPI004" not in table["rules"]["extend-select"]
    assert set(table["rules"]["severity"].values()) == {"warning"}
    assert "router" in FASTAPI_ROLES_FLAT


@pytest.mark.parametrize("style", list(PRESETS))
def test_scaffold_files_are_unique_and_in_the_layout(style: str) -> None:
    preset = PRESETS[style]
    files = preset.scaffold("shop")
    paths = [file.path for file in files]
    assert len(paths) == len(set(paths))
    assert paths == sorted(paths)
    top = "shop/" if preset.scaffold_root == "." else "src/shop/"
    assert f"{top}__init__.py" in paths
    assert any(path.startswith("tests/") for path in paths)
    for file in files:
        assert "{" not in file.path
        if file.path.endswith(".py") and file.text:
            compile(file.text, file.path, "exec")  # valid Python, every placeholder filled


def test_hexagonal_scaffold_is_the_fifteen_files() -> None:
    assert len(PRESETS["hexagonal"].scaffold("shop")) == 15


def test_the_package_name_reaches_every_import() -> None:
    files = PRESETS["clean"].scaffold("acme_shop")
    bootstrap = next(file for file in files if file.path.endswith("bootstrap.py"))
    assert "from acme_shop.infrastructure.memory import InMemoryOrders" in bootstrap.text


@pytest.mark.parametrize("style", list(PRESETS))
def test_scaffold_imports_are_sorted(style: str) -> None:
    """As isort and ruff want them, whatever module each role lands in."""
    for file in PRESETS[style].scaffold("shop"):
        run: list[str] = []
        for line in [*file.text.split("\n"), ""]:
            if line.startswith("from shop."):
                run.append(line)
                continue
            assert run == sorted(run), file.path
            run = []
