"""Guidance templates: the `summary` and `steps` of a rule definition's `[guidance]`.

A template is text with `{name}` fields, each naming a parameter the rule's check kind
declares (`CheckKind.guidance_params`, plus `COMMON_GUIDANCE_PARAMS`); `{{` and `}}` write a
brace. Nothing else is a template: definitions come from projects and users, and
`str.format`'s format specs (`{statement:>300000000}` writes 300 MB), conversions and
attribute or index access (`{statement.__class__.__init__.__doc__}`) are not for them.
`template_problem` finds what breaks these rules when a definition is read; `fill_template`
only substitutes names, so no template can do more than that.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Mapping, Sequence

# `{{`, `}}`, a field `{...}` (no brace inside), or a brace that is none of these.
_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_LONE_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# The shape of a template, for the definitions' JSON Schema (which names are allowed depends
# on the kind, which only the loader knows).
TEMPLATE_PATTERN = r"^(?:[^{}]|\{\{|\}\}|\{[A-Za-z_][A-Za-z0-9_]*\})*$"
_SHOWN = 40  # how much of a bad field a message quotes

_HOW = "a guidance template takes only `{name}` fields and `{{` or `}}` for a brace"


def _quoted(text: str) -> str:
    return f"`{text}`" if len(text) <= _SHOWN else f"`{text[:_SHOWN]}…`"


def _field_problem(body: str) -> str | None:
    """Why `{body}` is not a plain field, or None when it is a name."""
    if _NAME.match(body):
        return None
    if body == "" or body.isdigit():
        return "is a positional field; name a parameter instead"
    first = next((char for char in body if char in ":!.["), "")
    if first == ":":
        return "has a format spec"
    if first == "!":
        return "has a conversion"
    if first:
        return "reads an attribute or an item"
    return "is not a parameter name"


def template_problem(template: str, params: Collection[str], kind_id: str) -> str | None:
    """What is wrong with `template` (the first problem, as a sentence), or None when it
    only uses plain fields from `params`. Linear in the template's length."""
    if "{" not in template and "}" not in template:
        return None
    for match in _TOKEN.finditer(template):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        body = match.group(1)
        if body is None:
            if token == "{":
                return f"has a `{{` that opens no field: {_HOW}."
            return f"has a `}}` that closes no field: {_HOW}."
        why = _field_problem(body)
        if why is not None:
            return f"{_quoted(token)} {why}: {_HOW}."
        if body not in params:
            known = ", ".join(f"{{{name}}}" for name in sorted(params))
            return f"{_quoted(token)} is not a parameter of {kind_id}; it gives {known}."
    return None


def fill_template(template: str, params: Mapping[str, str]) -> str:
    """`template` with each `{name}` that `params` has replaced by its value and `{{`/`}}`
    by a brace; anything else stays as written. Values are not read again, and nothing
    but a lookup by name happens, so the result is at most the template plus the values."""
    if "{" not in template and "}" not in template:
        return template
    return "".join(
        text if name is None or name not in params else str(params[name])
        for text, name in _template_parts(template)
    )


@functools.lru_cache(maxsize=1024)
def _template_parts(template: str) -> tuple[tuple[str, str | None], ...]:
    """The template cut once into (text, None) for what is written as it stands (a brace
    for `{{` and `}}`) and (token, name) for a field, which is its value when the
    parameters have the name and its token otherwise. A report fills the same few
    templates once per finding: tens of thousands of times."""
    parts: list[tuple[str, str | None]] = []
    written = 0
    for match in _TOKEN.finditer(template):
        if match.start() > written:
            parts.append((template[written : match.start()], None))
        token = match.group(0)
        if token in ("{{", "}}"):
            parts.append((token[0], None))
        else:
            parts.append((token, match.group(1)))
        written = match.end()
    if written < len(template):
        parts.append((template[written:], None))
    return tuple(parts)


def fill_steps(
    steps: Sequence[str],
    params: Mapping[str, str],
    step_lists: Mapping[str, Sequence[str]],
) -> tuple[str, ...]:
    """Each step filled by `fill_template`, except a step that is one field alone whose
    parameter `step_lists` holds: it becomes one step per item, in order, each as written
    (never filled), and no step at all for an empty list."""
    filled: list[str] = []
    for step in steps:
        lone = _LONE_FIELD.fullmatch(step.strip()) if step_lists else None
        if lone is not None and lone.group(1) in step_lists:
            filled.extend(step_lists[lone.group(1)])
        else:
            filled.append(fill_template(step, params))
    return tuple(filled)
