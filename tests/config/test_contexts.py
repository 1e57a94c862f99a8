"""`[[tool.inwards.contexts]]` and `cycles`: what is read, and each problem with its file,
line, column and dotted key."""

from __future__ import annotations

import tomllib
from typing import ClassVar

import pytest

from inwards_core import check_sources
from inwards_core.config.contexts import CONTEXT_KEYS, owning_context
from inwards_core.config.load import build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import Config, ConfigError, Context, PublicEntry

HEAD = '[tool.inwards]\nlayers = [{ name = "domain", modules = ["shop.domain"] }]\n'


def config_of(body: str) -> Config:
    text = HEAD + body
    table = tomllib.loads(text)["tool"]["inwards"]
    return build_config(table, file="pyproject.toml", positions=TomlPositions(text))


def problems_of(body: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        config_of(body)
    return [problem.render() for problem in caught.value.problems]


def only_problem(body: str) -> str:
    found = problems_of(body)
    assert len(found) == 1, found
    return found[0]


def at(body: str, line: int, fragment: str) -> str:
    """`pyproject.toml:LINE:COL` of `fragment` on `line` of the body (the head is 2 lines)."""
    column = body.splitlines()[line - 1].index(fragment) + 1
    return f"pyproject.toml:{line + 2}:{column}"


ORDERS_AND_BILLING = (
    "[[tool.inwards.contexts]]\n"
    'name = "orders"\n'
    'modules = ["shop.orders"]\n'
    'public = ["shop.orders.api", "=shop.orders"]\n'
    'depends-on = ["billing"]\n'
    "[[tool.inwards.contexts]]\n"
    'name = "billing"\n'
    'modules = ["shop.billing", "shop.invoices"]\n'
)


class TestReading:
    def test_contexts_are_read_in_order(self) -> None:
        config = config_of(ORDERS_AND_BILLING)
        assert config.contexts == (
            Context(
                name="orders",
                modules=("shop.orders",),
                key="tool.inwards.contexts[0]",
                public=(PublicEntry("shop.orders.api"), PublicEntry("shop.orders", exact=True)),
                depends_on=("billing",),
            ),
            Context(
                name="billing",
                modules=("shop.billing", "shop.invoices"),
                key="tool.inwards.contexts[1]",
            ),
        )
        assert config.context_named("billing") is config.contexts[1]
        assert config.layers[0].name == "domain"  # contexts and layers add up

    def test_defaults_without_contexts(self) -> None:
        config = config_of("")
        assert config.contexts == ()
        assert config.cycles == ("contexts",)

    def test_inline_array_of_tables(self) -> None:
        config = config_of('contexts = [{ name = "a", modules = ["shop.a"] }]\n')
        assert [c.name for c in config.contexts] == ["a"]

    def test_a_nested_context_owns_its_own_prefix(self) -> None:
        body = (
            'contexts = [{ name = "shop", modules = ["shop"], public = ["shop.api"] },\n'
            '  { name = "orders", modules = ["shop.orders"], public = ["=shop.orders"] }]\n'
        )
        config = config_of(body)
        owners = {m: c for c in config.contexts for m in c.modules}
        assert owning_context(owners, "shop.orders.x") is config.contexts[1]
        assert owning_context(owners, "shop.ordersx") is config.contexts[0]
        assert owning_context(owners, "other") is None

    def test_the_same_name_as_a_layer_is_allowed(self) -> None:
        config = config_of('contexts = [{ name = "domain", modules = ["shop.domain"] }]\n')
        assert config.contexts[0].name == "domain"

    def test_template_is_a_known_key(self) -> None:
        assert "template" in CONTEXT_KEYS


class TestContextProblems:
    def test_not_an_array(self) -> None:
        assert only_problem("contexts = 1\n") == (
            "pyproject.toml:3:1: tool.inwards.contexts: must be an array of context tables, "
            "not an integer."
        )

    def test_element_not_a_table(self) -> None:
        body = 'contexts = ["orders"]\n'
        assert only_problem(body) == (
            at(body, 1, '"orders"') + ": tool.inwards.contexts[0]: must be a context table, "
            "not a string."
        )

    def test_unknown_key(self) -> None:
        body = '[[tool.inwards.contexts]]\nname = "a"\nmodules = ["shop.a"]\nmodule = 1\n'
        assert only_problem(body) == (
            "pyproject.toml:6:1: tool.inwards.contexts[0].module: is not a context key. "
            'Known keys: name, modules, public, depends-on, template. Did you mean "modules"?'
        )

    @pytest.mark.parametrize(
        ("name_line", "message"),
        [
            (
                "",
                "tool.inwards.contexts[0]: has no `name`; every context needs one, used in "
                "messages.",
            ),
            ("name = 3\n", "tool.inwards.contexts[0].name: must be a string, not an integer."),
            ('name = "  "\n', "tool.inwards.contexts[0].name: must not be empty."),
        ],
    )
    def test_bad_names(self, name_line: str, message: str) -> None:
        body = f'[[tool.inwards.contexts]]\n{name_line}modules = ["shop.a"]\n'
        assert only_problem(body).endswith(message)

    def test_duplicate_name(self) -> None:
        body = 'contexts = [{ name = "a", modules = ["shop.a"] },\n{ name = "a", modules = ["shop.b"] }]\n'
        assert only_problem(body) == (
            at(body, 2, "name") + ': tool.inwards.contexts[1].name: "a" is already the name of '
            "the context at tool.inwards.contexts[0]; context names must be unique."
        )

    def test_modules_missing_or_empty(self) -> None:
        assert only_problem('contexts = [{ name = "a" }]\n').endswith(
            "tool.inwards.contexts[0]: has no `modules`; list the module prefixes the context "
            'owns, such as ["shop.orders"].'
        )
        assert only_problem('contexts = [{ name = "a", modules = [] }]\n').endswith(
            "tool.inwards.contexts[0].modules: must list at least one module prefix, such as "
            '["shop.orders"]; a context that owns nothing has nothing to check.'
        )

    @pytest.mark.parametrize("entry", ["shop.*", "shop.**", "shop.ord*", "shop.[ab]"])
    def test_wildcards_are_refused(self, entry: str) -> None:
        body = f'contexts = [{{ name = "a", modules = ["{entry}"] }}]\n'
        assert only_problem(body) == (
            at(body, 1, f'"{entry}"') + f': tool.inwards.contexts[0].modules[0]: "{entry}" is a '
            'pattern; a context owns literal module prefixes such as "shop.orders" (everything '
            "below a prefix is the context's already)."
        )

    def test_a_bad_module_name(self) -> None:
        body = 'contexts = [{ name = "a", modules = ["shop..a"] }]\n'
        assert only_problem(body).endswith(
            'tool.inwards.contexts[0].modules[0]: "shop..a" has an empty segment.'
        )

    def test_the_same_prefix_in_two_contexts_names_both(self) -> None:
        body = (
            'contexts = [{ name = "a", modules = ["shop.x"] },\n'
            '{ name = "b", modules = ["shop.y", "shop.x"] }]\n'
        )
        assert only_problem(body) == (
            at(body, 2, '"shop.x"') + ': tool.inwards.contexts[1].modules[1]: "shop.x" is in two '
            'contexts, "a" and "b"; a module prefix belongs to one context (a longer prefix may '
            "belong to another, nested context)."
        )

    def test_a_prefix_listed_twice(self) -> None:
        body = 'contexts = [{ name = "a", modules = ["shop.x", "shop.x"] }]\n'
        assert only_problem(body).endswith(
            'tool.inwards.contexts[0].modules[1]: "shop.x" is listed twice in context "a".'
        )


class TestPublic:
    def test_an_entry_of_another_context(self) -> None:
        body = (
            'contexts = [{ name = "shop", modules = ["shop"], public = ["shop.orders.api"] },\n'
            '{ name = "orders", modules = ["shop.orders"] }]\n'
        )
        assert only_problem(body) == (
            at(body, 1, '"shop.orders.api"') + ": tool.inwards.contexts[0].public[0]: "
            '"shop.orders.api" belongs to context "orders", not "shop"; a context\'s public '
            "modules are modules it owns."
        )

    def test_an_entry_of_no_context(self) -> None:
        body = 'contexts = [{ name = "a", modules = ["shop.a"], public = ["=shop.b"] }]\n'
        assert only_problem(body).endswith(
            'tool.inwards.contexts[0].public[0]: "shop.b" belongs to no context; a context\'s '
            'public modules are modules it owns (below one of its prefixes: "shop.a").'
        )

    @pytest.mark.parametrize(
        ("entry", "message"),
        [
            (
                "=",
                '"=" names no module; write a module prefix such as "shop.orders.api", or '
                '"=shop.orders" for that module alone.',
            ),
            ("shop.a.*", '"shop.a.*" is a pattern;'),
            ("=shop.a.*", '"shop.a.*" is a pattern;'),
            ("shop/a", '"shop/a" is a path;'),
        ],
    )
    def test_bad_entries(self, entry: str, message: str) -> None:
        body = f'contexts = [{{ name = "a", modules = ["shop.a"], public = ["{entry}"] }}]\n'
        assert f"tool.inwards.contexts[0].public[0]: {message}" in only_problem(body)

    def test_an_entry_listed_twice(self) -> None:
        body = (
            'contexts = [{ name = "a", modules = ["shop.a"], '
            'public = ["shop.a.api", "=shop.a", "shop.a.api"] }]\n'
        )
        assert only_problem(body).endswith(
            'tool.inwards.contexts[0].public[2]: "shop.a.api" is listed twice.'
        )

    def test_public_of_wrong_type(self) -> None:
        body = 'contexts = [{ name = "a", modules = ["shop.a"], public = "shop.a" }]\n'
        assert only_problem(body).endswith(
            "tool.inwards.contexts[0].public: must be an array of strings, not a string."
        )


class TestDependsOn:
    def test_self_unknown_and_duplicate(self) -> None:
        body = (
            'contexts = [{ name = "a", modules = ["shop.a"], '
            'depends-on = ["a", "b", "zz", "b", 1] },\n'
            '{ name = "b", modules = ["shop.b"] }]\n'
        )
        assert problems_of(body) == [
            at(body, 1, '"a", "b"') + ": tool.inwards.contexts[0].depends-on[0]: is the context "
            'itself ("a"); a context may always import its own modules, so leave it out.',
            at(body, 1, '"zz"') + ': tool.inwards.contexts[0].depends-on[2]: "zz" is not the '
            'name of a context. The contexts are "a", "b".',
            at(body, 1, '"b", 1') + ': tool.inwards.contexts[0].depends-on[3]: "b" is listed '
            "twice.",
            at(body, 1, "1]") + ": tool.inwards.contexts[0].depends-on[4]: must be a string, "
            "not an integer.",
        ]

    def test_is_direct_and_kept_in_order(self) -> None:
        body = (
            'contexts = [{ name = "a", modules = ["shop.a"], depends-on = ["c", "b"] },\n'
            '{ name = "b", modules = ["shop.b"], depends-on = ["c"] },\n'
            '{ name = "c", modules = ["shop.c"] }]\n'
        )
        assert [c.depends_on for c in config_of(body).contexts] == [("c", "b"), ("c",), ()]


class TestCycles:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("[]", ()),
            ('["modules"]', ("modules",)),
            ('["contexts", "modules"]', ("contexts", "modules")),
        ],
    )
    def test_values(self, value: str, expected: tuple[str, ...]) -> None:
        assert config_of(f"cycles = {value}\n").cycles == expected

    def test_problems(self) -> None:
        body = 'cycles = ["modules", "module", "modules", 1]\n'
        assert problems_of(body) == [
            at(body, 1, '"module",') + ': tool.inwards.cycles[1]: must be "modules" or '
            '"contexts", not "module".',
            at(body, 1, '"modules", 1') + ': tool.inwards.cycles[2]: "modules" is listed twice.',
            at(body, 1, "1]") + ': tool.inwards.cycles[3]: must be "modules" or '
            '"contexts", not an integer.',
        ]

    def test_not_an_array(self) -> None:
        assert only_problem('cycles = "modules"\n') == (
            'pyproject.toml:3:1: tool.inwards.cycles: must be an array of "modules" and '
            '"contexts", such as ["contexts"] ([] reports no cycle), not a string.'
        )


