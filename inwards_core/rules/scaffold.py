"""The placeholders `inwards rules new` writes into a new rule's definition, kept in one
place: the template takes its texts from here, `rules new` names the keys that hold them,
and loading the rules warns about a definition that still holds one (its findings would
print "Say what to do instead." as the fix).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import attrs

from inwards_core.config.positions import TomlPositions
from inwards_core.model.value_repr import value_repr

# Texts the author replaces with the rule's own words.
RULE_SUMMARY = "Say in one sentence what this rule keeps out."
FIX_SUMMARY = "Say what to do instead."
FIX_STEP = "Say where this code belongs instead, or how to reach it through a port."
TEXT_PLACEHOLDERS = (RULE_SUMMARY, FIX_SUMMARY, FIX_STEP)

# Values of required options, which name no module of any project: a module or list entry,
# and a word.
OPTION_PLACEHOLDER = "CHANGE.ME"
WORD_PLACEHOLDER = "CHANGE-ME"


@attrs.frozen
class Placeholder:
    """A key of a definition file that still holds a scaffold text, and where."""

    __repr__ = value_repr

    key: str
    text: str
    line: int | None = None
    column: int | None = None


def text_placeholder_keys(table: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(key, text) of each text placeholder in a definition's table: `summary`,
    `guidance.summary`, `guidance.steps[i]`, and the same in each guidance variant."""
    if table.get("summary") in TEXT_PLACEHOLDERS:
        yield "summary", table["summary"]
    guidance = table.get("guidance")
    if not isinstance(guidance, Mapping):
        return
    yield from _guidance_placeholders(guidance, "guidance")
    variants = guidance.get("variants")
    if isinstance(variants, Mapping):
        for name, variant in variants.items():
            if isinstance(variant, Mapping):
                yield from _guidance_placeholders(variant, f"guidance.variants.{name}")


def _guidance_placeholders(guidance: Mapping[str, Any], key: str) -> Iterator[tuple[str, str]]:
    if guidance.get("summary") in TEXT_PLACEHOLDERS:
        yield f"{key}.summary", guidance["summary"]
    steps = guidance.get("steps")
    if isinstance(steps, list | tuple):
        for index, step in enumerate(steps):
            if step in TEXT_PLACEHOLDERS:
                yield f"{key}.steps[{index}]", step


def option_placeholder_keys(table: Mapping[str, Any]) -> Iterator[str]:
    """The options (`options.modules`) whose value still holds a placeholder."""
    options = table.get("options")
    if isinstance(options, Mapping):
        for name, value in options.items():
            if _holds_option_placeholder(value):
                yield f"options.{name}"


def _holds_option_placeholder(value: Any) -> bool:
    if isinstance(value, str):
        return value.startswith((OPTION_PLACEHOLDER, WORD_PLACEHOLDER))
    if isinstance(value, list | tuple):
        return any(_holds_option_placeholder(item) for item in value)
    if isinstance(value, Mapping):
        return any(_holds_option_placeholder(item) for item in value.values())
    return False


def text_placeholders(table: Mapping[str, Any], text: str) -> tuple[Placeholder, ...]:
    """The text placeholders of a definition, located in its file's `text` (scanned only
    when there is one)."""
    found = list(text_placeholder_keys(table))
    if not found:
        return ()
    positions = TomlPositions(text)
    located: list[Placeholder] = []
    for key, value in found:
        where = positions.locate(key)
        line, column = where if where else (None, None)
        located.append(Placeholder(key, value, line, column))
    return tuple(located)


def placeholder_warning(path: str, placeholder: Placeholder) -> str:
    """The warning about one placeholder left in a definition file."""
    where = path if placeholder.line is None else f"{path}:{placeholder.line}"
    if placeholder.line is not None and placeholder.column is not None:
        where += f":{placeholder.column}"
    shown = (
        "`inwards rules` and the reports show it as the rule's summary"
        if placeholder.key == "summary"
        else "every finding of the rule prints it as the fix"
    )
    return (
        f'{where}: {placeholder.key}: still holds the placeholder "{placeholder.text}" that '
        f"`inwards rules new` wrote, and {shown}: write the rule's own words there."
    )
