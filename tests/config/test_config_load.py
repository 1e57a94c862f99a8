from __future__ import annotations

import tomllib
from typing import Any

import pytest

from inwards_core.config import load
from inwards_core.config.load import TOP_LEVEL_KEYS, build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import (
    DEFAULT_GENERATED,
    Config,
    ConfigError,
    Layer,
    NoPositions,
    RuleSettings,
)
from inwards_core.model.findings import Severity

LAYERS = 'layers = [{ name = "domain", modules = ["shop.domain"] }]\n'


def config_of(text: str) -> Config:
    table = tomllib.loads(text)["tool"]["inwards"]
    return build_config(table, file="pyproject.toml", positions=TomlPositions(text))


def problems_of(text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        config_of(text)
    rendered = [problem.render() for problem in caught.value.problems]
    assert str(caught.value) == "\n".join(rendered)
    return rendered


def at(text: str, line: int, fragment: str) -> str:
    """`pyproject.toml:LINE:COL` of the first `fragment` on `line`, found independently."""
    column = text.splitlines()[line - 1].index(fragment) + 1
    return f"pyproject.toml:{line}:{column}"


def only_problem(text: str) -> str:
    found = problems_of(text)
    assert len(found) == 1, found
    return found[0]


class TestTheMessageStyle:
    def test_example_from_the_brief(self) -> None:
        text = (
            "[tool.inwards]\n"
            'root = "."\n'
            "[[tool.inwards.layers]]\n"
            'name = "domain"\n'
            'modules = ["shop.domain"]\n'
            "[[tool.inwards.layers]]\n"
            'modules = ["shop..x"]\n'
            'name = "app"\n'
        )
        assert only_problem(text) == (
            "pyproject.toml:7:12: tool.inwards.layers[1].modules[0]: "
            '"shop..x" has an empty segment.'
        )

    def test_entries_on_their_own_lines(self) -> None:
        text = (
            "[tool.inwards]\n"
            "layers = [\n"
            '  { name = "domain", modules = ["shop.domain"] },\n'
            '  { name = "app", modules = [\n'
            "      # the entry below is the broken one\n"
            '      "shop.app", "shop..x",\n'
            "  ] },\n"
            "]\n"
        )
        assert only_problem(text) == (
            "pyproject.toml:6:19: tool.inwards.layers[1].modules[1]: "
            '"shop..x" has an empty segment.'
        )


class TestTopLevel:
    def test_unknown_key_lists_known_keys(self) -> None:
        text = "[tool.inwards]\n" + LAYERS + "bogus = 1\n"
        assert only_problem(text) == (
            "pyproject.toml:3:1: tool.inwards.bogus: is not a [tool.inwards] key. "
            f"Known keys: {', '.join(TOP_LEVEL_KEYS)}."
        )

    def test_unknown_key_close_to_a_known_one(self) -> None:
        text = '[tool.inwards]\nlayer = [{ name = "domain", modules = [] }]\n'
        assert problems_of(text) == [
            "pyproject.toml:1:7: tool.inwards: has no `layers`. List the layers innermost "
            'first, such as layers = [{ name = "domain", modules = ["shop.domain"] }].',
            "pyproject.toml:2:1: tool.inwards.layer: is not a [tool.inwards] key. "
            f'Known keys: {", ".join(TOP_LEVEL_KEYS)}. Did you mean "layers"?',
        ]

    def test_quoted_unknown_key_is_named_as_written(self) -> None:
        text = "[tool.inwards]\n" + LAYERS + '"odd key" = 1\n'
        assert only_problem(text).startswith('pyproject.toml:3:1: tool.inwards."odd key": is not')

    @pytest.mark.parametrize(
        ("line", "message"),
        [
            ("root = 1", "tool.inwards.root: must be a string, not an integer."),
            ('ignore = "tests"', "tool.inwards.ignore: must be an array of strings, not a string."),
            ("generated = {}", "tool.inwards.generated: must be an array of strings, not a table."),
            (
                "namespace-packages = true",
                "tool.inwards.namespace-packages: must be an array of strings, not a boolean.",
            ),
            (
                "required-version = 1.2",
                'tool.inwards.required-version: must be a string such as "1.2.0", not a number.',
            ),
            ("rules = []", "tool.inwards.rules: must be a table, not an array."),
            (
                "user-rules = false",
                'tool.inwards.user-rules: must be one of "on", "guidance-only", "off", '
                "not a boolean.",
            ),
        ],
    )
    def test_wrong_types_are_named(self, line: str, message: str) -> None:
        text = "[tool.inwards]\n" + LAYERS + line + "\n"
        assert only_problem(text) == f"pyproject.toml:3:1: {message}"

    def test_wrong_item_type_names_the_entry(self) -> None:
        text = "[tool.inwards]\n" + LAYERS + 'ignore = ["tests", 2]\n'
        assert only_problem(text) == (
            at(text, 3, "2]") + ": tool.inwards.ignore[1]: must be a string, not an integer."
        )

    def test_defaults(self) -> None:
        config = config_of("[tool.inwards]\n" + LAYERS)
        assert config.root == "."
        assert config.ignore == ()
        assert config.generated == DEFAULT_GENERATED
        assert config.namespace_packages == ()
        assert config.required_version is None
        assert config.user_rules == "on"
        assert config.rules == RuleSettings()

    def test_not_a_table(self) -> None:
        with pytest.raises(ConfigError) as caught:
            build_config(["layers"], file="x.toml", positions=NoPositions())  # type: ignore[arg-type]
        assert str(caught.value) == "x.toml: tool.inwards: must be a table, not an array."


class TestRoot:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("src", "src"),
            ("./src/", "src"),
            (".", "."),
            ("src/app", "src/app"),
            ("src\\\\app", "src/app"),
        ],
    )
    def test_accepted_and_normalised(self, value: str, expected: str) -> None:
        assert config_of(f'[tool.inwards]\nroot = "{value}"\n' + LAYERS).root == expected

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ("/abs/src", '"/abs/src" must be relative to the directory of the configuration.'),
            ("C:/src", '"C:/src" must be relative to the directory of the configuration.'),
            ("../src", '"../src" must stay inside the directory of the configuration (no "..").'),
            (
                "src/../..",
                '"src/../.." must stay inside the directory of the configuration (no "..").',
            ),
            ("", 'must name a directory; use "." for the directory of the configuration.'),
            ("src\\u0000x", "must not hold a NUL character (\\u0000); no directory name can."),
        ],
    )
    def test_rejected(self, value: str, message: str) -> None:
        text = f'[tool.inwards]\nroot = "{value}"\n' + LAYERS
        assert only_problem(text) == f"pyproject.toml:2:1: tool.inwards.root: {message}"