class TestEveryFileIsRead:
    """With contexts declared the engine reads every module, not only the layered ones:
    a file in no layer, and an ignored one, are checked (INW000 sees them)."""

    SOURCES: ClassVar[dict[str, str]] = {
        "shop/__init__.py": "",
        "shop/domain/__init__.py": "",
        "shop/orders/__init__.py": "",
        "shop/orders/x.py": "import shop.domain\n",
        "tests/test_x.py": "# -*- coding: utf-7 -*-\nimport shop.orders\n",
    }
    PYPROJECT = '[tool.inwards]\nignore = ["tests"]\n' + HEAD.split("\n", 1)[1]

    def test_without_contexts_only_the_layered_code(self) -> None:
        report = check_sources(self.SOURCES, pyproject=self.PYPROJECT)
        assert report.files_checked == 1
        assert "INW000" not in {f.code for f in report.findings}

    def test_with_contexts_every_file(self) -> None:
        pyproject = self.PYPROJECT + 'contexts = [{ name = "orders", modules = ["shop.orders"] }]\n'
        report = check_sources(self.SOURCES, pyproject=pyproject)
        assert report.files_checked == 5
        assert [(f.code, f.file) for f in report.findings if f.code == "INW000"] == [
            ("INW000", "tests/test_x.py")
        ]

    def test_named_paths_outside_layers_are_checked(self) -> None:
        pyproject = self.PYPROJECT + 'contexts = [{ name = "orders", modules = ["shop.orders"] }]\n'
        report = check_sources(self.SOURCES, pyproject=pyproject, paths=["tests/test_x.py"])
        assert report.files_checked == 1
        assert not report.not_checked
