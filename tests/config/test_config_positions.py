from __future__ import annotations

import os
import random
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inwards_core.config.dotted_keys import key_segment, parse_dotted_key, render_key
from inwards_core.config.positions import (
    TomlPositions,
    caret_excerpt,
    decode_error_position,
    decode_error_reason,
)


def where(text: str, key: str) -> tuple[int, int] | None:
    return TomlPositions(text).locate(key)


def column_of(line_text: str, fragment: str) -> int:
    return line_text.index(fragment) + 1


def leaf_and_table_paths(
    data: Any, prefix: tuple[str | int, ...] = ()
) -> Iterator[tuple[str | int, ...]]:
    """Every key and array index tomllib produced, as paths."""
    if isinstance(data, dict):
        for name, value in data.items():
            yield (*prefix, name)
            yield from leaf_and_table_paths(value, (*prefix, name))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield (*prefix, index)
            yield from leaf_and_table_paths(value, (*prefix, index))


def assert_every_path_found(text: str) -> None:
    positions = TomlPositions(text)
    missing = [
        render_key(path)
        for path in leaf_and_table_paths(tomllib.loads(text))
        if not positions.has(render_key(path))
    ]
    assert missing == []


PYPROJECT = """\
# a comment with [fake.header] and key = "value"
[project]
name = "shop"

[tool.inwards]
root = "src"   # trailing comment
layers = [
  { name = "domain", modules = ["shop.domain", "shop.*.model"] },
  [ { name = "sales", modules = ["shop.sales"] }, { name = "billing", modules = [
      "shop.billing", "shop.invoices",
      'shop.payments',  # a comment between entries
  ] } ],
]
notes = \"\"\"
fake = [1]
[tool.inwards.not_a_table]
\"\"\"
literal = '''
[[tool.inwards.not_an_array]]
'''
"dotted.quoted" = 1
'literal key' = 2
a.b.c = 3

[tool.inwards.rules]
severity = { INW006 = "warning" }

[tool.inwards.rules.pure-domain]
deny = [ { modules = ["shop.domain"], libraries = ["requests"] } ]
"""


class TestKeys:
    def test_table_header_names_its_last_segment(self) -> None:
        assert where(PYPROJECT, "tool.inwards") == (5, 7)
        assert where(PYPROJECT, "tool") == (5, 2)
        assert where(PYPROJECT, "tool.inwards.rules.pure-domain") == (28, 21)

    def test_plain_key(self) -> None:
        assert where(PYPROJECT, "tool.inwards.root") == (6, 1)
        assert where(PYPROJECT, "project.name") == (3, 1)

    def test_inline_array_of_inline_tables(self) -> None:
        line = PYPROJECT.splitlines()[7]
        assert where(PYPROJECT, "tool.inwards.layers") == (7, 1)
        assert where(PYPROJECT, "tool.inwards.layers[0]") == (8, column_of(line, "{"))
        assert where(PYPROJECT, "tool.inwards.layers[0].name") == (8, column_of(line, "name"))
        assert where(PYPROJECT, "tool.inwards.layers[0].modules[1]") == (
            8,
            column_of(line, '"shop.*.model"'),
        )

    def test_nested_sibling_group(self) -> None:
        line = PYPROJECT.splitlines()[8]
        assert where(PYPROJECT, "tool.inwards.layers[1]") == (9, 3)
        assert where(PYPROJECT, "tool.inwards.layers[1][0]") == (9, 5)
        assert where(PYPROJECT, "tool.inwards.layers[1][1]") == (
            9,
            column_of(line, '{ name = "billing"'),
        )
        assert where(PYPROJECT, "tool.inwards.layers[1][1].name") == (
            9,
            column_of(line, 'name = "billing"'),
        )

    def test_multiline_array_entries_each_have_their_own_position(self) -> None:
        key = "tool.inwards.layers[1][1].modules"
        assert where(PYPROJECT, f"{key}[0]") == (10, 7)
        assert where(PYPROJECT, f"{key}[1]") == (10, 23)
        assert where(PYPROJECT, f"{key}[2]") == (11, 7)

    def test_multiline_strings_hide_their_content(self) -> None:
        positions = TomlPositions(PYPROJECT)
        assert positions.has("tool.inwards.notes")
        assert positions.has("tool.inwards.literal")
        assert not positions.has("fake")
        assert not positions.has("tool.inwards.not_a_table")
        assert not positions.has("tool.inwards.not_an_array")
        assert not positions.has("tool.inwards.not_an_array[0]")

    def test_comments_hide_their_content(self) -> None:
        assert TomlPositions(PYPROJECT).locate("fake.header") is None
        assert TomlPositions(PYPROJECT).locate("key") is None

    def test_quoted_keys(self) -> None:
        assert where(PYPROJECT, 'tool.inwards."dotted.quoted"') == (21, 1)
        assert where(PYPROJECT, "tool.inwards.'literal key'") == (22, 1)
        assert where(PYPROJECT, f"tool.inwards.{key_segment('literal key')}") == (22, 1)

    def test_dotted_keys_give_each_segment(self) -> None:
        assert where(PYPROJECT, "tool.inwards.a") == (23, 1)
        assert where(PYPROJECT, "tool.inwards.a.b") == (23, 3)
        assert where(PYPROJECT, "tool.inwards.a.b.c") == (23, 5)

    def test_inline_table_key(self) -> None:
        assert where(PYPROJECT, "tool.inwards.rules.severity.INW006") == (26, 14)

    def test_array_of_inline_tables_inside_a_rule_table(self) -> None:
        line = PYPROJECT.splitlines()[28]
        key = "tool.inwards.rules.pure-domain.deny[0]"
        assert where(PYPROJECT, key) == (29, column_of(line, "{"))
        assert where(PYPROJECT, f"{key}.libraries[0]") == (29, column_of(line, '"requests"'))

    def test_every_parsed_key_is_found(self) -> None:
        assert_every_path_found(PYPROJECT)