class TestLayers:
    def test_missing_layers(self) -> None:
        assert only_problem("[tool.inwards]\nroot = 'src'\n").startswith(
            "pyproject.toml:1:7: tool.inwards: has no `layers`."
        )

    @pytest.mark.parametrize(
        ("value", "shown"),
        [("[]", "an empty array"), ('"domain"', "a string"), ("{}", "a table")],
    )
    def test_layers_must_be_a_non_empty_array(self, value: str, shown: str) -> None:
        assert only_problem(f"[tool.inwards]\nlayers = {value}\n") == (
            f"pyproject.toml:2:1: tool.inwards.layers: must be a non-empty array of layer "
            f"tables, not {shown}."
        )

    def test_element_neither_table_nor_group(self) -> None:
        text = '[tool.inwards]\nlayers = ["domain"]\n'
        assert only_problem(text) == (
            at(text, 2, '"domain"') + ": tool.inwards.layers[0]: must be a layer table or an "
            "array of sibling layer tables, not a string."
        )

    def test_unknown_layer_key(self) -> None:
        text = '[tool.inwards]\nlayers = [{ name = "d", modules = [], modules2 = [] }]\n'
        assert only_problem(text) == (
            at(text, 2, "modules2") + ": tool.inwards.layers[0].modules2: is not a layer key. "
            "Known keys: name, modules, allow-libraries, deny-libraries, extend-deny-libraries, "
            "template. "
            'Did you mean "modules"?'
        )

    def test_missing_name_and_modules(self) -> None:
        text = "[tool.inwards]\nlayers = [{ }]\n"
        assert problems_of(text) == [
            at(text, 2, "{") + ": tool.inwards.layers[0]: has no `name`.",
            at(text, 2, "{") + ": tool.inwards.layers[0]: has no `modules`; list the module "
            'prefixes the layer owns, such as ["shop.domain"] (an empty array is allowed).',
        ]

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ('""', "must not be empty."),
            ('"  "', "must not be empty."),
            ('"a | b"', '"a | b" must not contain "|".'),
            ("3", "must be a string, not an integer."),
        ],
    )
    def test_bad_names(self, value: str, message: str) -> None:
        text = f"[tool.inwards]\nlayers = [{{ name = {value}, modules = [] }}]\n"
        assert only_problem(text) == (
            at(text, 2, "name") + f": tool.inwards.layers[0].name: {message}"
        )

    def test_duplicate_names_point_at_the_second(self) -> None:
        text = (
            "[tool.inwards]\nlayers = [\n"
            '  { name = "domain", modules = ["shop.domain"] },\n'
            '  { name = "domain", modules = ["shop.app"] },\n'
            "]\n"
        )
        assert only_problem(text) == (
            at(text, 4, "name") + ': tool.inwards.layers[1].name: "domain" is already the '
            "name of the layer at tool.inwards.layers[0]; layer names must be unique."
        )

    def test_empty_modules_are_allowed(self) -> None:
        config = config_of('[tool.inwards]\nlayers = [{ name = "later", modules = [] }]\n')
        assert config.layers[0].modules == ()

    @pytest.mark.parametrize(
        ("entry", "message"),
        [
            ("shop..x", '"shop..x" has an empty segment.'),
            (
                "*.domain",
                '"*.domain" must start with a literal top-level package, such as "shop.*.domain".',
            ),
            (
                "shop.dom*",
                '"shop.dom*" has a partial wildcard in "dom*": a segment is a whole name, '
                '"*" (one segment) or "**" (one or more).',
            ),
            (
                "shop/domain",
                '"shop/domain" is a path; write a dotted module name such as "shop.domain".',
            ),
            ("", '"" must be a dotted module name without spaces.'),
        ],
    )
    def test_bad_module_entries_use_the_pattern_parser_message(
        self, entry: str, message: str
    ) -> None:
        text = f'[tool.inwards]\nlayers = [{{ name = "d", modules = ["ok.one", "{entry}"] }}]\n'
        assert only_problem(text) == (
            at(text, 2, f'"{entry}"') + f": tool.inwards.layers[0].modules[1]: {message}"
        )

    def test_same_entry_in_two_layers_names_both(self) -> None:
        text = (
            "[tool.inwards]\nlayers = [\n"
            '  { name = "domain", modules = ["shop.domain"] },\n'
            '  { name = "infra", modules = ["shop.infra", "shop.domain"] },\n'
            "]\n"
        )
        assert only_problem(text) == (
            at(text, 4, '"shop.domain"') + ": tool.inwards.layers[1].modules[1]: "
            '"shop.domain" is in two layers, "domain" and "infra"; '
            "a module entry belongs to one layer."
        )

    def test_same_entry_twice_in_one_layer(self) -> None:
        text = '[tool.inwards]\nlayers = [{ name = "d", modules = ["a.b", "a.b"] }]\n'
        assert only_problem(text) == (
            at(text, 2, '"a.b"]') + ": tool.inwards.layers[0].modules[1]: "
            '"a.b" is listed twice in layer "d".'
        )

    def test_libraries(self) -> None:
        text = (
            "[[tool.inwards.layers]]\n"
            'name = "d"\n'
            "modules = []\n"
            'allow-libraries = ["sqlalchemy", "http.client"]\n'
            'deny-libraries = ["python-dateutil"]\n'
            'extend-deny-libraries = ["requests.*"]\n'
        )
        tail = (
            'is not an import name: write the name you import, such as "sqlalchemy" or '
            '"http.client"; globs and distribution names like "python-dateutil" are not accepted.'
        )
        assert problems_of(text) == [
            at(text, 5, '"python') + f": tool.inwards.layers[0].deny-libraries[0]: "
            f'"python-dateutil" {tail}',
            at(text, 6, '"requests') + f": tool.inwards.layers[0].extend-deny-libraries[0]: "
            f'"requests.*" {tail}',
        ]

    def test_library_lists_are_kept(self) -> None:
        text = (
            '[tool.inwards]\nlayers = [{ name = "d", modules = ["shop.domain"], '
            'allow-libraries = ["attrs"], deny-libraries = [], '
            'extend-deny-libraries = ["requests"] }]\n'
        )
        layer = config_of(text).layers[0]
        assert layer.allow_libraries == ("attrs",)
        assert layer.deny_libraries == ()
        assert layer.extend_deny_libraries == ("requests",)
        plain = config_of("[tool.inwards]\n" + LAYERS).layers[0]
        assert plain.allow_libraries is None and plain.deny_libraries is None


