"""Dotted keys of many parts, and keys and values megabytes long: found, refused or
quoted in time linear in the text, and every problem quotes a bounded piece."""

from __future__ import annotations

import time
import tomllib

import pytest

from inwards_core.config.dotted_keys import overlong_dotted_key
from inwards_core.config.load import build_config
from inwards_core.config.nesting import MAX_TOML_NESTING, TomlTooDeepError, load_toml
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import ConfigError
from inwards_core.model.quoting import MESSAGE_LIMIT, QUOTE_LIMIT

LIMIT = MAX_TOML_NESTING


def dotted(parts: int, name: str = "a") -> str:
    return ".".join(f"{name}{index}" for index in range(parts))


def test_positions_of_a_key_of_fifty_thousand_parts_take_linear_time_and_memory() -> None:
    """Every prefix path was a tuple of its own: 50,000 parts filled 8 GB."""
    key = dotted(50_000)
    started = time.process_time()
    positions = TomlPositions("[tool.inwards]\n" + key + " = 1\n")
    assert time.process_time() - started < 2
    assert positions.locate("tool.inwards.a0.a1") == (2, 4)
    assert positions.locate(f"tool.inwards.{key}") == (2, len(key) - len("a49999") + 1)
    assert positions.locate(f"tool.inwards.{key}.past") == positions.locate(f"tool.inwards.{key}")
    assert positions.has("tool.inwards.a0") and not positions.has("tool.inwards.a1")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (dotted(LIMIT + 1) + " = 1\n", (1, 1, LIMIT + 1)),
        (dotted(LIMIT) + " = 1\n", None),
        ("x = 1\n[" + dotted(LIMIT + 5) + "]\n", (2, 2, LIMIT + 5)),
        ("t = { " + " . ".join(["'q'"] * (LIMIT + 1)) + " = 1 }\n", (1, 7, LIMIT + 1)),
        ('"k"' + ".b" * LIMIT + " = 1\n", (1, 1, LIMIT + 1)),
        # Dots in strings and comments are no keys.
        ('x = "' + ".a" * (2 * LIMIT) + '"\n', None),
        ("x = '" + ".a" * (2 * LIMIT) + "'\n", None),
        ('x = """\n' + ".a" * (2 * LIMIT) + '\n"""""\n', None),
        ("x = '''" + ".a" * (2 * LIMIT) + "'''\n", None),
        ("# " + ".a" * (2 * LIMIT) + "\n", None),
        ('x = "\\"' + ".a" * (2 * LIMIT) + '"\n', None),
        ("x = [1.5, 2.5]\nd = 1979-05-27T07:32:00.999\n", None),
    ],
)
def test_overlong_dotted_keys_are_found(text: str, found: tuple[int, int, int] | None) -> None:
    result = overlong_dotted_key(text, LIMIT)
    assert (result[:3] if result else None) == found
    if found is None:
        tomllib.loads(text)  # the cases without one are valid TOML


@pytest.mark.parametrize(
    "text",
    [
        dotted(3 * LIMIT) + " = 1\n" * 10_000,
        ("a." * (LIMIT - 1) + "b = 1\n") * 20_000,
        '"' + "." * 2_000_000 + '"\n',
        "x" * 5_000_000,
        " ." * 2_000_000,
    ],
)
def test_looking_for_overlong_keys_takes_linear_time(text: str) -> None:
    started = time.process_time()
    overlong_dotted_key(text, LIMIT)
    assert time.process_time() - started < 2


def test_a_key_of_fifty_thousand_parts_is_refused_before_parsing_naming_its_line() -> None:
    text = "[tool.inwards]\nroot = 'src'\n" + dotted(50_000) + " = 1\n"
    started = time.process_time()
    with pytest.raises(TomlTooDeepError) as raised:
        load_toml(text)
    assert time.process_time() - started < 2  # tomllib alone takes minutes on this key
    error = raised.value
    assert (error.line, error.column) == (3, 1)
    message = str(error)
    assert message.startswith("has a dotted key of 50000 parts (a0.a1.a2.")
    assert "a49999)" in message and "…" in message
    assert len(message) < QUOTE_LIMIT + 200


def test_a_key_within_the_limit_is_read() -> None:
    assert load_toml(dotted(10) + " = 1\n")["a0"]["a1"]["a2"]["a3"]["a4"]


def test_config_problems_quote_a_bounded_piece() -> None:
    long_name = "k" * 1_000_000
    table = {long_name: 1, "root": "/" + "x" * 1_000_000, "layers": []}
    started = time.process_time()
    with pytest.raises(ConfigError) as raised:
        build_config(table, file="pyproject.toml", positions=TomlPositions(""))
    assert time.process_time() - started < 2
    problems = raised.value.problems
    assert len(problems) == 3
    for problem in problems:
        assert len(problem.key) <= QUOTE_LIMIT
        assert len(problem.message) <= MESSAGE_LIMIT
    unknown = next(p for p in problems if p.key.startswith("tool.inwards.k"))
    assert "…" in unknown.key and "Did you mean" not in unknown.message
