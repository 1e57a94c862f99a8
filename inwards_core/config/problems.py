"""What the loader of `[tool.inwards]` says about a problem: the collector every part of it
adds to (each problem with its dotted key and, when the mapping came from a file, line and
column), how a message names a value's type, and the key a misspelt one was probably
meant to be."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from inwards_core.config.values import ConfigProblem, SourcePositions

_Read = TypeVar("_Read")

PREFIX = "tool.inwards"


def type_name(value: Any) -> str:
    """How messages name the TOML type of `value`: "a string", "an array", ..."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
        return "a table"
    return "a date or time" if hasattr(value, "isoformat") else type(value).__name__


def closest(unknown: str, keys: tuple[str, ...]) -> str | None:
    """The key `unknown` was probably meant to be. A name over three times as long as
    every key is close to none (difflib's ratio is at most twice the shorter length over
    both); difflib took seconds over a key of megabytes."""
    if len(unknown) > 3 * max(map(len, keys), default=0):
        return None
    import difflib  # only when a key is wrong: not on the path of a valid configuration

    close = difflib.get_close_matches(unknown, keys, n=1)
    return close[0] if close else None


# What a layer or context name must not hold: it is written into Mermaid and PlantUML
# diagrams, Markdown and AGENTS.md (`inwards diagram`, `inwards context`), where a line
# break, a quote, a backtick or an angle bracket would end the name's place and let the
# rest of it read as syntax (a link, `!include`, raw HTML, the brief's end marker).
_NAME_DELIMITERS = '"`<>'


def name_problem(name: str) -> str | None:
    """Why `name` can't name a layer or a context, or None when it can."""
    if any(not character.isprintable() for character in name):
        return f'"{name}" must not hold a control character or a line break.'
    if any(character in _NAME_DELIMITERS for character in name):
        return f'"{name}" must not hold any of " ` < > (diagrams and the brief quote names).'
    return None


def known_keys(keys: tuple[str, ...], unknown: str) -> str:
    close = closest(unknown, keys)
    hint = f' Did you mean "{close}"?' if close else ""
    return f"Known keys: {', '.join(keys)}.{hint}"


def sub_key(key: str, name: str) -> str:
    """The key `name` inside `key`, quoted when TOML needs it."""
    from inwards_core.config.dotted_keys import key_segment  # a problem's key only

    return f"{key}.{key_segment(name)}"


def _same_key(key: str) -> str:
    return key


class ProblemCollector:
    """The problems found so far, in file order when asked for them.

    `key_in_file` turns a key of the table being read into the key of the file it came
    from (templates expand entries into keys the file doesn't have); a problem names that
    key, and one problem said twice of one key (an entry copied into several) is one."""

    def __init__(self, file: str, positions: SourcePositions) -> None:
        self.file = file
        self.positions = positions
        self.problems: list[ConfigProblem] = []
        self.key_in_file: Callable[[str], str] = _same_key
        self._said: set[tuple[str, str]] = set()

    def add(self, key: str, message: str) -> None:
        key = self.key_in_file(key)
        if (key, message) in self._said:
            return
        self._said.add((key, message))
        where = self.positions.locate(key)
        line, column = (where[0], where[1]) if where else (None, None)
        self.problems.append(ConfigProblem(self.file, line, column, key, message))

    def sorted_problems(self) -> tuple[ConfigProblem, ...]:
        # File order when positions are known; discovery order otherwise (stable sort).
        def order(problem: ConfigProblem) -> tuple[int, int]:
            return (problem.line or 0, problem.column or 0)

        return tuple(sorted(self.problems, key=order))

    def table_array(
        self,
        table: Mapping[str, Any],
        name: str,
        what: str,
        read: Callable[[ProblemCollector, Mapping[str, Any], str], _Read | None],
    ) -> tuple[_Read, ...]:
        """What `read` makes of each table of the array of tables `name` (`[[tool.inwards.<name>]]`,
        each a `what` table), given the table's dotted key; none when the key is absent."""
        if name not in table:
            return ()
        key = sub_key(PREFIX, name)
        value = table[name]
        if not isinstance(value, list | tuple):
            self.add(key, f"must be an array of {what} tables, not {type_name(value)}.")
            return ()
        read_ones: list[_Read] = []
        for index, element in enumerate(value):
            element_key = f"{key}[{index}]"
            if not isinstance(element, Mapping):
                self.add(element_key, f"must be a {what} table, not {type_name(element)}.")
                continue
            one = read(self, element, element_key)
            if one is not None:
                read_ones.append(one)
        return tuple(read_ones)

    def string_list(
        self,
        table: Mapping[str, Any],
        name: str,
        check: Callable[[str], str | None],
        key: str | None = None,
    ) -> tuple[str, ...] | None:
        """The array of strings at `name`, each checked by `check` (which returns the
        problem's message or None); None when the key is absent."""
        if name not in table:
            return None
        key = key or sub_key(PREFIX, name)
        value = table[name]
        if not isinstance(value, list | tuple):
            self.add(key, f"must be an array of strings, not {type_name(value)}.")
            return ()
        items: list[str] = []
        for index, item in enumerate(value):
            item_key = f"{key}[{index}]"
            if not isinstance(item, str):
                self.add(item_key, f"must be a string, not {type_name(item)}.")
                continue
            message = check(item)
            if message:
                self.add(item_key, message)
                continue
            items.append(item)
        return tuple(items)
