"""`[[tool.inwards.shape]]` and `[[tool.inwards.names]]`: what is read, and each problem with
its file, line, column and dotted key."""

from __future__ import annotations

import tomllib

import pytest

from inwards_core.config.load import build_config
from inwards_core.config.positions import TomlPositions
from inwards_core.config.shapes import member_pattern_problem
from inwards_core.config.values import Config, ConfigError, NameRule, Shape
from inwards_core.model.findings import Severity

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
    column = body.splitlines()[line - 1].index(fragment) + 1
    return f"pyproject.toml:{line + 2}:{column}"


FULL = (
    "[[tool.inwards.shape]]\n"
    'packages = ["shop.orders"]\n'
    'allow = ["domain/", "api/", "tasks.py"]\n'
    "[[tool.inwards.shape]]\n"
    'packages = ["shop.*", "other.**"]\n'
    'allow = ["domain/", "cli.py", "[a-c]*"]\n'
    'require = ["domain/"]\n'
    'forbid = ["utils*"]\n'
    'extra = "warning"\n'
    'hints = { helpers = "services", "misc.py" = "tools.py" }\n'
    "[[tool.inwards.names]]\n"
    'pattern = "test_*"\n'
    'only-in = ["shop.tests", "shop.*.tests"]\n'
)


class TestReading:
    def test_shapes_and_names(self) -> None:
        config = config_of(FULL)
        assert config.shapes == (
            Shape(
                packages=("shop.orders",),
                key="tool.inwards.shape[0]",
                allow=("domain/", "api/", "tasks.py"),
            ),
            Shape(
                packages=("shop.*", "other.**"),
                key="tool.inwards.shape[1]",
                allow=("domain/", "cli.py", "[a-c]*"),
                require=("domain/",),
                forbid=("utils*",),
                extra=Severity.WARNING,
                hints={"helpers": "services", "misc.py": "tools.py"},
            ),
        )
        assert config.names == (
            NameRule("test_*", ("shop.tests", "shop.*.tests"), "tool.inwards.names[0]"),
        )

    def test_defaults(self) -> None:
        config = config_of('shape = [{ packages = ["shop"] }]\n')
        assert config.shapes[0].allow is None  # anything goes
        assert config.shapes[0].extra is Severity.ERROR
        assert config_of("").shapes == () and config_of("").names == ()

    def test_an_empty_allow_is_kept(self) -> None:
        assert config_of('shape = [{ packages = ["shop"], allow = [] }]\n').shapes[0].allow == ()


class TestMemberPatterns:
    @pytest.mark.parametrize(
        "pattern", ["x", "x/", "x.py", "x.pyi", "*.py", "test_*", "[!_]*", "[a-f]?", "0001_*"]
    )
    def test_good(self, pattern: str) -> None:
        assert member_pattern_problem(pattern) is None

    @pytest.mark.parametrize(
        ("pattern", "message"),
        [
            ("", '"" names no member;'),
            ("/", '"/" names no member;'),
            ("a/b", '"a/b" is a path;'),
            ("a\\b", '"a\\b" is a path;'),
            ("x.txt", '"x.txt" has a "." in its name;'),
            ("x//", '"x//" is a path;'),
            (" x", '" x" has spaces around the name;'),
            ("[z-a]", '"[z-a]" has the range "z-a", which runs backwards and matches nothing.'),
            ("[a", '"[a" opens a "[" set that never closes.'),
        ],
    )
    def test_bad(self, pattern: str, message: str) -> None:
        problem = member_pattern_problem(pattern)
        assert problem is not None and problem.startswith(message)

    def test_a_bad_pattern_names_its_key(self) -> None:
        body = 'shape = [{ packages = ["shop"], require = ["ok", "[z-a]"] }]\n'
        assert only_problem(body) == (
            at(body, 1, '"[z-a]"') + ': tool.inwards.shape[0].require[1]: "[z-a]" has the '
            'range "z-a", which runs backwards and matches nothing.'
        )