ARRAY_TABLES = """\
[[tool.inwards.layers]]
name = "domain"
modules = ["shop.domain"]

[[tool.inwards.layers]]
name = "adapters"
modules = ["shop.adapters"]

[tool.inwards.layers.extra]
x = 1

[[tool.inwards.layers.nested]]
y = 1
[[tool.inwards.layers.nested]]
y = 2

[[tool.inwards.layers]]
name = "app"
"""


class TestArrayOfTables:
    def test_index_counts_headers(self) -> None:
        assert where(ARRAY_TABLES, "tool.inwards.layers[0]") == (1, 1)
        assert where(ARRAY_TABLES, "tool.inwards.layers[1]") == (5, 1)
        assert where(ARRAY_TABLES, "tool.inwards.layers[2]") == (17, 1)
        assert where(ARRAY_TABLES, "tool.inwards.layers[2].name") == (18, 1)

    def test_array_key_is_its_first_header(self) -> None:
        assert where(ARRAY_TABLES, "tool.inwards.layers") == (1, 16)

    def test_keys_inside_each_entry(self) -> None:
        assert where(ARRAY_TABLES, "tool.inwards.layers[1].modules[0]") == (7, 12)

    def test_sub_table_and_nested_array_belong_to_the_latest_entry(self) -> None:
        assert where(ARRAY_TABLES, "tool.inwards.layers[1].extra.x") == (10, 1)
        assert where(ARRAY_TABLES, "tool.inwards.layers[1].nested[1].y") == (15, 1)
        assert where(ARRAY_TABLES, "tool.inwards.layers[1].nested[1]") == (14, 1)

    def test_every_parsed_key_is_found(self) -> None:
        assert_every_path_found(ARRAY_TABLES)


class TestFallback:
    def test_missing_entry_falls_back_to_its_array(self) -> None:
        assert where(PYPROJECT, "tool.inwards.layers[0].modules[7]") == where(
            PYPROJECT, "tool.inwards.layers[0].modules"
        )

    def test_missing_key_falls_back_to_its_table(self) -> None:
        assert where(PYPROJECT, "tool.inwards.layers[3].name") == (7, 1)
        assert where(PYPROJECT, "tool.inwards.user-rules") == (5, 7)

    def test_nothing_found_is_none(self) -> None:
        assert where(PYPROJECT, "elsewhere.entirely") is None
        assert TomlPositions("").locate("tool.inwards") is None
        assert where(PYPROJECT, "") is None


class TestDefinitionFiles:
    TEXT = """\
code = "ACME001"
name = "no-requests"

[options]
modules = ["shop.domain"]

[guidance]
steps = [
  "Delete the import.",
  "Declare a port.",
]
"""

    def test_keys_without_tool_prefix(self) -> None:
        assert where(self.TEXT, "code") == (1, 1)
        assert where(self.TEXT, "options.modules") == (5, 1)
        assert where(self.TEXT, "guidance.steps[1]") == (10, 3)


