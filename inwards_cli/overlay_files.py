"""Writing an overlay (`inwards rules shadow CODE --overlay`): the few fields a user or a
project changes in the definition below, and the base they were written against.

`--set KEY=VALUE` and `--unset KEY` name fields by their dotted path in the definition
(`severity`, `options.forbidden`, `guidance.steps`); VALUE is read as a TOML value, or as
text when it is not one (`--set severity=warning`). The file records, in `[overlay]`, the
definition it was written over (root, distribution, version, path and the `table_digest`
of its merged table) and, in `[overlay.was]`, the base's value of every field it sets or
unsets (`was-absent` lists those the base did not have): so an upstream change to one of
them can be shown as old value, new value and the overlay's own.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import tomlkit

from inwards_cli.definition_files import copied_from, written_for
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.definitions import OVERLAY_ONLY_KEYS
from inwards_core.rules.overlays import touched_fields

# One part of a dotted field path: a TOML bare key (option, guidance or variant name).
_PART = re.compile(r"^[A-Za-z0-9_-]+$")

# Keys `--set` may not write: the overlay's own keys, and what a whole file must change.
_NOT_SETTABLE = {
    "overlays": "the overlay names its rule itself",
    "overlay": "the [overlay] table is written from the base",
    "unset": "use --unset KEY to remove a field",
    "shadow": "an overlay records its base in [overlay], not [shadow]",
    "check": (
        "an overlay can't change the check kind (the options would no longer fit); "
        "write a whole-file shadow instead: `inwards rules shadow CODE --to ROOT`"
    ),
}


class SettingError(Exception):
    """A `--set` or `--unset` argument that can't be used: the argument as given, and why."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(argument, message)
        self.argument = argument
        self.message = message

    def render(self, option: str) -> str:
        return f"{option} {self.argument}: {self.message}"


@attrs.frozen
class Setting:
    """One `--set KEY=VALUE`: the argument as given, its dotted key and its TOML value."""

    __repr__ = value_repr

    argument: str
    key: str
    value: Any


@attrs.frozen
class BaseRecord:
    """What an overlay records of the definition in force below it when it is written."""

    __repr__ = value_repr

    root: str
    distribution: str
    version: str
    path: str
    sha256: str  # `table_digest` of the base's merged table
    table: Mapping[str, Any] = attrs.field(eq=False, repr=False)


def field_path(argument: str, text: str) -> str:
    """`text` as a dotted field path (`options.forbidden`), or `SettingError`."""
    parts = text.strip().split(".")
    if not text.strip() or not all(_PART.match(part) for part in parts):
        raise SettingError(
            argument,
            f'"{text}" is not a field path: names joined by dots, such as severity, '
            "options.forbidden or guidance.steps.",
        )
    if parts[0] in _NOT_SETTABLE:
        raise SettingError(
            argument, f"{parts[0]} can't be written here: {_NOT_SETTABLE[parts[0]]}."
        )
    return ".".join(parts)


def toml_value(text: str) -> Any:
    """`text` read as a TOML value (`true`, `3`, `["a", "b"]`, `{ x = 1 }`, `"text"`), or
    the text itself when it is none (`warning`)."""
    try:
        return tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        return text


def parse_settings(arguments: Sequence[str]) -> tuple[Setting, ...]:
    """The `--set KEY=VALUE` arguments, checked for their shape and for clashes with each
    other (the same field twice, or a field inside one another sets)."""
    settings: list[Setting] = []
    for argument in arguments:
        key_text, equals, value_text = argument.partition("=")
        if not equals:
            raise SettingError(
                argument, "is not KEY=VALUE (e.g. severity=warning, or options.forbidden=[...])."
            )
        key = field_path(argument, key_text)
        for earlier in settings:
            if earlier.key == key:
                raise SettingError(argument, f"{key} is set twice (also by {earlier.argument}).")
            if _inside(key, earlier.key) or _inside(earlier.key, key):
                raise SettingError(
                    argument, f"{key} and {earlier.key} (set by {earlier.argument}) overlap."
                )
        settings.append(Setting(argument, key, toml_value(value_text.strip())))
    return tuple(settings)


