"""Templates: `[tool.inwards.templates.<name>]` and `template = "<name>"` on layer, context
and shape entries, expanded before the readers see the table, with every problem at a key
of the file."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from inwards_core.config import templates
from inwards_core.config.load import TOP_LEVEL_KEYS, build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.problems import ProblemCollector
from inwards_core.config.templates import MAX_EXPANDED_ENTRIES, Expansion, expand_templates
from inwards_core.config.values import Config, ConfigError, NoPositions
from inwards_core.model.findings import Severity

SLICE = '[tool.inwards.templates.slice]\nroles = ["domain", "app | infra"]\n'


def config_of(text: str) -> Config:
    table = tomllib.loads(text)["tool"]["inwards"]
    return build_config(table, file="pyproject.toml", positions=TomlPositions(text))


def problems_of(text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        config_of(text)
    return [problem.render() for problem in caught.value.problems]


def only_problem(text: str) -> str:
    found = problems_of(text)
    assert len(found) == 1, found
    return found[0]


def at(text: str, line: int, fragment: str) -> str:
    column = text.splitlines()[line - 1].index(fragment) + 1
    return f"pyproject.toml:{line}:{column}"


def expanded(text: str) -> tuple[Expansion, list[str]]:
    """The expansion alone (for contexts and shapes, whose readers are elsewhere)."""
    table = tomllib.loads(text)["tool"]["inwards"]
    collector = ProblemCollector("pyproject.toml", TomlPositions(text))
    expansion = expand_templates(table, collector)
    return expansion, [problem.render() for problem in collector.sorted_problems()]


def layers_text(entry: str, template: str = SLICE) -> str:
    return (
        "[tool.inwards]\n"
        "layers = [\n"
        '  { name = "kernel", modules = ["shop.kernel"] },\n'
        f"  {entry},\n"
        '  { name = "main", modules = ["shop.main"] },\n'
        "]\n" + template
    )


BC = '{ name = "bc", modules = ["shop.orders", "shop.billing"], template = "slice" }'


class TestLayers:
    def test_one_layer_per_role_innermost_first_with_siblings(self) -> None:
        config = config_of(layers_text(BC))
        assert [(layer.rank, layer.name, layer.modules) for layer in config.layers] == [
            (0, "kernel", ("shop.kernel",)),
            (1, "bc.domain", ("shop.orders.domain", "shop.billing.domain")),
            (2, "bc.app", ("shop.orders.app", "shop.billing.app")),
            (2, "bc.infra", ("shop.orders.infra", "shop.billing.infra")),
            (3, "main", ("shop.main",)),
        ]

    def test_the_entry_s_other_keys_go_to_every_role_layer(self) -> None:
        entry = BC.replace("}", ', deny-libraries = ["requests"] }')
        config = config_of(layers_text(entry))
        assert [layer.deny_libraries for layer in config.layers[1:4]] == [("requests",)] * 3

    def test_selectors_and_dotted_roles(self) -> None:
        template = '[tool.inwards.templates.slice]\nroles = ["domain", "adapters.db"]\n'
        entry = '{ name = "bc", modules = ["shop.*"], template = "slice" }'
        config = config_of(layers_text(entry, template))
        assert [(layer.name, layer.modules) for layer in config.layers[1:3]] == [
            ("bc.domain", ("shop.*.domain",)),
            ("bc.adapters.db", ("shop.*.adapters.db",)),
        ]

    def test_a_role_layer_points_at_its_entry_and_later_layers_at_their_own(self) -> None:
        text = layers_text(BC)
        config = config_of(text)
        infra = config.layer_named("bc.infra")
        assert infra is not None
        line, column = config.locate(f"{infra.key}.modules[1]")
        assert f"pyproject.toml:{line}:{column}" == at(text, 4, '"shop.billing"')
        main = config.layer_named("main")
        assert main is not None and main.key == "tool.inwards.layers[3]"
        line, column = config.locate(f"{main.key}.modules[0]")
        assert f"pyproject.toml:{line}:{column}" == at(text, 5, '"shop.main"')

    def test_a_config_without_templates_is_read_as_before(self) -> None:
        text = '[tool.inwards]\nlayers = [{ name = "d", modules = ["shop.d"] }]\n'
        table = tomllib.loads(text)["tool"]["inwards"]
        positions = TomlPositions(text)
        config = build_config(table, file="pyproject.toml", positions=positions)
        assert config.positions is positions
        assert config.rules.templates == ()

    def test_templates_is_a_top_level_key(self) -> None:
        assert "templates" in TOP_LEVEL_KEYS

    def test_a_mapping_from_code_expands_too(self) -> None:
        table: dict[str, Any] = {
            "layers": [{"name": "bc", "modules": ["shop"], "template": "t"}],
            "templates": {"t": {"roles": ["a", "b"]}},
        }
        config = build_config(table, file="pyproject.toml", positions=NoPositions())
        assert [layer.name for layer in config.layers] == ["bc.a", "bc.b"]


class TestLayerProblems:
    def test_unknown_template_with_a_suggestion(self) -> None:
        text = layers_text(BC.replace('"slice"', '"slcie"'))
        assert only_problem(text) == (
            at(text, 4, "template") + ": tool.inwards.layers[1].template: names template "
            '"slcie", which is not defined. Templates: "slice". Did you mean "slice"?'
        )

    def test_unknown_template_when_none_is_defined(self) -> None:
        text = layers_text(BC, template="")
        assert only_problem(text).endswith(
            'names template "slice", but there is none: define it as '
            "[tool.inwards.templates.slice]."
        )

    def test_template_is_a_name(self) -> None:
        text = layers_text(BC.replace('"slice"', "3"))
        assert only_problem(text).endswith(
            'tool.inwards.layers[1].template: must be the name of a template, such as "slice", '
            "not an integer."
        )

    def test_a_template_without_roles_makes_no_layers(self) -> None:
        text = layers_text(BC, '[tool.inwards.templates.slice]\npublic = ["api"]\n')
        assert only_problem(text) == (
            at(text, 4, "template") + ': tool.inwards.layers[1].template: names template "slice", '
            "which has no `roles`, so it makes no layers. List them, innermost first, in "
            "tool.inwards.templates.slice.roles."
        )

    def test_a_sibling_can_t_name_a_template(self) -> None:
        text = (
            "[tool.inwards]\nlayers = [\n"
            '  [{ name = "a", modules = ["shop.a"], template = "slice" },'
            ' { name = "b", modules = ["shop.b"] }],\n'
            "]\n" + SLICE
        )
        assert only_problem(text).startswith(
            at(text, 3, "template") + ": tool.inwards.layers[0][0].template: can't be used by "
            "a layer in a group of siblings"
        )

    def test_a_role_layer_that_clashes_with_a_layer_name(self) -> None:
        text = layers_text(BC).replace('name = "kernel"', 'name = "bc.app"')
        assert only_problem(text) == (
            at(text, 4, "name")
            + ': tool.inwards.layers[1].name: "bc.app" is already the name of the layer at '
            "tool.inwards.layers[0]; layer names must be unique."
        )

    def test_a_role_module_in_another_layer(self) -> None:
        text = layers_text(BC).replace('"shop.kernel"', '"shop.orders.app"')
        assert only_problem(text) == (
            at(text, 4, '"shop.orders"')
            + ': tool.inwards.layers[1].modules[0]: "shop.orders.app" is in two layers, '
            '"kernel" and "bc.app"; a module entry belongs to one layer.'
        )

    def test_a_bad_entry_key_is_said_once_at_the_entry(self) -> None:
        text = layers_text(BC.replace("}", ", bogus = 1 }"))
        assert only_problem(text).startswith(
            at(text, 4, "bogus") + ": tool.inwards.layers[1].bogus: is not a layer key."
        )

    def test_an_entry_without_modules_is_read_as_written(self) -> None:
        text = layers_text('{ name = "bc", template = "slice" }')
        assert only_problem(text).startswith(
            at(text, 4, "{") + ": tool.inwards.layers[1]: has no `modules`"
        )


class TestTemplateTable:
    @pytest.mark.parametrize(
        ("roles", "message"),
        [
            (
                "[]",
                "roles: must be a non-empty array of roles, innermost first, such as "
                '["domain", "application", "api | cli"], not an empty array.',
            ),
            ('["a", 1]', "roles[1]: must be a string, not an integer."),
            ('["a", "b |"]', 'roles[1]: "b |" must name a module below the layer\'s modules'),
            ('["a", "*"]', 'roles[1]: "*" must name a module below the layer\'s modules'),
            ('["a", "b | b"]', 'roles[1]: "b | b" names one sibling role twice.'),
            ('["a", "b | a"]', 'roles[1]: names role "a" again; each role is one layer.'),
        ],
    )
    def test_bad_roles(self, roles: str, message: str) -> None:
        text = layers_text(BC, f"[tool.inwards.templates.slice]\nroles = {roles}\n")
        assert f"tool.inwards.templates.slice.{message}" in only_problem(text)

    def test_unknown_template_key(self) -> None:
        text = layers_text(BC, SLICE + "role = 1\n")
        assert only_problem(text) == (
            at(text, 9, "role") + ": tool.inwards.templates.slice.role: is not a template key. "
            "Known keys: roles, public, allow, require, forbid, extra, hints, rules. "
            'Did you mean "roles"?'
        )

    def test_templates_must_be_tables(self) -> None:
        text = '[tool.inwards]\nlayers = [{ name = "d", modules = [] }]\ntemplates = 1\n'
        assert only_problem(text).endswith(
            "tool.inwards.templates: must be a table of templates, such as "
            "[tool.inwards.templates.slice], not an integer."
        )
        text = '[tool.inwards]\nlayers = [{ name = "d", modules = [] }]\ntemplates.t = 1\n'
        assert "tool.inwards.templates.t: must be a table of template keys" in only_problem(text)

    def test_an_unused_template_is_still_checked(self) -> None:
        text = layers_text('{ name = "bc", modules = [] }', SLICE + 'public = ["a.*"]\n')
        assert 'tool.inwards.templates.slice.public[0]: "a.*" must name a module below' in (
            only_problem(text)
        )

    def test_shape_lists_are_arrays_of_strings(self) -> None:
        text = layers_text(BC, SLICE + "allow = [1]\n")
        assert only_problem(text).endswith(
            "tool.inwards.templates.slice.allow[0]: must be a string, not an integer."
        )


class TestContexts:
    TEXT = (
        "[tool.inwards]\n"
        'layers = [{ name = "d", modules = [] }]\n'
        "[[tool.inwards.contexts]]\n"
        'name = "orders"\n'
        'modules = ["shop.orders", "shop.billing"]\n'
        'public = ["shop.orders.facade"]\n'
        'template = "slice"\n'
        "[tool.inwards.templates.slice]\n"
        'public = ["api", "events.out"]\n'
    )

    def test_public_gains_each_module_s_public_roles_after_its_own(self) -> None:
        expansion, problems = expanded(self.TEXT)
        assert problems == []
        assert expansion.table["contexts"] == [
            {
                "name": "orders",
                "modules": ["shop.orders", "shop.billing"],
                "public": [
                    "shop.orders.facade",
                    "shop.orders.api",
                    "shop.orders.events.out",
                    "shop.billing.api",
                    "shop.billing.events.out",
                ],
            }
        ]
        assert "templates" not in expansion.table

    def test_an_added_public_entry_points_at_the_template(self) -> None:
        expansion, _ = expanded(self.TEXT)
        key = expansion.key_in_file("tool.inwards.contexts[0].public[4]")
        assert key == "tool.inwards.templates.slice.public[1]"
        line, column = expansion.positions.locate("tool.inwards.contexts[0].public[4]") or (0, 0)
        assert f"pyproject.toml:{line}:{column}" == at(self.TEXT, 9, '"events.out"')
        assert expansion.key_in_file("tool.inwards.contexts[0].public[0]") == (
            "tool.inwards.contexts[0].public[0]"
        )

    def test_a_context_template_needs_public(self) -> None:
        text = self.TEXT.replace('public = ["api", "events.out"]', 'roles = ["a"]')
        _, problems = expanded(text)
        assert problems == [
            at(text, 7, "template")
            + ': tool.inwards.contexts[0].template: names template "slice", '
            "which has no `public`, so it says nothing about this context. List the public "
            'modules below each of its modules, such as ["api"], in '
            "tool.inwards.templates.slice.public."
        ]

    def test_unknown_template_on_a_context(self) -> None:
        _, problems = expanded(self.TEXT.replace('template = "slice"', 'template = "x"'))
        assert problems[0].endswith(
            'tool.inwards.contexts[0].template: names template "x", which is not defined. '
            'Templates: "slice".'
        )


class TestShapes:
    TEXT = (
        "[tool.inwards]\n"
        'layers = [{ name = "d", modules = [] }]\n'
        "[[tool.inwards.shape]]\n"
        'packages = ["shop.*"]\n'
        'template = "slice"\n'
        'forbid = ["utils"]\n'
        "[tool.inwards.templates.slice]\n"
        'roles = ["domain", "app | adapters.db"]\n'
        'allow = ["api.py", "app"]\n'
        'require = ["domain/"]\n'
        'forbid = ["helpers"]\n'
        'extra = "warning"\n'
    )

    def test_the_template_fills_what_the_entry_leaves_out(self) -> None:
        expansion, problems = expanded(self.TEXT)
        assert problems == []
        assert expansion.table["shape"] == [
            {
                "packages": ["shop.*"],
                "forbid": ["utils"],
                "allow": ["api.py", "app", "domain", "adapters"],
                "require": ["domain/"],
                "extra": "warning",
            }
        ]

    def test_copied_values_point_at_the_template(self) -> None:
        expansion, _ = expanded(self.TEXT)
        assert expansion.key_in_file("tool.inwards.shape[0].allow[1]") == (
            "tool.inwards.templates.slice.allow[1]"
        )
        # A role's first segment comes from the role that added it.
        assert expansion.key_in_file("tool.inwards.shape[0].allow[3]") == (
            "tool.inwards.templates.slice.roles[1]"
        )
        assert expansion.key_in_file("tool.inwards.shape[0].require[0]") == (
            "tool.inwards.templates.slice.require[0]"
        )
        assert expansion.key_in_file("tool.inwards.shape[0].forbid[0]") == (
            "tool.inwards.shape[0].forbid[0]"
        )

    def test_an_entry_s_own_allow_is_left_as_it_is(self) -> None:
        expansion, _ = expanded(self.TEXT.replace('forbid = ["utils"]', 'allow = ["x"]'))
        assert expansion.table["shape"][0]["allow"] == ["x"]

    def test_hints_in_either_form_come_from_the_template(self) -> None:
        as_list = self.TEXT + 'hints = ["Shared code goes into shop.kernel.", "a -> b"]\n'
        shape = config_of(as_list).shapes[0]
        assert shape.advice == ("Shared code goes into shop.kernel.", "a -> b")
        assert shape.hints == {}
        as_table = self.TEXT + 'hints = { helpers = "utils" }\n'
        shape = config_of(as_table).shapes[0]
        assert (shape.hints, shape.advice) == ({"helpers": "utils"}, ())
        # The entry's own hints win, whatever the form of either.
        own = as_list.replace('forbid = ["utils"]', 'hints = { misc = "utils" }')
        shape = config_of(own).shapes[0]
        assert (shape.hints, shape.advice) == ({"misc": "utils"}, ())

    def test_a_bad_sentence_of_a_template_is_at_the_template(self) -> None:
        text = self.TEXT + 'hints = ["Fine.", ""]\n'
        assert only_problem(text) == (
            at(text, 13, '""') + ": tool.inwards.templates.slice.hints[1]: is empty; write a "
            "sentence that tells where such code goes."
        )
        text = self.TEXT + "hints = 3\n"
        assert only_problem(text).startswith(
            at(text, 13, "hints") + ": tool.inwards.templates.slice.hints: must be a table"
        )


RULES_LAYERS = layers_text(BC, "")


def rules_text(rules: str, user: str = "") -> str:
    return RULES_LAYERS + user + SLICE + rules


class TestRules:
    def test_rules_are_gathered_over_roles_and_entries(self) -> None:
        text = rules_text(
            'rules = { domain = { no-orm = "warning" }, app = { no-orm = { strict = true } },'
            " infra = { no-orm = true } }\n"
        )
        (rule,) = config_of(text).rules.templates
        assert rule.name == "no-orm"
        assert rule.modules == (
            "shop.orders.domain",
            "shop.billing.domain",
            "shop.orders.app",
            "shop.billing.app",
            "shop.orders.infra",
            "shop.billing.infra",
        )
        assert rule.keys == (
            "tool.inwards.templates.slice.rules.domain.no-orm",
            "tool.inwards.templates.slice.rules.app.no-orm",
            "tool.inwards.templates.slice.rules.infra.no-orm",
        )
        assert rule.severity is Severity.WARNING
        assert rule.severity_key == "tool.inwards.templates.slice.rules.domain.no-orm"
        assert rule.options == {"strict": True}

    def test_two_severities_for_one_rule_name_both_keys(self) -> None:
        text = rules_text('rules = { domain = { r = "warning" }, app = { r = "error" } }\n')
        assert only_problem(text).endswith(
            'tool.inwards.templates.slice.rules.app.r: makes r "error", but '
            'tool.inwards.templates.slice.rules.domain.r makes it "warning"; a rule has one '
            "severity. Write the same level in both, or true in one of them."
        )

    def test_two_option_values_name_both_keys_unless_the_user_sets_it(self) -> None:
        rules = "rules = { domain = { r = { depth = 1 } }, app = { r = { depth = 2 } } }\n"
        assert only_problem(rules_text(rules)).endswith(
            "tool.inwards.templates.slice.rules.app.r.depth: disagrees with "
            "tool.inwards.templates.slice.rules.domain.r.depth: a rule has one value per "
            "option. Give both the same value, or set it once in [tool.inwards.rules.r], "
            "which wins over every template."
        )
        config_of(rules_text(rules, user="[tool.inwards.rules.r]\ndepth = 3\n"))

    def test_two_templates_that_disagree(self) -> None:
        text = (
            "[tool.inwards]\nlayers = [\n"
            '  { name = "a", modules = ["shop.a"], template = "one" },\n'
            '  { name = "b", modules = ["shop.b"], template = "two" },\n'
            "]\n"
            "[tool.inwards.templates.one]\n"
            'roles = ["x"]\nrules = { x = { r = "warning" } }\n'
            "[tool.inwards.templates.two]\n"
            'roles = ["y"]\nrules = { y = { r = "error" } }\n'
        )
        problem = only_problem(text)
        assert "tool.inwards.templates.two.rules.y.r: makes r" in problem
        assert "but tool.inwards.templates.one.rules.x.r makes it" in problem

    @pytest.mark.parametrize(
        ("rules", "message"),
        [
            (
                "rules = { nope = { r = true } }",
                'rules.nope: is not a role of this template. Its roles: "app", "domain", "infra".',
            ),
            ("rules = { app = 1 }", "rules.app: must be a table of rule names"),
            (
                "rules = { app = { r = false } }",
                'rules.app.r: must be true, "error", "warning" or a table of the rule\'s '
                "options, not a boolean",
            ),
            ('rules = { app = { r = "info" } }', 'rules.app.r: must be true, "error"'),
            (
                'rules = { app = { r = { modules = ["x"] } } }',
                "rules.app.r: sets `modules`, which the template fills",
            ),
            ("rules = 1", "rules: must be a table of roles"),
        ],
    )
    def test_bad_rules(self, rules: str, message: str) -> None:
        assert f"tool.inwards.templates.slice.{message}" in only_problem(rules_text(rules + "\n"))

    def test_rules_of_a_template_no_layer_uses(self) -> None:
        text = layers_text(
            '{ name = "bc", modules = [] }', SLICE + "rules = { app = { r = true } }\n"
        )
        assert only_problem(text) == (
            at(text, 9, "rules") + ": tool.inwards.templates.slice.rules: turns rules on for the "
            'roles of template "slice", but no layer uses the template, so its roles own no '
            'modules. Add template = "slice" to an entry of `layers`, or remove the rules.'
        )


def modules(entry: int) -> str:
    return ", ".join(f'"shop.e{entry}.m{i}"' for i in range(100))


class TestLimits:
    def test_an_expansion_past_the_limit_is_one_problem(self) -> None:
        roles = ", ".join(f'"r{i}"' for i in range(200))
        entries = "".join(
            f'  {{ name = "e{i}", modules = [{modules(i)}], template = "t" }},\n' for i in range(3)
        )
        text = (
            f"[tool.inwards]\nlayers = [\n{entries}]\n"
            f"[tool.inwards.templates.t]\nroles = [{roles}]\n"
        )
        problem = only_problem(text)
        assert problem.startswith(at(text, 3, "template") + ": tool.inwards.layers[0].template")
        assert f"more than {MAX_EXPANDED_ENTRIES:,} module entries" in problem

    def test_the_limit_counts_everything_written(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(templates, "MAX_EXPANDED_ENTRIES", 7)
        # 3 roles x 2 modules = 6 module entries fit; one more templated entry does not.
        config_of(layers_text(BC))
        text = layers_text(BC).replace(
            '{ name = "main", modules = ["shop.main"] }',
            '{ name = "main", modules = ["shop.main"], template = "slice" }',
        )
        assert "tool.inwards.layers[2].template: would make the templates write" in (
            only_problem(text)
        )
