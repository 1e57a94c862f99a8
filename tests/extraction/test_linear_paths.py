"""Reading stays linear in the size of what is read: the positions of many names on one
line or in one statement, many imports in one block, a statement quoted in facts, an
unclosed bracket before comments, many aliases of a loader.

Each size here took seconds to minutes (or forever) with the quadratic or exponential
code; the bounds leave room for a slow, busy machine."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from inwards_core.extraction.skeleton import read_skeleton, recover_imports
from inwards_core.extraction.suppression_comments import suppression_comments
from inwards_core.extraction.text import (
    ForwardPositions,
    LineColumns,
    one_line,
    statement_text,
)
from inwards_core.model.quoting import QUOTE_LIMIT

from .helpers import GRAMMARS, read, read_everywhere, span

hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")


@contextmanager
def within(seconds: float) -> Iterator[None]:
    started = time.process_time()
    yield
    elapsed = time.process_time() - started
    assert elapsed < seconds, f"took {elapsed:.2f} s (allowed {seconds} s)"


# -- the pure helpers ------------------------------------------------------------------


def char_column(line_text: str, byte_offset: int) -> int:
    """The column the slow way, decoding the line's bytes up to the offset (an ASCII
    line's offset is its column, past the end too)."""
    if line_text.isascii():
        return byte_offset
    return len(line_text.encode("utf-8")[:byte_offset].decode("utf-8", "replace"))


@hypothesis.given(strategies.text(alphabet="aé€😀\t ", max_size=30), strategies.data())
def test_line_columns_agree_with_char_column(line: str, data: strategies.DataObject) -> None:
    columns = LineColumns(line)
    size = len(line.encode("utf-8"))
    for offset in data.draw(strategies.lists(strategies.integers(0, size + 3), max_size=10)):
        assert columns.column(offset) == char_column(line, offset)


@hypothesis.given(strategies.text(alphabet="ab\n", max_size=40), strategies.data())
def test_forward_positions_agree_with_counting_from_the_start(
    text: str, data: strategies.DataObject
) -> None:
    offsets = data.draw(strategies.lists(strategies.integers(0, len(text)), max_size=8))
    positions = ForwardPositions(text, line=3, column=5)
    for offset in offsets:  # in any order: out of order counts again, still right
        breaks = text.count("\n", 0, offset)
        expected_column = 5 + offset if not breaks else offset - text.rfind("\n", 0, offset)
        assert positions.position(offset) == (3 + breaks, expected_column)


def test_statement_text_is_one_line_cut_to_the_quote_limit() -> None:
    short = "from x import (\n    a,\n    b,\n)"
    assert statement_text(short, 0, len(short)) == one_line(short) == "from x import (a, b,)"
    long = "from x import " + ", ".join(f"n{i}" for i in range(20_000))
    shown = statement_text(long, 0, len(long))
    assert len(shown) == QUOTE_LIMIT
    assert shown.startswith("from x import n0, n1, ")
    assert "…" in shown
    assert shown.endswith("n19999")


# -- whole files -------------------------------------------------------------------------


def test_two_hundred_thousand_names_in_one_import_are_placed_in_linear_time() -> None:
    source = "import a, " + ", ".join(["os"] * 200_000) + "\n"
    with within(8):
        facts = read(source)
    assert facts.grammar == "skeleton"
    assert len(facts.imports) == 200_001
    last = facts.imports[-1]
    assert last.span == span(1, len(source) - 2, 1, len(source))
    assert len(last.statement) == QUOTE_LIMIT


def test_a_parenthesized_import_over_many_lines_is_placed_in_linear_time() -> None:
    names = 50_000
    source = "from x import (\n" + "".join(f"    n{i},\n" for i in range(names)) + ")\n"
    with within(5):
        facts = read(source)
    assert len(facts.imports) == names
    assert facts.imports[-1].span == span(names + 1, 5, names + 1, 5 + len(f"n{names - 1}"))


def test_many_names_on_a_line_with_non_ascii_text_are_placed_in_linear_time() -> None:
    source = "import é, " + ", ".join(["os"] * 50_000) + "  # ü\n"
    with within(5):
        quick = read(source)
        full = read(source, fast=False)
    assert quick.imports == full.imports
    assert full.imports[1].span == span(1, 11, 1, 13)


