"""Options typed `int | Literal[False]` and `str | Literal[False]`: TOML `false` turns the
option off, `true` is refused naming the key, an int or str is read (and checked) as today."""

from __future__ import annotations

from typing import Literal

import attrs
import pytest

from inwards_core.authoring.docgen import options_table
from inwards_core.authoring.option_schemas import _value_schema
from inwards_core.rules.options import OptionsError, option, options_to_data, parse_options


def _at_most_1000(value: int) -> str | None:
    return None if 0 <= value <= 1000 else "must be between 0 and 1000."


def _snake(value: str) -> str | None:
    return None if value in ("snake", "snake_singular") else 'must be "snake" or "snake_singular".'


@attrs.frozen
class Limits:
    """`max-statements` caps statements. `table-name` names the scheme."""

    max_statements: int | Literal[False] = option(10, check=_at_most_1000)
    table_name: str | Literal[False] = option("snake_singular", check=_snake)


def test_false_turns_the_option_off_and_skips_its_check() -> None:
    options = parse_options(Limits, {"max-statements": False, "table-name": False}, "rules.x")
    assert options.max_statements is False
    assert options.table_name is False


def test_an_int_or_a_str_is_read_and_checked_as_before() -> None:
    options = parse_options(Limits, {"max-statements": 3, "table-name": "snake"}, "rules.x")
    assert (options.max_statements, options.table_name) == (3, "snake")
    with pytest.raises(OptionsError) as raised:
        parse_options(Limits, {"max-statements": 5000}, "rules.x")
    assert raised.value.key == "rules.x.max-statements"
    assert "between 0 and 1000" in raised.value.message
    with pytest.raises(OptionsError) as raised:
        parse_options(Limits, {"table-name": "camel"}, "rules.x")
    assert raised.value.key == "rules.x.table-name"


@pytest.mark.parametrize("key", ["max-statements", "table-name"])
def test_true_is_refused_naming_the_key(key: str) -> None:
    with pytest.raises(OptionsError) as raised:
        parse_options(Limits, {key: True}, "rules.x")
    assert raised.value.key == f"rules.x.{key}"
    assert "not true" in raised.value.message
    assert "false to turn it off" in raised.value.message


def test_other_types_are_refused_saying_what_is_taken() -> None:
    with pytest.raises(OptionsError) as raised:
        parse_options(Limits, {"max-statements": "ten"}, "rules.x")
    assert raised.value.message == "must be an integer or false, not a string."
    with pytest.raises(OptionsError) as raised:
        parse_options(Limits, {"table-name": 3}, "rules.x")
    assert raised.value.message == "must be a string or false, not an integer."


def test_round_trip_schema_and_docs_table() -> None:
    options = parse_options(Limits, {"max-statements": False}, "rules.x")
    assert options_to_data(options) == {"max-statements": False, "table-name": "snake_singular"}
    assert _value_schema(int | Literal[False]) == {"anyOf": [{"type": "integer"}, {"const": False}]}
    assert _value_schema(str | Literal[False]) == {"anyOf": [{"type": "string"}, {"const": False}]}
    table = "\n".join(options_table(Limits))
    assert "| `max-statements` | integer or `false` (off) | `10` |" in table
    assert '| `table-name` | string or `false` (off) | `"snake_singular"` |' in table