class TestSiblingGroups:
    TEXT = (
        "[tool.inwards]\nlayers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  [ { name = "sales", modules = ["shop.sales"] }, '
        '{ name = "billing", modules = ["shop.billing"] } ],\n'
        '  { name = "app", modules = ["shop.app"] },\n'
        "]\n"
    )

    def test_siblings_share_a_rank_and_have_their_own_key(self) -> None:
        config = config_of(self.TEXT)
        assert [(layer.name, layer.rank, layer.key) for layer in config.layers] == [
            ("domain", 0, "tool.inwards.layers[0]"),
            ("sales", 1, "tool.inwards.layers[1][0]"),
            ("billing", 1, "tool.inwards.layers[1][1]"),
            ("app", 2, "tool.inwards.layers[2]"),
        ]
        assert config.ranks == 3
        assert config.locate(config.layers[2].key) == (
            4,
            self.TEXT.splitlines()[3].index('{ name = "billing"') + 1,
        )

    def test_group_of_one(self) -> None:
        text = '[tool.inwards]\nlayers = [ [ { name = "d", modules = [] } ] ]\n'
        assert only_problem(text) == (
            at(text, 2, "[ {") + ": tool.inwards.layers[0]: is a group of sibling layers with "
            "fewer than two layers; write a single layer as a table on its own, "
            "not inside an array."
        )

    def test_empty_group(self) -> None:
        assert len(problems_of("[tool.inwards]\nlayers = [ [] ]\n")) == 1

    def test_groups_do_not_nest(self) -> None:
        text = (
            '[tool.inwards]\nlayers = [ [ { name = "a", modules = [] }, '
            '[ { name = "b", modules = [] }, { name = "c", modules = [] } ] ] ]\n'
        )
        assert only_problem(text) == (
            at(text, 2, '[ { name = "b"') + ": tool.inwards.layers[0][1]: must be a layer table, "
            "not an array; sibling groups can't be nested."
        )

    def test_problem_inside_a_sibling(self) -> None:
        text = (
            "[tool.inwards]\nlayers = [\n"
            '  [ { name = "a", modules = ["x"] }, { name = "b", modules = ["y", "y..z"] } ],\n'
            "]\n"
        )
        assert only_problem(text) == (
            at(text, 3, '"y..z"') + ": tool.inwards.layers[0][1].modules[1]: "
            '"y..z" has an empty segment.'
        )