class TestText:
    def test_crlf_line_endings(self) -> None:
        text = '[tool.inwards]\r\nroot = "src"\r\nlayers = [\r\n  "a",\r\n  "b",\r\n]\r\n'
        assert where(text, "tool.inwards.root") == (2, 1)
        assert where(text, "tool.inwards.layers[1]") == (5, 3)

    def test_columns_count_characters(self) -> None:
        text = 'names = ["é", "ü"]\n'
        assert where(text, "names[1]") == (1, 15)

    def test_byte_order_mark_is_skipped(self) -> None:
        assert where("\ufeffroot = 1\nx = 2\n", "x") == (2, 1)
        assert TomlPositions("\ufeffroot = 1\n").has("root")

    def test_strings_with_escapes_and_closing_quotes(self) -> None:
        text = (
            'a = "say \\"hi\\" [x]"\n'
            'b = """ends with quotes"""""\n'
            "c = '''two''''\n"
            'd = """escaped \\""" still inside\n'
            'e = 1"""\n'
            "f = 2\n"
            'g = { s = """ends""""", t = 1 }\n'
        )
        tomllib.loads(text)  # the test text itself is valid TOML
        positions = TomlPositions(text)
        assert positions.locate("b") == (2, 1)
        assert positions.locate("c") == (3, 1)
        assert positions.locate("f") == (6, 1)
        assert not positions.has("e")
        assert positions.locate("g.t") == (7, 25)

    def test_scalars_of_every_kind(self) -> None:
        text = (
            "when = 1979-05-27 07:32:00Z\n"
            "ok = true\n"
            "n = [1, -2.5e3, inf, 0x1F, 1979-05-27]\n"
            "after = 1\n"
        )
        tomllib.loads(text)
        assert where(text, "n[4]") == (3, 28)
        assert where(text, "after") == (4, 1)
        assert_every_path_found(text)

    def test_keys_are_found_after_a_line_it_does_not_understand(self) -> None:
        text = "a = 1\nthis is not toml ][\nb = 2\n"
        assert where(text, "b") == (3, 1)

    def test_garbage_never_raises(self) -> None:
        alphabet = "ab=.[]{}\"',#\n \\'1"
        generator = random.Random(1234)
        for _ in range(2000):
            text = "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 40)))
            TomlPositions(text).locate("a.b[0]")

    def test_keys_lists_what_was_found_in_order(self) -> None:
        assert TomlPositions("[t]\nx = [1, {y = 2}]\n").keys() == (
            "t",
            "t.x",
            "t.x[0]",
            "t.x[1]",
            "t.x[1].y",
        )


class TestDottedKeyText:
    @pytest.mark.parametrize(
        ("text", "path"),
        [
            (
                "tool.inwards.layers[2][1].modules[0]",
                ("tool", "inwards", "layers", 2, 1, "modules", 0),
            ),
            ('a."b.c".d', ("a", "b.c", "d")),
            ("a.'b c'", ("a", "b c")),
            ('a."q\\"uote"', ("a", 'q"uote')),
            ("rules.severity.INW006", ("rules", "severity", "INW006")),
        ],
    )
    def test_parse(self, text: str, path: tuple[str | int, ...]) -> None:
        assert parse_dotted_key(text) == path

    def test_render_round_trips(self) -> None:
        path = ("tool", "a.b", 'q"', 3, "ok-key")
        assert parse_dotted_key(render_key(path)) == path


class TestDecodeErrors:
    def test_line_and_column_of_a_decode_error(self) -> None:
        text = 'a = 1\nb = [1,\nc = "x"\n'
        with pytest.raises(tomllib.TOMLDecodeError) as caught:
            tomllib.loads(text)
        position = decode_error_position(caught.value, text)
        assert position is not None
        assert position[0] == 3
        assert "(at line" not in decode_error_reason(caught.value)

    def test_end_of_document(self) -> None:
        text = 'a = 1\nb = "open'
        assert decode_error_position("Unterminated string (at end of document)", text) == (2, 10)

    def test_message_form(self) -> None:
        assert decode_error_position("Invalid value (at line 7, column 12)", "") == (7, 12)
        assert decode_error_reason("Invalid value (at line 7, column 12)") == "Invalid value"
        assert decode_error_position("something else", "") is None

    def test_caret_excerpt(self) -> None:
        assert caret_excerpt("a = 1\nb = ?\n", 2, 5) == "    b = ?\n        ^"
        assert caret_excerpt("a = 1\n", 9, 1) == ""


def _corpus_root() -> Path | None:
    root = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
    return root if root.is_dir() else None


@pytest.mark.corpus
def test_every_key_of_real_toml_files_is_found() -> None:
    root = _corpus_root()
    if root is None:
        pytest.skip("no corpora (set INWARDS_CORPORA)")
    checked = 0
    for path in sorted(root.rglob("*.toml")):
        try:
            text = path.read_bytes().decode("utf-8")
            tomllib.loads(text)
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        positions = TomlPositions(text)
        for key_path in leaf_and_table_paths(tomllib.loads(text)):
            assert positions.has(render_key(key_path)), (path, render_key(key_path))
        checked += 1
    assert checked > 0