class TestShapeProblems:
    def test_not_an_array_and_not_a_table(self) -> None:
        assert only_problem("shape = {}\n") == (
            "pyproject.toml:3:1: tool.inwards.shape: must be an array of shape tables, not a table."
        )
        assert only_problem("shape = [1]\n").endswith(
            "tool.inwards.shape[0]: must be a shape table, not an integer."
        )

    def test_unknown_key(self) -> None:
        body = '[[tool.inwards.shape]]\npackages = ["shop"]\nalow = []\n'
        assert only_problem(body) == (
            "pyproject.toml:5:1: tool.inwards.shape[0].alow: is not a shape key. Known keys: "
            'packages, allow, require, forbid, extra, hints, template. Did you mean "allow"?'
        )

    def test_packages_missing_empty_or_bad(self) -> None:
        assert only_problem("shape = [{ allow = [] }]\n").endswith(
            'tool.inwards.shape[0]: has no `packages`; list package selectors such as ["shop.*"].'
        )
        assert "tool.inwards.shape[0].packages: must list at least one package selector" in (
            only_problem("shape = [{ packages = [] }]\n")
        )
        body = 'shape = [{ packages = ["shop.or*"] }]\n'
        assert only_problem(body) == (
            at(body, 1, '"shop.or*"') + ': tool.inwards.shape[0].packages[0]: "shop.or*" has a '
            'partial wildcard in "or*": a segment is a whole name, "*" (one segment) or "**" '
            "(one or more)."
        )

    def test_extra(self) -> None:
        assert only_problem('shape = [{ packages = ["shop"], extra = "info" }]\n').endswith(
            'tool.inwards.shape[0].extra: must be "error" or "warning", not "info".'
        )

    def test_hints(self) -> None:
        body = 'shape = [{ packages = ["shop"], hints = { "x*" = "y", z = 1, w = "a/b" } }]\n'
        found = problems_of(body)
        assert [problem.split(": ", 2)[1] for problem in found] == [
            'tool.inwards.shape[0].hints."x*"',
            "tool.inwards.shape[0].hints.z",
            "tool.inwards.shape[0].hints.w",
        ]
        assert found[0].endswith(
            '"x*" is a pattern; a hint names one member, such as "utils" or "utils.py".'
        )
        assert found[1].endswith("must be a string, not an integer.")
        assert only_problem('shape = [{ packages = ["shop"], hints = "utils" }]\n').endswith(
            "tool.inwards.shape[0].hints: must be a table of member names, each with the name "
            'to use instead, such as { helpers = "utils" }, or an array of sentences for the '
            'fix, such as ["Shared code goes into shop.kernel."], not a string.'
        )

    def test_hints_as_a_list_of_sentences(self) -> None:
        """The reference product's form: each sentence is a step of the fix, kept as written
        (braces, "->" and spaces are text, not templates or renames)."""
        body = (
            'shape = [{ packages = ["shop"], hints = '
            '["Shared code goes into shop.domain.kernel.", "common -> domain", " {package} %s "] }]\n'
        )
        shape = config_of(body).shapes[0]
        assert shape.advice == (
            "Shared code goes into shop.domain.kernel.",
            "common -> domain",
            " {package} %s ",
        )
        assert shape.hints == {}
        assert config_of('shape = [{ packages = ["shop"], hints = [] }]\n').shapes[0].advice == ()
        assert (
            config_of('shape = [{ packages = ["shop"], hints = { a = "b" } }]\n').shapes[0].advice
            == ()
        )

    def test_bad_sentences(self) -> None:
        body = '[[tool.inwards.shape]]\npackages = ["shop"]\nhints = ["Fine.", 3, "  "]\n'
        assert problems_of(body) == [
            at(body, 3, "3")
            + ": tool.inwards.shape[0].hints[1]: must be a string, not an integer.",
            at(body, 3, '"  "') + ": tool.inwards.shape[0].hints[2]: is empty; write a sentence "
            "that tells where such code goes.",
        ]