class TestArrayOfTablesLayers:
    def test_keys_and_positions(self) -> None:
        text = (
            "[tool.inwards]\nroot = 'src'\n\n"
            "[[tool.inwards.layers]]\n"
            'name = "domain"\n'
            'modules = ["shop.domain"]\n\n'
            "[[tool.inwards.layers]]\n"
            'name = "app"\n'
            'modules = ["shop.app", "shop..bad"]\n'
        )
        assert only_problem(text) == (
            at(text, 10, '"shop..bad"') + ": tool.inwards.layers[1].modules[1]: "
            '"shop..bad" has an empty segment.'
        )

    def test_missing_key_points_at_the_header(self) -> None:
        text = (
            '[[tool.inwards.layers]]\nname = "domain"\nmodules = []\n\n'
            '[[tool.inwards.layers]]\nname = "app"\n'
        )
        assert only_problem(text).startswith(
            "pyproject.toml:5:1: tool.inwards.layers[1]: has no `modules`"
        )


class TestModuleLists:
    @pytest.mark.parametrize("entry", ["tests", "/tests", "shop.migrations", "/shop.scripts"])
    def test_ignore_accepts(self, entry: str) -> None:
        assert config_of(f'[tool.inwards]\nignore = ["{entry}"]\n' + LAYERS).ignore == (entry,)

    @pytest.mark.parametrize(
        ("entry", "problem"),
        [
            ("a..b", '"a..b" has an empty segment'),
            ("*", '"*": "*" is not a valid module name segment'),
            ("/", "must not be empty"),
            ("tests/", '"tests/": "tests/" is not a valid module name segment'),
        ],
    )
    def test_ignore_rejects(self, entry: str, problem: str) -> None:
        text = f'[tool.inwards]\nignore = ["{entry}"]\n' + LAYERS
        assert only_problem(text) == (
            at(text, 2, '"') + f": tool.inwards.ignore[0]: {problem}; write a module name such "
            'as "tests" or "shop.migrations" (a leading "/" anchors it to the top level).'
        )

    @pytest.mark.parametrize(
        "entry", ["*_pb2", "gen.*_pb2_grpc", "_version", "v?_api", "build.*.out"]
    )
    def test_generated_accepts(self, entry: str) -> None:
        assert config_of(f'[tool.inwards]\ngenerated = ["{entry}"]\n' + LAYERS).generated == (
            entry,
        )

    @pytest.mark.parametrize(
        ("entry", "message"),
        [
            ("*", '"*" is only wildcards, so it would match every module.'),
            ("*.??", '"*.??" is only wildcards, so it would match every module.'),
            (
                "gen.[ab]_pb2",
                '"gen.[ab]_pb2" has brackets; only "*" and "?" wildcards are allowed.',
            ),
            ("gen..x", '"gen..x" has an empty segment.'),
            ("gen-x", '"gen-x": "gen-x" is not a module name (with "*" or "?" wildcards).'),
            ("", "must not be empty."),
        ],
    )
    def test_generated_rejects(self, entry: str, message: str) -> None:
        text = f'[tool.inwards]\ngenerated = ["{entry}"]\n' + LAYERS
        assert only_problem(text) == at(text, 2, '"') + f": tool.inwards.generated[0]: {message}"

    def test_generated_empty_disables(self) -> None:
        assert config_of("[tool.inwards]\ngenerated = []\n" + LAYERS).generated == ()

    def test_namespace_packages(self) -> None:
        good = config_of('[tool.inwards]\nnamespace-packages = ["google.cloud", "zope"]\n' + LAYERS)
        assert good.namespace_packages == ("google.cloud", "zope")
        text = '[tool.inwards]\nnamespace-packages = ["google-cloud"]\n' + LAYERS
        assert only_problem(text) == (
            at(text, 2, '"') + ': tool.inwards.namespace-packages[0]: "google-cloud": '
            '"google-cloud" is not a valid module name segment; write a dotted package name '
            'such as "google.cloud".'
        )


