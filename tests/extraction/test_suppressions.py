"""Suppression comments, read from comment tokens only."""

from __future__ import annotations

from inwards_core.extraction.suppression_comments import parse_directive
from inwards_core.model.facts import SuppressionComment, SuppressionProblem

from .helpers import read, span


def comments(source: str) -> list[SuppressionComment]:
    return list(read(source).suppressions)


def test_well_formed_directive() -> None:
    source = 'import a  # inwards: ignore[INW001,inw005] reason="legacy code"\n'
    assert comments(source) == [
        SuppressionComment(
            line=1,
            span=span(1, 13, 1, 64),
            codes=("INW001", "INW005"),
            reason="legacy code",
            problem=None,
        )
    ]
    assert source[12:63] == 'inwards: ignore[INW001,inw005] reason="legacy code"'


def test_after_another_tools_comment() -> None:
    source = 'x = 1  # noqa: E501  # inwards: ignore[FAPI001] reason="why"\n'
    [found] = comments(source)
    assert (found.codes, found.reason, found.problem) == (("FAPI001",), "why", None)
    assert found.span == span(1, 24, 1, 61)


def test_followed_by_another_tools_comment() -> None:
    [found] = comments('x = 1  # inwards: ignore[INW001] reason="why"  # type: ignore\n')
    assert found.problem is None
    assert found.span == span(1, 10, 1, 46)


def test_malformed_directives() -> None:
    for text in [
        "# inwards: ignore INW001",
        "# inwards: ignore[INW1]",
        "# inwards: ignore[]",
        '# inwards: ignore[INW001] because="x"',
        "# inwards: ignore[INW001] reason=why",
        '# inwards: ignore[INW001] reason="unterminated',
        "# inwards: skip[INW001]",
    ]:
        found = parse_directive(text, 3, 5)
        assert found is not None, text
        assert found.problem is SuppressionProblem.MALFORMED, text
        assert found.line == 3
        assert found.span == span(3, 7, 3, 5 + len(text)), text


def test_missing_or_empty_reason() -> None:
    for text in ["# inwards: ignore[INW001]", '# inwards: ignore[INW001] reason=""']:
        found = parse_directive(text, 1, 1)
        assert found is not None
        assert found.problem is SuppressionProblem.NO_REASON
        assert found.codes == ("INW001",)
        assert found.span == span(1, 3, 1, 1 + len(text))


def test_a_quote_ends_the_reason() -> None:
    found = parse_directive('# inwards: ignore[INW001] reason="say "hi""', 1, 1)
    assert found is not None
    assert found.problem is SuppressionProblem.MALFORMED
    assert found.reason == "say "


def test_second_directive_in_one_comment() -> None:
    source = 'x = 1  # inwards: ignore[INW001] reason="a"  # inwards: ignore[INW002] reason="b"\n'
    [found] = comments(source)
    assert found.problem is SuppressionProblem.SECOND_DIRECTIVE
    assert found.codes == ("INW001",)
    assert found.span == span(1, 10, 1, 44)


def test_directive_inside_a_string_is_not_a_comment() -> None:
    source = (
        'x = "# inwards: ignore[INW001] reason=\\"x\\""\n'
        '"""\n# inwards: ignore[INW001] reason="y"\n"""\n'
    )
    assert comments(source) == []


def test_prose_mentioning_inwards_is_not_a_directive() -> None:
    assert comments("x = 1  # the inwards: tool reads this file\n") == []


def test_directive_on_a_parenthesized_import_line() -> None:
    source = 'from a import (\n    b,  # inwards: ignore[INW001] reason="kept for now"\n    c,\n)\n'
    facts = read(source)
    assert facts.grammar == "skeleton"
    [found] = facts.suppressions
    assert (found.line, found.span) == (2, span(2, 11, 2, 56))


def test_directives_in_a_file_only_libcst_reads() -> None:
    source = 'type X = int\nx = f"{d["k"]}"  # inwards: ignore[INW011] reason="r"\n'
    facts = read(source, fast=False)
    assert facts.grammar == "libcst"
    [found] = facts.suppressions
    assert found.span == span(2, 20, 2, 54)
    assert found.problem is None


def test_directives_before_a_syntax_error_are_read() -> None:
    source = 'import a  # inwards: ignore[INW001] reason="r"\ndef f(:\n'
    facts = read(source, fast=False)
    assert facts.problem is not None
    assert [s.line for s in facts.suppressions] == [1]
