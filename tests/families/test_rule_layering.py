"""The layering of an inw.layers rule (`inwards_rule_layering`), the brief's lines about the
layerings rules check, and what the generic kinds' rules say about a module in
`explain-module`: asked of `PluginHost` with rules from an in-memory project root."""

from __future__ import annotations

from inwards_core import ModuleIndex, RuleLayering, load_config_text
from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.api import installed_families, load_rules
from inwards_core.diagrams.brief import architecture_brief
from inwards_core.diagrams.writing import rule_diagram
from inwards_core.families.inw import plugin as inw_plugin
from inwards_core.plugins import PluginHost
from inwards_core.ports import ProjectListing
from inwards_core.rules.selection import ActiveRule, select

HOST = PluginHost.create(plugins=[inw_plugin])
CONFIG = """
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  [
    { name = "service", modules = ["shop.service"] },
    { name = "jobs", modules = ["shop.jobs"] },
  ],
]
[tool.inwards.rules]
select = ["ACME001", "ACME002", "ACME003", "ACME004"]
"""
# The table's own layers, as an import-config rule checks them (through chains).
SAME = """code = "ACME001"
name = "shop-layers"
summary = "The shop's layers."
check = "inw.layers"
[options]
layers = ["domain", "service | jobs"]
containers = ["shop"]
indirect = true
"""
# Layers inside the service, with siblings that may import each other and an optional one.
INNER = """code = "ACME002"
name = "service-layers"
summary = "Inside the service."
check = "inw.layers"
[options]
layers = ["(models)", "forms : views", "api"]
containers = ["shop.service"]
"""
APART = """code = "ACME003"
name = "apart"
summary = "Service and jobs stay apart."
check = "inw.independence"
[options]
modules = ["shop.service", "shop.jobs"]
indirect = true
"""
NO_LEGACY = """code = "ACME004"
name = "no-legacy"
summary = "The domain keeps out of legacy."
check = "inw.forbidden"
[options]
modules = ["shop.domain"]
forbidden = ["shop.legacy"]
"""
FILES = (
    "shop/__init__.py", "shop/domain/__init__.py", "shop/jobs.py", "shop/legacy.py",
    "shop/service/__init__.py", "shop/service/forms.py", "shop/service/views.py",
    "shop/service/api.py",
)  # fmt: skip


def enabled() -> dict[str, ActiveRule]:
    families = installed_families(entry_points=False, plugins=[inw_plugin])
    project = {"ACME001.toml": SAME, "ACME002.toml": INNER, "ACME003.toml": APART}
    project["ACME004.toml"] = NO_LEGACY
    rule_set = load_rules(families, InMemoryRuleSources(families, project=project))
    config = load_config_text(CONFIG)
    return {rule.code: rule for rule in select(rule_set, config.rules) if rule.enabled}


def test_a_rule_layering_has_its_layers_by_rank_under_its_containers() -> None:
    rules = enabled()
    inner = HOST.rule_layering(rules["ACME002"])
    assert isinstance(inner, RuleLayering)
    assert (inner.code, inner.containers, inner.chains) == ("ACME002", ("shop.service",), False)
    assert [[(layer.name, layer.modules) for layer in group] for group in inner.ranks()] == [
        [("(models)", ("shop.service.models",))],
        [("forms : views", ("shop.service.forms", "shop.service.views"))],
        [("api", ("shop.service.api",))],
    ]
    same = HOST.rule_layering(rules["ACME001"])
    assert same is not None and same.chains
    config = load_config_text(CONFIG)
    assert same.same_layers(config.layers) and not inner.same_layers(config.layers)
    # A rule of another kind checks no layering.
    assert HOST.rule_layering(rules["ACME003"]) is None


def test_the_brief_lists_each_layering_and_says_when_it_is_the_tables() -> None:
    config = load_config_text(CONFIG)
    rules = tuple(enabled().values())
    lines = architecture_brief(config, rules, HOST).splitlines()
    assert lines[lines.index("Layers that rules check, each on its own, innermost first "
                             "(`a | b`: siblings that may not import each other; `a : b`: "
                             "siblings that may):") + 1 :][:2] == [
        "- ACME001 shop-layers (in `shop`): the layers above; chains of imports through "
        "other modules count too.",
        "- ACME002 service-layers (in `shop.service`): (models) <- forms : views <- api.",
    ]  # fmt: skip


def test_explain_module_says_what_each_rule_says_about_the_module() -> None:
    config = load_config_text(CONFIG)
    directories = ("shop", "shop/domain", "shop/service")
    index = ModuleIndex.build(config, ProjectListing(tuple(sorted(FILES)), directories))
    explanation = HOST.explain_module(config, index, "shop.service.forms", enabled())
    assert explanation is not None
    document = explanation.to_json()
    assert [rule["code"] for rule in document["rules"]] == ["ACME001", "ACME002", "ACME003"]
    outer, inner, apart = document["rules"]
    assert (outer["layer"], outer["container"], outer["may_not_import"]) == (
        "service",
        "shop",
        ["jobs"],
    )
    assert inner["says"] == ('layer "forms" of shop.service: may import models, views; not api')
    assert inner["may_import"] == ["models", "views"]
    assert apart["says"] == (
        "shop.service and shop.jobs may not import each other, not even through other modules"
    )
    # INW005 is not selected: no library list is claimed.
    assert document["may_import"]["libraries"] is None
    assert "  libraries: not checked (INW005 is off)" in explanation.render().splitlines()
    domain = HOST.explain_module(config, index, "shop.domain", enabled())
    assert domain is not None
    (forbidden,) = [r for r in domain.to_json()["rules"] if r["code"] == "ACME004"]
    assert forbidden["says"] == "may not import shop.legacy"


def test_a_rule_diagram_carries_no_marker() -> None:
    layering = HOST.rule_layering(enabled()["ACME002"])
    assert layering is not None
    text = rule_diagram(layering, ".inwards/rules/ACME002.toml", "mermaid")
    assert "inwards: layers" not in text
    assert '  forms___views["forms : views: shop.service.forms, shop.service.views"]' in text
    assert "  api --> forms___views" in text