class TestRequiredVersion:
    @pytest.fixture(autouse=True)
    def installed(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(load, "inwards_version", lambda: "1.4.2")

    @pytest.mark.parametrize("value", ["1.4.2", "1.4.1", "0.9.12"])
    def test_older_or_same_is_fine(self, value: str) -> None:
        text = f'[tool.inwards]\nrequired-version = "{value}"\n' + LAYERS
        assert config_of(text).required_version == value

    @pytest.mark.parametrize("value", ["1.4.3", "1.10.0", "2.0.0"])
    def test_newer_is_an_error(self, value: str) -> None:
        text = f'[tool.inwards]\nrequired-version = "{value}"\n' + LAYERS
        assert only_problem(text) == (
            f"pyproject.toml:2:1: tool.inwards.required-version: This project requires inwards "
            f"{value} or newer; this is 1.4.2."
        )

    @pytest.mark.parametrize("value", ["1.4", "v1.4.2", "1.4.2rc1", ""])
    def test_format(self, value: str) -> None:
        text = f'[tool.inwards]\nrequired-version = "{value}"\n' + LAYERS
        assert only_problem(text) == (
            f'pyproject.toml:2:1: tool.inwards.required-version: "{value}" must be a version '
            'written MAJOR.MINOR.PATCH, such as "1.2.0".'
        )

    def test_development_version_of_inwards(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(load, "inwards_version", lambda: "2.1.0.dev3+g1234")
        assert config_of('[tool.inwards]\nrequired-version = "2.1.0"\n' + LAYERS).required_version


class TestUserRules:
    @pytest.mark.parametrize("value", ["on", "guidance-only", "off"])
    def test_values(self, value: str) -> None:
        assert config_of(f'[tool.inwards]\nuser-rules = "{value}"\n' + LAYERS).user_rules == value

    def test_bad_value(self) -> None:
        text = '[tool.inwards]\nuser-rules = "sometimes"\n' + LAYERS
        assert only_problem(text) == (
            'pyproject.toml:2:1: tool.inwards.user-rules: must be one of "on", "guidance-only", '
            '"off", not "sometimes".'
        )


class TestAgentHookKeys:
    def test_defaults(self) -> None:
        config = config_of("[tool.inwards]\n" + LAYERS)
        assert (config.escalate_after, config.agent_suppressions) == (3, "deny")

    def test_values(self) -> None:
        text = '[tool.inwards]\nescalate-after = 5\nagent-suppressions = "allow"\n' + LAYERS
        config = config_of(text)
        assert (config.escalate_after, config.agent_suppressions) == (5, "allow")

    @pytest.mark.parametrize(
        ("value", "shown"), [("0", "0"), ("-2", "-2"), ("true", "a boolean"), ('"3"', "a string")]
    )
    def test_escalate_after_must_be_a_count(self, value: str, shown: str) -> None:
        text = f"[tool.inwards]\nescalate-after = {value}\n" + LAYERS
        assert only_problem(text) == (
            "pyproject.toml:2:1: tool.inwards.escalate-after: must be a whole number of 1 or "
            "more (how many times the agent hooks block the same finding before they ask the "
            f"agent to stop and ask the user), not {shown}."
        )

    def test_agent_suppressions_values(self) -> None:
        text = '[tool.inwards]\nagent-suppressions = "sometimes"\n' + LAYERS
        assert only_problem(text) == (
            'pyproject.toml:2:1: tool.inwards.agent-suppressions: must be one of "deny", '
            '"allow", not "sometimes".'
        )


class TestRules:
    def test_shape_is_kept(self) -> None:
        text = (
            "[tool.inwards]\n" + LAYERS + "\n[tool.inwards.rules]\n"
            'select = ["INW001", "INW005"]\n'
            'extend-select = ["INW012"]\n'
            'ignore = ["INW006"]\n'
            'severity = { INW006 = "warning", inw010 = "error" }\n\n'
            "[tool.inwards.rules.pure-domain]\n"
            'deny = [{ modules = ["shop.domain"], libraries = ["requests"] }]\n'
        )
        assert config_of(text).rules == RuleSettings(
            select=("INW001", "INW005"),
            extend_select=("INW012",),
            ignore=("INW006",),
            severity={"INW006": Severity.WARNING, "inw010": Severity.ERROR},
            options={
                "pure-domain": {"deny": [{"modules": ["shop.domain"], "libraries": ["requests"]}]}
            },
        )

    def test_empty_select(self) -> None:
        text = "[tool.inwards]\n" + LAYERS + "[tool.inwards.rules]\nselect = []\n"
        assert only_problem(text) == (
            "pyproject.toml:4:1: tool.inwards.rules.select: must list at least one rule code; "
            "to keep the default rules, leave it out."
        )

    def test_list_types(self) -> None:
        text = (
            "[tool.inwards]\n" + LAYERS + "[tool.inwards.rules]\n"
            'select = "INW001"\n'
            'extend-select = ["INW012", 12]\n'
            "ignore = {}\n"
        )
        assert problems_of(text) == [
            "pyproject.toml:4:1: tool.inwards.rules.select: "
            "must be an array of strings, not a string.",
            at(text, 5, "12]")
            + ": tool.inwards.rules.extend-select[1]: must be a string, not an integer.",
            "pyproject.toml:6:1: tool.inwards.rules.ignore: "
            "must be an array of strings, not a table.",
        ]

    def test_severity(self) -> None:
        text = (
            "[tool.inwards]\n" + LAYERS + "[tool.inwards.rules]\n"
            'severity = { INW006 = "warn", INW001 = 2, INW005 = "warning" }\n'
        )
        assert problems_of(text) == [
            f'{at(text, 4, "INW006")}: tool.inwards.rules.severity.INW006: must be "error" or '
            '"warning", not "warn".',
            f'{at(text, 4, "INW001")}: tool.inwards.rules.severity.INW001: must be "error" or '
            '"warning", not an integer.',
        ]
        other = "[tool.inwards]\n" + LAYERS + '[tool.inwards.rules]\nseverity = ["INW006"]\n'
        assert only_problem(other) == (
            "pyproject.toml:4:1: tool.inwards.rules.severity: must be a table of rule codes, "
            'such as { INW006 = "warning" }, not an array.'
        )

    def test_other_keys_must_be_option_tables(self) -> None:
        text = (
            "[tool.inwards]\n" + LAYERS + "[tool.inwards.rules]\n"
            'selectt = ["INW001"]\n'
            "thin-endpoint = 3\n"
        )
        assert problems_of(text) == [
            "pyproject.toml:4:1: tool.inwards.rules.selectt: must be a table of options for the "
            'rule named "selectt", not an array; the other rules keys are select, extend-select, '
            'ignore, severity. Did you mean "select"?',
            "pyproject.toml:5:1: tool.inwards.rules.thin-endpoint: must be a table of options for "
            'the rule named "thin-endpoint", not an integer; the other rules keys are select, '
            "extend-select, ignore, severity.",
        ]

    def test_option_tables_as_dotted_keys(self) -> None:
        text = "[tool.inwards]\n" + LAYERS + "rules.thin-endpoint.max-statements = 5\n"
        assert config_of(text).rules.options == {"thin-endpoint": {"max-statements": 5}}


class TestManyProblems:
    TEXT = (
        "[tool.inwards]\n"  # 1
        'root = "/abs"\n'  # 2
        "layers = [\n"  # 3
        '  { name = "domain", modules = ["shop..domain"], deny-libraries = ["a-b"] },\n'  # 4
        '  [ { name = "x", modules = ["shop.x"] } ],\n'  # 5
        "]\n"  # 6
        'generated = ["*"]\n'  # 7
        'user-rules = "never"\n'  # 8
        "colour = 1\n"  # 9
        "[tool.inwards.rules]\n"  # 10
        "select = []\n"  # 11
    )

    def test_every_problem_is_reported_in_file_order(self) -> None:
        found = problems_of(self.TEXT)
        keys = [line.split(": ")[1] for line in found]
        assert keys == [
            "tool.inwards.root",
            "tool.inwards.layers[0].modules[0]",
            "tool.inwards.layers[0].deny-libraries[0]",
            "tool.inwards.layers[1]",
            "tool.inwards.generated[0]",
            "tool.inwards.user-rules",
            "tool.inwards.colour",
            "tool.inwards.rules.select",
        ]
        assert found[1].startswith(at(self.TEXT, 4, '"shop..domain"') + ":")
        assert found[2].startswith(at(self.TEXT, 4, '"a-b"') + ":")

    def test_without_positions_problems_keep_discovery_order(self) -> None:
        table = tomllib.loads(self.TEXT)["tool"]["inwards"]
        with pytest.raises(ConfigError) as caught:
            build_config(table, file="<script>", positions=NoPositions())
        assert all(problem.line is None for problem in caught.value.problems)
        assert caught.value.problems[0].render() == (
            "<script>: tool.inwards.colour: is not a [tool.inwards] key. "
            f"Known keys: {', '.join(TOP_LEVEL_KEYS)}."
        )
        assert len(caught.value.problems) == 8


REALISTIC = """\
[project]
name = "shop"

[tool.inwards]
root = "src"
required-version = "0.1.0"
user-rules = "guidance-only"
ignore = ["tests", "/scripts", "migrations"]
generated = ["*_pb2", "*_pb2_grpc"]
namespace-packages = ["acme"]
layers = [
  { name = "domain", modules = ["shop.domain", "shop.*.domain"], deny-libraries = ["requests"] },
  { name = "application", modules = ["shop.application"] },
  [
    { name = "inbound", modules = ["shop.api"], allow-libraries = ["fastapi"] },
    { name = "outbound", modules = ["shop.db"], extend-deny-libraries = ["http.client"] },
  ],
  { name = "bootstrap", modules = ["shop.main"] },
]

[tool.inwards.rules]
extend-select = ["INW012"]
ignore = ["INW010"]
severity = { INW006 = "warning" }

[tool.inwards.rules.thin-endpoint]
max-statements = 8
"""


def test_realistic_config_round_trips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load, "inwards_version", lambda: "0.1.0")
    config = config_of(REALISTIC)
    assert config == Config(
        file="pyproject.toml",
        root="src",
        layers=(
            Layer(
                "domain",
                ("shop.domain", "shop.*.domain"),
                0,
                "tool.inwards.layers[0]",
                deny_libraries=("requests",),
            ),
            Layer("application", ("shop.application",), 1, "tool.inwards.layers[1]"),
            Layer(
                "inbound",
                ("shop.api",),
                2,
                "tool.inwards.layers[2][0]",
                allow_libraries=("fastapi",),
            ),
            Layer(
                "outbound",
                ("shop.db",),
                2,
                "tool.inwards.layers[2][1]",
                extend_deny_libraries=("http.client",),
            ),
            Layer("bootstrap", ("shop.main",), 3, "tool.inwards.layers[3]"),
        ),
        ignore=("tests", "/scripts", "migrations"),
        generated=("*_pb2", "*_pb2_grpc"),
        namespace_packages=("acme",),
        required_version="0.1.0",
        user_rules="guidance-only",
        rules=RuleSettings(
            extend_select=("INW012",),
            ignore=("INW010",),
            severity={"INW006": Severity.WARNING},
            options={"thin-endpoint": {"max-statements": 8}},
        ),
    )
    assert config.ranks == 4
    assert config.locate("tool.inwards.layers[2][1].modules[0]") == (
        16,
        REALISTIC.splitlines()[15].index('"shop.db"') + 1,
    )
    assert config.locate("tool.inwards.rules.thin-endpoint.max-statements") == (27, 1)


def test_mapping_from_a_script_with_tuples() -> None:
    table: dict[str, Any] = {
        "layers": (
            {"name": "domain", "modules": ("shop.domain",)},
            ({"name": "a", "modules": ("shop.a",)}, {"name": "b", "modules": ("shop.b",)}),
        ),
    }
    config = build_config(table, file="<script>", positions=NoPositions())
    assert [layer.key for layer in config.layers] == [
        "tool.inwards.layers[0]",
        "tool.inwards.layers[1][0]",
        "tool.inwards.layers[1][1]",
    ]
    assert config.locate("tool.inwards.layers[0]") == (1, 1)


def test_the_project_own_configuration_is_valid() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    config = config_of(text)
    assert config.layers[0].name == "model"
