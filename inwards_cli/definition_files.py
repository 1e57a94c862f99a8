"""Writing rule-definition files: shadows copied byte for byte, and new-rule templates.

tomlkit edits the copy (it keeps every comment and the layout of what it doesn't touch);
files are written atomically, so a definition is never left half-written, and never
through a symbolic link that leaves the project.
"""

from __future__ import annotations

import os
import typing
from pathlib import Path
from typing import Any

import attrs
import tomlkit

from inwards_cli.adapters.atomic import RefusedTargetError, write_user_file
from inwards_core.rules.definitions import SHADOW_KEYS, ShadowBase
from inwards_core.rules.kinds import CheckKind
from inwards_core.rules.options import (
    OptionsError,
    is_required,
    option_name,
    options_to_data,
    parse_options,
    table_type,
)
from inwards_core.rules.scaffold import (
    FIX_STEP,
    FIX_SUMMARY,
    OPTION_PLACEHOLDER,
    RULE_SUMMARY,
    WORD_PLACEHOLDER,
)

# The first line of the header a shipped definition starts with, and of the one a shadow
# copy gets in its place: the header of the copied file says what it is, so it is rewritten.
_HEADERS = ("# Core definition of ", "# Shadow copy of ")


def with_shadow_table(data: bytes, base: ShadowBase, *, code: str, to: str) -> bytes:
    """`data` (a definition's bytes) with a `[shadow]` table recording `base` at the end;
    an earlier `[shadow]` table (copying a copy) is replaced. The header comment of a
    shipped definition or of an earlier copy is replaced by one saying where this copy
    comes from and what it overrides; everything else is kept."""
    text = data.decode("utf-8")
    document = tomlkit.parse(shadow_header(base, code, to) + _without_header(text))
    if "shadow" in document:
        del document["shadow"]
    table = tomlkit.table()
    table.comment("written by `inwards rules shadow`: the definition this file was copied from")
    for key in SHADOW_KEYS:
        table.add(key, getattr(base, key))
    text = tomlkit.dumps(document)
    if not text.endswith("\n"):
        text += "\n"
    shadow_document = tomlkit.document()
    shadow_document.add("shadow", table)
    return (text + "\n" + tomlkit.dumps(shadow_document)).encode("utf-8")


def shadow_header(base: ShadowBase, code: str, to: str) -> str:
    """The comment a shadow copy starts with, `to` being the root it is written into."""
    source = copied_from(base.root, base.distribution, base.version, base.path)
    scope = written_for(to)
    return (
        f"# Shadow copy of {code}, made by `inwards rules shadow {code} --to {to}`\n"
        f"# from {source}.\n"
        f"# It overrides that definition {scope}; edit it as you need.\n"
        f"# The [shadow] table at the end records what it was copied from: `inwards status`\n"
        f"# says when that changes, and `inwards rules explain {code}` compares the two.\n"
    )


def copied_from(root: str, distribution: str, version: str, path: str) -> str:
    """The definition a shadow copy or an overlay is written over, as its header names it."""
    if root == "core":
        return f"the core definition shipped with {distribution} {version}".rstrip()
    return f"the {root} definition {path}"


def written_for(to: str) -> str:
    """Whom a file written into root `to` changes the rule for, as its header says."""
    return "in this project" if to == "project" else "for you, in every project"


def _without_header(text: str) -> str:
    """`text` without the header comment block a shipped definition or a copy starts with."""
    lines = text.splitlines(keepends=True)
    if not lines or not lines[0].startswith(_HEADERS):
        return text
    end = 0
    while end < len(lines) and lines[end].startswith("#"):
        end += 1
    return "".join(lines[end:])


def write_definition(path: Path, data: bytes) -> None:
    """See `write_user_file`: never through a link to a file. Call `refuse_links_out`
    first for a file in the project root."""
    write_user_file(path, data)


def refuse_links_out(project_dir: Path, target: Path) -> None:
    """Raise `RefusedTargetError` when a folder between `project_dir` and `target` (or the
    target) is a symbolic link leading outside the project: a pull request that commits
    `.inwards -> ~` must not make `rules shadow --to project` write or delete files there."""
    try:
        parts = target.relative_to(project_dir).parts
    except ValueError:
        return
    inside = Path(os.path.realpath(project_dir))
    current = project_dir
    for part in parts:
        current = current / part
        if not current.is_symlink():
            continue
        leads_to = Path(os.path.realpath(current))
        if not leads_to.is_relative_to(inside):
            raise RefusedTargetError(
                current,
                f"{current} is a symbolic link to {leads_to}, outside the project at "
                f"{inside}; nothing is written through it (remove the link)",
            )


def _placeholder(tp: Any, count: int = 1) -> Any:
    """A value of type `tp` that says what to change; `count` items for a list."""
    if tp is bool:
        return False
    if tp is int:
        return 0
    if tp is str:
        return WORD_PLACEHOLDER
    item_type = table_type(tp)
    if item_type is not None:
        return [_placeholder_table(item_type)]
    if typing.get_origin(tp) is tuple:
        if count == 1:
            return [OPTION_PLACEHOLDER]
        return [f"{OPTION_PLACEHOLDER}{number}" for number in range(1, count + 1)]
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    return _placeholder(args[0], count) if args else WORD_PLACEHOLDER


