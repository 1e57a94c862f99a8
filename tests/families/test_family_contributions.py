"""What a family contributes to the core's commands through the plugin hooks, asked of
`PluginHost`: brief lines, a module's explanation, the kinds import-linter's contracts
become. A third-party plugin's contributions join INW's; without a plugin, they are gone."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inwards_core import ModuleIndex, hookimpl, load_config_text
from inwards_core.api import load_rules
from inwards_core.config.values import Config, Layer
from inwards_core.diagrams.brief import architecture_brief
from inwards_core.families.inw import plugin as inw_plugin
from inwards_core.plugins import PluginHost
from inwards_core.ports import ProjectListing
from inwards_core.rules.selection import ActiveRule, select

CONFIG = """
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["app.domain"] },
  { name = "adapters", modules = ["app.adapters"] },
]
[tool.inwards.rules]
extend-select = ["INW014"]
"""
DEFAULT_DENY = "Libraries kept out: web frameworks"
PORTS = "Ports live in every module with a `ports` segment in its name"


class _Explained:
    def __init__(self, module: str) -> None:
        self.module = module

    def render(self) -> str:
        return f"{self.module}: explained by the third family\n"

    def to_json(self) -> dict[str, Any]:
        return {"module": self.module}


class _ThirdFamily:
    """A third-party family's plugin contributing to each hook."""

    @hookimpl
    def inwards_brief_layer_lines(
        self, config: Config, group: Sequence[Layer], rules: Mapping[str, ActiveRule]
    ) -> Sequence[str]:
        return [f"   Third: {layer.name} is tidy." for layer in group]

    @hookimpl
    def inwards_brief_lines(self, config: Config, rules: Mapping[str, ActiveRule]) -> Sequence[str]:
        return ["", f"Third: {len(rules)} rules on."]

    @hookimpl
    def inwards_explain_module(self, config: Config, index: ModuleIndex, module: str) -> _Explained:
        return _Explained(module)

    @hookimpl
    def inwards_import_linter_kinds(self) -> Mapping[str, str]:
        return {"layers": "third.layers", "custom": "third.custom"}


def _brief(host: PluginHost) -> str:
    config = load_config_text(CONFIG)
    return architecture_brief(config, select(load_rules(), config.rules), host)


def test_inw_contributes_its_library_and_port_lines() -> None:
    brief = _brief(PluginHost.create(plugins=[inw_plugin]))
    assert DEFAULT_DENY in brief
    assert PORTS in brief


def test_without_a_plugin_its_brief_lines_are_gone() -> None:
    brief = _brief(PluginHost.create())
    assert DEFAULT_DENY not in brief
    assert PORTS not in brief
    assert brief.startswith("## Architecture brief (inwards)\n")


def test_a_third_family_adds_its_lines_after_those_registered_before() -> None:
    lines = _brief(PluginHost.create(plugins=[inw_plugin, _ThirdFamily()])).splitlines()
    domain = lines.index("1. **domain** (`app.domain`): imports no other layer.")
    assert lines[domain + 1].startswith("   " + DEFAULT_DENY)
    assert lines[domain + 2] == "   Third: domain is tidy."
    ports = next(n for n, line in enumerate(lines) if line.startswith(PORTS))
    assert lines[ports + 1] == ""
    assert lines[ports + 2].startswith("Third: ") and lines[ports + 2].endswith(" rules on.")


def test_the_first_registered_plugin_names_a_contract_types_kind() -> None:
    both = PluginHost.create(plugins=[inw_plugin, _ThirdFamily()]).import_linter_kinds()
    assert both["layers"] == "inw.layers"
    assert both["custom"] == "third.custom"
    assert PluginHost.create(plugins=[_ThirdFamily()]).import_linter_kinds()["layers"] == (
        "third.layers"
    )
    assert PluginHost.create().import_linter_kinds() == {}


def test_the_first_plugin_that_answers_explains_a_module() -> None:
    config = load_config_text(CONFIG)
    index = ModuleIndex.build(
        config, ProjectListing(("src/app/__init__.py", "src/app/domain.py"), ("src", "src/app"))
    )
    third = PluginHost.create(plugins=[_ThirdFamily()]).explain_module(config, index, "app.domain")
    assert third is not None
    assert third.render() == "app.domain: explained by the third family\n"
    inw = PluginHost.create(plugins=[inw_plugin]).explain_module(config, index, "app.domain")
    assert inw is not None
    assert inw.to_json()["layer"]["name"] == "domain"
    assert PluginHost.create().explain_module(config, index, "app.domain") is None