class TestShadowedSelectors:
    def test_a_narrower_selector_after_a_wider_one(self) -> None:
        body = 'shape = [{ packages = ["shop.*"] },\n{ packages = ["shop.orders"] }]\n'
        assert only_problem(body) == (
            at(body, 2, '"shop.orders"') + ": tool.inwards.shape[1].packages[0]: "
            '"shop.orders" names only packages that "shop.*" at '
            "tool.inwards.shape[0].packages[0] names already, and the first matching entry "
            "wins, so this entry never shapes them. Put the narrower entry first."
        )

    def test_the_same_selector_twice(self) -> None:
        body = 'shape = [{ packages = ["shop"] },\n{ packages = ["shop"] }]\n'
        assert only_problem(body).endswith(
            'tool.inwards.shape[1].packages[0]: "shop" is already a selector of '
            "tool.inwards.shape[0].packages[0], which comes first and wins, so this entry never "
            "shapes those packages; remove it here."
        )

    @pytest.mark.parametrize(
        ("wider", "narrower"),
        [
            ("shop.**", "shop.orders.*"),
            ("shop.**", "shop.a.b.c"),
            ("shop.*.api", "shop.orders.api"),
            ("other.**.x", "other.*.*.x"),
            ("shop.**", "shop.**.api"),
        ],
    )
    def test_covered(self, wider: str, narrower: str) -> None:
        body = f'shape = [{{ packages = ["{wider}"] }}, {{ packages = ["{narrower}"] }}]\n'
        assert "tool.inwards.shape[1].packages[0]" in only_problem(body)

    @pytest.mark.parametrize(
        ("first", "then"),
        [
            ("shop.orders", "shop.*"),  # narrower first: the right order
            ("shop.*", "shop.orders.*"),  # one level below, not covered
            ("shop.*", "shop"),  # a.* never names a itself
            ("shop.**", "shop"),
            ("shop.*.api", "shop.**.api"),
            ("shop.a", "shop.b"),
        ],
    )
    def test_not_covered(self, first: str, then: str) -> None:
        config = config_of(f'shape = [{{ packages = ["{first}"] }}, {{ packages = ["{then}"] }}]\n')
        assert len(config.shapes) == 2

    def test_selectors_of_one_entry_do_not_shadow_each_other(self) -> None:
        config = config_of('shape = [{ packages = ["shop.*", "shop.orders"] }]\n')
        assert config.shapes[0].packages == ("shop.*", "shop.orders")

    def test_a_selector_twice_in_one_entry(self) -> None:
        assert only_problem('shape = [{ packages = ["shop", "shop"] }]\n').endswith(
            'tool.inwards.shape[0].packages[1]: "shop" is listed twice in this shape.'
        )


class TestNames:
    def test_problems(self) -> None:
        body = (
            'names = [{ pattern = ["x"], only-in = [] },\n'
            '{ only-in = ["shop.*"], bogus = 1 },\n'
            '{ pattern = "a/b", only-in = ["sh*p"] }]\n'
        )
        assert problems_of(body) == [
            at(body, 1, "pattern") + ": tool.inwards.names[0].pattern: must be one member "
            'pattern (a string such as "test_*"), not an array.',
            at(body, 1, "only-in") + ": tool.inwards.names[0].only-in: must list at least one "
            'package selector, such as ["shop.tests", "shop.*.tests"] ("a.b" the package, '
            '"a.*" the packages one level below it, "a.**" every package below it).',
            at(body, 2, "{") + ": tool.inwards.names[1]: has no `pattern`; give the member "
            'pattern it keeps, such as "test_*".',
            at(body, 2, "bogus") + ": tool.inwards.names[1].bogus: is not a names key. "
            "Known keys: pattern, only-in.",
            at(body, 3, "pattern") + ': tool.inwards.names[2].pattern: "a/b" is a path; a shape '
            'judges the direct members of a package, so write a member name, "name/" for a '
            'subpackage only or "name.py" for a module only (with "*", "?" or "[...]" to match '
            "several).",
            at(body, 3, '"sh*p"') + ': tool.inwards.names[2].only-in[0]: "sh*p" has a partial '
            'wildcard in "sh*p": a segment is a whole name, "*" (one segment) or "**" (one or '
            "more).",
        ]

    def test_only_in_is_required(self) -> None:
        assert only_problem('names = [{ pattern = "x" }]\n').endswith(
            "tool.inwards.names[0]: has no `only-in`; list package selectors such as "
            '["shop.tests", "shop.*.tests"].'
        )