def _placeholder_table(item_type: type[Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(item_type)
    return {
        option_name(f.name): _placeholder(hints.get(f.name, str))
        for f in attrs.fields(item_type)
        if is_required(f)
    }


# A kind's check may want more than one item (inw.layers: at least two layers).
_MOST_PLACEHOLDER_ITEMS = 4


def required_placeholders(kind: CheckKind) -> dict[str, Any]:
    """Placeholders for the required options of `kind` that its options class accepts, so a
    fresh template resolves (its rule stays off until they are replaced): lists grow from
    one item to a few until the kind's checks take them. Empty when nothing is required."""
    hints = typing.get_type_hints(kind.options_type)
    required = [f for f in attrs.fields(kind.options_type) if is_required(f)]
    values: dict[str, Any] = {}
    for count in range(1, _MOST_PLACEHOLDER_ITEMS + 1):
        values = {
            option_name(f.name): _placeholder(hints.get(f.name, str), count) for f in required
        }
        try:
            parse_options(kind.options_type, values, "options")
        except OptionsError:
            continue
        return values
    return values  # the kind accepts no placeholder: `check` names what to fill in


def _toml_text(value: Any) -> str:
    """A default as the TOML it would be written as (false, [], "x"), or "not set"."""
    if value is None:
        return "not set"
    if isinstance(value, tuple):
        value = [options_to_data(v) if attrs.has(type(v)) else v for v in value]
    return str(tomlkit.item(value).as_string())


def _describe(tp: Any) -> str:
    if typing.get_origin(tp) is tuple:
        return "list of strings"
    if typing.get_origin(tp) is typing.Literal:
        return " or ".join(str(a).lower() for a in typing.get_args(tp))
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    if args:
        return " or ".join(_describe(a) for a in args)
    return getattr(tp, "__name__", str(tp))


def new_definition_text(code: str, name: str, kind: CheckKind, docs: str) -> str:
    """A commented template for a new rule of `kind`; it resolves as written, so the
    rule shows up in `inwards rules` at once, and every placeholder says what to change."""
    hints = typing.get_type_hints(kind.options_type)
    document = tomlkit.document()
    document.add(tomlkit.comment(f"{code}: a rule definition for inwards (one rule per file;"))
    document.add(tomlkit.comment("the file name is the code). Written by `inwards rules new`."))
    document.add(tomlkit.comment(f"Check kind {kind.id}: {kind.summary}"))
    if docs:
        document.add(tomlkit.comment(f"Options and examples of the kind: {docs}"))
    document.add(tomlkit.nl())

    def add(key: str, value: Any, comment: str = "") -> None:
        item = tomlkit.item(value)
        if comment:
            item.comment(comment)
        document.add(key, item)

    add("code", code)
    add("name", name, "kebab-case, unique among all rules")
    add("summary", RULE_SUMMARY)
    add("check", kind.id)
    placeholders = required_placeholders(kind)
    if placeholders:
        # Placeholders name no module: the rule would check nothing (a warning on every run)
        # until they are replaced, so it starts off and says how to turn it on.
        document.add(tomlkit.comment("Off until the required options below name your code:"))
        document.add(tomlkit.comment('then set default = "on" (or select the rule in'))
        document.add(tomlkit.comment("[tool.inwards.rules] of pyproject.toml)."))
        add("default", "opt-in", '"on" | "opt-in"')
    else:
        add("default", "on", '"on" | "opt-in"')
    add("severity", "error", '"error" | "warning"')
    add("suppressible", True, f"may `# inwards: ignore[{code}]` hide a finding?")
    options = tomlkit.table()
    for field in attrs.fields(kind.options_type):
        tp = hints.get(field.name, str)
        key = option_name(field.name)
        default_value = field.default
        if isinstance(default_value, attrs.Factory):  # type: ignore[arg-type]
            default_value = default_value.factory()
        if key in placeholders:
            options.add(
                tomlkit.comment(f"{key} ({_describe(tp)}, required: replace the placeholder)")
            )
            options.add(key, placeholders[key])
        else:
            options.add(
                tomlkit.comment(f"{key} ({_describe(tp)}), default: {_toml_text(default_value)}")
            )
    document.add(tomlkit.nl())
    document.add("options", options)
    guidance = tomlkit.table()
    guidance.add(tomlkit.comment("Printed under every finding, for people and coding agents."))
    # Only the names the kind declares may be used, so the template names them.
    names = ", ".join(f"{{{name}}}" for name in sorted(kind.guidance_names()))
    guidance.add(
        tomlkit.comment(f"Filled in from each finding: {names}; {{{{ or }}}} writes a brace.")
    )
    guidance.add("summary", FIX_SUMMARY)
    steps = tomlkit.array()
    if "statement" in kind.guidance_params:
        steps.append("Delete `{statement}`.")
    else:
        steps.append("Fix what the finding says in `{file}`.")
    steps.append(FIX_STEP)
    steps.multiline(True)
    guidance.add("steps", steps)
    guidance.add("docs", "")
    document.add(tomlkit.nl())
    document.add("guidance", guidance)
    return tomlkit.dumps(document)


def keys_to_fill_in(text: str) -> list[str]:
    """The keys of a new template that still hold a placeholder, each with its line, in
    file order: `summary (line 7)`."""
    from inwards_core.config.nesting import load_toml
    from inwards_core.config.positions import TomlPositions
    from inwards_core.rules.scaffold import option_placeholder_keys, text_placeholder_keys

    table = load_toml(text)
    keys = [key for key, _ in text_placeholder_keys(table)] + list(option_placeholder_keys(table))
    positions = TomlPositions(text)
    located = [(positions.locate(key), key) for key in keys]
    located.sort(key=lambda item: item[0] or (0, 0))
    return [f"{key} (line {where[0]})" if where else key for where, key in located]