def parse_unsets(arguments: Sequence[str], settings: Sequence[Setting]) -> tuple[str, ...]:
    """The `--unset KEY` arguments as dotted paths; a field both set and unset is refused
    (unsetting a table and setting a field inside it replaces the table: that is allowed)."""
    keys: list[str] = []
    for argument in arguments:
        key = field_path(argument, argument)
        same = next((s for s in settings if s.key == key or _inside(key, s.key)), None)
        if same is not None:
            raise SettingError(argument, f"{key} is also set by --set {same.argument}.")
        if key not in keys:
            keys.append(key)
    return tuple(keys)


def _inside(key: str, table: str) -> bool:
    return key.startswith(table + ".")


def lookup(table: Mapping[str, Any], key: str) -> tuple[bool, Any]:
    """(True, value) of the dotted `key` in `table`, or (False, None) when it has none."""
    current: Any = table
    for part in key.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return False, None
        current = current[part]
    return True, current


def touched_keys(
    body: Mapping[str, Any], unsets: Sequence[str], base: BaseRecord, options: tuple[str, ...]
) -> list[str]:
    """The fields an overlay body sets (as the resolver finds its conflicts: `extend-` keys
    append, so an upstream change to that array is inherited and nothing is recorded),
    then those it unsets."""
    fields = {k: v for k, v in body.items() if k not in OVERLAY_ONLY_KEYS}
    written, _extended = touched_fields(fields, base.table, options)
    return [*written, *(key for key in unsets if key not in written)]


def _nested(settings: Sequence[Setting]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for setting in settings:
        *parents, last = setting.key.split(".")
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = setting.value
    return tree


def overlay_header(code: str, base: BaseRecord, to: str) -> list[str]:
    """The comment lines an overlay starts with, `to` being the root it is written into."""
    source = copied_from(base.root, base.distribution, base.version, base.path)
    scope = written_for(to)
    return [
        f"Overlay of {code}, made by `inwards rules shadow {code} --to {to} --overlay`",
        f"over {source}.",
        f"It changes only the fields below, {scope}; every other field follows",
        "the definition below as it changes. [overlay] records the base it was written",
        f"against: `inwards status` and `inwards rules explain {code}` say when upstream",
        "changes a field set or unset here.",
    ]


def overlay_text(
    code: str,
    base: BaseRecord,
    settings: Sequence[Setting],
    unsets: Sequence[str],
    *,
    to: str,
    options: tuple[str, ...] = (),
) -> bytes:
    """The overlay file: header, `overlays`, the fields set, `unset`, and `[overlay]` with
    the base and `[overlay.was]` (the base's values of the fields touched). `options` are
    the option names of the rule's kind (an `extend-X` they name is the option itself)."""
    document = tomlkit.document()
    for line in overlay_header(code, base, to):
        document.add(tomlkit.comment(line))
    document.add("overlays", code)
    tree = _nested(settings)
    tables = {key: value for key, value in tree.items() if isinstance(value, dict)}
    for key, value in tree.items():
        if key not in tables:
            document.add(key, value)
    if unsets:
        document.add("unset", list(unsets))
    for key, value in tables.items():
        document.add(tomlkit.nl())
        document.add(key, tomlkit.item(value))
    document.add(tomlkit.nl())
    document.add("overlay", overlay_table(base, touched_keys(tree, unsets, base, options)))
    text = tomlkit.dumps(document)
    return (text if text.endswith("\n") else text + "\n").encode("utf-8")


def overlay_table(base: BaseRecord, touched: Sequence[str]) -> tomlkit.items.Table:
    """`[overlay]`: the base, and its values then of the `touched` fields (dotted keys)."""
    table = tomlkit.table()
    table.comment("written by `inwards rules shadow --overlay`: the definition below it then")
    for key in ("root", "distribution", "version", "path", "sha256"):
        table.add(key, getattr(base, key))
    was = tomlkit.table()
    absent: list[str] = []
    for key in touched:
        found, value = lookup(base.table, key)
        if found:
            was.add(key, value)
        elif key not in absent:
            absent.append(key)
    if absent:
        table.add("was-absent", absent)
    if was:
        table.add("was", was)
    return table


def refreshed_text(text: str, base: BaseRecord, touched: Sequence[str]) -> bytes:
    """An overlay's text with its `[overlay]` table recorded afresh against `base` (after a
    conflict was resolved): everything else, comments included, is kept."""
    document = tomlkit.parse(text)
    if "overlay" in document:
        del document["overlay"]
    body = tomlkit.dumps(document).rstrip("\n") + "\n\n"
    tail = tomlkit.document()
    tail.add("overlay", overlay_table(base, touched))
    return (body + tomlkit.dumps(tail)).encode("utf-8")