def test_many_imports_in_one_function_are_placed_in_linear_time() -> None:
    body = "".join(f"    import m{i}\n    x = {i}\n" for i in range(30_000))
    source = "def f():\n" + body
    with within(8):
        facts = read(source)
    assert facts.grammar == "skeleton"
    assert len(facts.imports) == 30_000
    assert all(fact.in_function for fact in facts.imports)


def test_imports_in_blocks_are_still_placed_in_their_blocks() -> None:
    source = (
        "def f():\n"
        "    import a\n"
        "    if TYPE_CHECKING:\n"
        "        import b\n"
        "    import c\n"
        "if TYPE_CHECKING:\n"
        "    import d\n"
        "    def g():\n"
        "        import e\n"
        "    import f\n"
    )
    facts = read_everywhere(source)
    seen = {f.module: (f.in_function, f.type_checking) for f in facts.imports}
    assert seen == {
        "a": (True, False),
        "b": (True, True),
        "c": (True, False),
        "d": (False, True),
        "e": (True, True),
        "f": (False, True),
    }


def test_import_keywords_repeated_on_one_line_are_skipped_in_linear_time() -> None:
    source = "x = (" + "import " * 300_000 + "\n"
    with within(5):
        facts = read(source)
    assert facts.problem is not None
    assert facts.imports == ()


def test_an_unclosed_bracket_before_comments_does_not_backtrack() -> None:
    """Exponential before: eight comment lines after `from x import (` took 30 s."""
    source = "from x import (\n" + "# abcdefgh\n" * 40 + "a = 1\n"
    with within(2):
        assert read_skeleton(source, module="m", is_package=False, grammars=GRAMMARS) is None
        assert recover_imports(source, module="m", is_package=False, grammars=GRAMMARS) == ()


def test_many_aliases_of_a_loader_are_looked_up_in_linear_time() -> None:
    aliases = 20_000
    source = (
        "from importlib import "
        + ", ".join(f"import_module as a{i}" for i in range(aliases))
        + "\n"
        + "a7('shop.adapters')\n"
    )
    with within(5):
        facts = read(source)
    assert [(dyn.loader, dyn.target) for dyn in facts.dynamic_imports] == [
        ("importlib.import_module", "shop.adapters")
    ]


def test_a_loader_alias_with_a_mark_is_still_found() -> None:
    """`\\w` doesn't match every character a name may hold (a Devanagari vowel sign)."""
    source = "from importlib import import_module as नाम\nनाम('shop.adapters')\n"
    facts = read(source)
    assert [dyn.target for dyn in facts.dynamic_imports] == ["shop.adapters"]


def test_a_dynamic_import_quotes_at_most_the_limit() -> None:
    source = "__import__('shop.adapters', None, None, [" + "'x', " * 100_000 + "])\n"
    facts = read(source)
    assert [len(dyn.statement) for dyn in facts.dynamic_imports] == [QUOTE_LIMIT]


TRICKY_COMMENTS = [
    "x = 1  # inwards: ignore[INW001] reason='a'\n",
    "s = '# inwards: not a comment'  # inwards: ignore[INW001]\n",
    's = """\n# inwards: in a string\n"""  # inwards: after\n',
    "s = r'\\'' '#'  # inwards: ignore[INW005] reason=\"x\"\n",
    "s = 'a\\\nb'  # inwards: ignore[INW001] reason=\"x\"\n",
    "def f():\n    # inwards: ignore[INW001]\n    return f'{1}#'  # inwards: x\n",
]


@pytest.mark.parametrize("source", TRICKY_COMMENTS)
def test_comments_of_a_parsed_file_are_the_tokenizer_s(source: str) -> None:
    compile(source, "<test>", "exec")
    assert suppression_comments(source, read=True) == suppression_comments(source)
    assert suppression_comments(source)  # each holds a directive


def test_a_directive_after_a_long_line_of_code_is_found_in_linear_time() -> None:
    """The tokenizer made an object of each of a 10 MB line's 3 million tokens (15 s)."""
    source = "x = [" + "a, " * 1_000_000 + ']  # inwards: ignore[INW001] reason="x"\n'
    with within(1):
        [comment] = suppression_comments(source, read=True)
    assert comment.span.line == 1 and comment.codes == ("INW001",)
