"""`inwards rules`: list every rule; `explain`, `shadow` and `new` for the rule roots."""

from __future__ import annotations

import difflib
import enum
import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.adapters.atomic import failure_reason
from inwards_cli.adapters.rule_roots import PROJECT_RULES_DIR
from inwards_cli.commands.common import (
    ResolvedRules,
    build_config,
    fail,
    fail_config,
    find_optional_config,
    print_rule_warnings,
    resolve_rules,
    warn,
    write_text,
)
from inwards_cli.commands.options import ConfigOption, IsolatedOption
from inwards_cli.config_file import LoadedConfig
from inwards_cli.definition_files import (
    new_definition_text,
    refuse_links_out,
    with_shadow_table,
    write_definition,
)
from inwards_core.api import prepare
from inwards_core.config.values import ConfigError, RuleSettings
from inwards_core.model.findings import RootKind
from inwards_core.reporting.escaping import printable
from inwards_core.rules.definitions import CODE_PATTERN, NAME_PATTERN, RuleDefinition, ShadowBase
from inwards_core.rules.listing import origin_data as _origin_data
from inwards_core.rules.listing import rules_document
from inwards_core.rules.lookup import did_you_mean, find_rule
from inwards_core.rules.resolver import ROOT_PRECEDENCE, owning_family
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule, select

rules_app = typer.Typer(
    name="rules",
    help="List the rules, and explain, shadow or add rule definitions.",
    no_args_is_help=False,
    add_completion=False,
    rich_markup_mode=None,
)


class TargetRoot(enum.StrEnum):
    user = "user"
    project = "project"


def _context(
    config: Path | None, isolated: bool, *, need_project: bool = False
) -> tuple[LoadedConfig | None, ResolvedRules, tuple[ActiveRule, ...]]:
    loaded = find_optional_config(config)
    if loaded is None and need_project:
        fail(
            "No pyproject.toml with a [tool.inwards] table was found here or above, so there "
            "is no project root; run this inside a project or pass --config FILE."
        )
    built = build_config(loaded) if loaded is not None else None
    resolved = resolve_rules(loaded, built, isolated=isolated)
    if built is not None:
        try:
            active = prepare(built, resolved.rule_set).rules
        except ConfigError as error:
            fail_config(error)
    else:
        errors = resolved.rule_set.errors
        if errors:
            fail(*(f"config error: {p.render()}" for p in errors))
        active = select(resolved.rule_set, RuleSettings())
    print_rule_warnings(resolved)
    return loaded, resolved, active


def _origin_cell(rule: ActiveRule) -> str:
    resolved = rule.rule
    text = resolved.origin.root.value
    if resolved.shadowed:
        text += f" (shadows {resolved.shadowed[0].origin.root.value})"
    if resolved.guidance_from is not None:
        text += " (guidance: user)"
    return text


def _definition_cell(definition: RuleDefinition) -> str:
    if definition.origin.root is RootKind.CORE:
        return f"{definition.family} {definition.family_version}"
    return definition.origin.path


@rules_app.callback(invoke_without_command=True)
def rules_command(
    context: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="Print inwards/rules@1 JSON.")] = False,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
) -> None:
    """List every rule: code, name, on or off, severity, origin root, what decided its
    state, and the definition in force (the distribution that ships it, or its file)."""
    if context.invoked_subcommand is not None:
        return
    _loaded, resolved, active = _context(config, isolated)
    if as_json:
        sys.stdout.write(
            json.dumps(rules_document(resolved.rule_set, active), indent=2, ensure_ascii=False)
            + "\n"
        )
        return
    rows: list[tuple[str, ...]] = [
        ("CODE", "NAME", "STATE", "SEVERITY", "ORIGIN", "DECIDED BY", "DEFINITION")
    ]
    for rule in active:
        decided = rule.decided_by
        if rule.severity_decided_by != "default":
            decided += f"; severity: {rule.severity_decided_by}"
        rows.append(
            (
                rule.code,
                rule.name,
                "on" if rule.enabled else "off",
                rule.severity.value,
                _origin_cell(rule),
                decided,
                _definition_cell(rule.rule.definition),
            )
        )
    rows = [tuple(map(printable, row)) for row in rows]  # widths as they will show
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        write_text("  ".join([*cells, row[-1]]).rstrip() + "\n")


def _find_chain(rule_set: RuleSet, code_or_name: str) -> tuple[str, tuple[RuleDefinition, ...]]:
    found = find_rule(rule_set, code_or_name)
    if found is None:
        hint = did_you_mean(rule_set, code_or_name)
        fail(
            f'"{code_or_name}" is not the code or name of any rule.{hint} `inwards rules` lists them.'
        )
    return found.code, found.chain


def _document_bytes(resolved: ResolvedRules, definition: RuleDefinition) -> bytes:
    for document in resolved.sources.documents():
        if document.root is definition.origin.root and document.path == definition.origin.path:
            return document.data
    raise LookupError(definition.origin.path)  # the sources gave every parsed definition


@rules_app.command("explain")
def explain_command(
    rule: Annotated[str, typer.Argument(help="A rule code or name (any letter case).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
) -> None:
    """Show the definition in force for a rule and where it comes from, the chain of
    definitions it shadows, a diff against the next lower one, and whether it is stale."""
    _loaded, resolved, active = _context(config, isolated)
    rule_set = resolved.rule_set
    code, chain = _find_chain(rule_set, rule)
    resolved_rule = rule_set.by_code(code)
    selected = next((a for a in active if a.code == code), None)
    stale = {s.path: s.message for s in rule_set.stale if s.code == code}
    diff_lines: list[str] = []
    if len(chain) > 1:
        upper, lower = chain[0], chain[1]
        diff_lines = list(
            difflib.unified_diff(
                _document_bytes(resolved, lower).decode("utf-8", "replace").splitlines(),
                _document_bytes(resolved, upper).decode("utf-8", "replace").splitlines(),
                fromfile=f"{lower.origin.root.value}: {lower.origin.path}",
                tofile=f"{upper.origin.root.value}: {upper.origin.path}",
                lineterm="",
            )
        )
    if as_json:
        document = {
            "code": code,
            "name": chain[0].name,
            "enabled": None if selected is None else selected.enabled,
            "decidedBy": None if selected is None else selected.decided_by,
            "severity": None if selected is None else selected.severity.value,
            "active": None if resolved_rule is None else _origin_data(resolved_rule.definition),
            "chain": [_origin_data(d) | {"stale": stale.get(d.origin.path)} for d in chain],
            "diff": diff_lines,
        }
        sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return
    out: list[str] = []
    head = chain[0]
    out.append(f"{code} {head.name}: {printable(head.summary)}")
    if resolved_rule is not None and selected is not None:
        definition = resolved_rule.definition
        state = "on" if selected.enabled else "off"
        out.append(
            f"  in force: the {definition.origin.root.value} definition "
            f"{definition.origin.path} (sha256 {definition.origin.sha256[:16]})"
        )
        if resolved_rule.guidance_from is not None:
            out.append(
                f"  guidance from the user definition {resolved_rule.guidance_from.origin.path} "
                '(user-rules = "guidance-only")'
            )
        out.append(
            f"  kind {definition.check}, default {definition.default}; here: {state} "
            f"({selected.decided_by}), severity {selected.severity.value} "
            f"({selected.severity_decided_by})"
        )
    out.append("")
    out.append("Definitions, highest root first:")
    for index, definition in enumerate(chain):
        role = (
            "active" if index == 0 else f"shadowed by the {chain[index - 1].origin.root.value} one"
        )
        where = definition.origin.path
        if definition.origin.root is RootKind.CORE:
            where += f" ({definition.family} {definition.family_version})"
        out.append(f"  {definition.origin.root.value:<8} {role:<28} {where}")
        if definition.shadow is not None:
            base = definition.shadow
            out.append(
                f"           copied from {base.root} {base.distribution} {base.version} "
                f"(sha256 {base.sha256[:16]})"
            )
        if definition.origin.path in stale:
            out.append(f"           STALE: {stale[definition.origin.path]}")
    if diff_lines:
        out.append("")
        out.append(f"Difference from the {chain[1].origin.root.value} definition:")
        out.extend(f"  {line}" for line in diff_lines)
    elif len(chain) == 1:
        out.append("")
        out.append("It shadows nothing: no lower root defines this code.")
    if resolved_rule is not None:
        guidance = resolved_rule.definition.guidance
        out.append("")
        out.append(f"Guidance: {printable(guidance.summary)}")
        out.extend(f"  {n}. {printable(step)}" for n, step in enumerate(guidance.steps, 1))
        if guidance.docs:
            out.append(f"  docs: {printable(guidance.docs)}")
    write_text("\n".join(out) + "\n")


def _root_directory(resolved: ResolvedRules, target: TargetRoot) -> Path:
    if target is TargetRoot.user:
        return resolved.sources.user_rules
    project = resolved.sources.project_rules
    assert project is not None  # _context(need_project=True) made sure of it
    return project


def _write(path: Path, data: bytes | None, loaded: LoadedConfig | None, to: TargetRoot) -> None:
    """Write `path`, or with `data` None only make sure it may be written. In the project
    root no folder on the way may be a link leading out of the project (the user root is
    the user's own, and may well be a link into a dotfiles repository)."""
    try:
        if to is TargetRoot.project and loaded is not None:
            refuse_links_out(loaded.project_dir, path)
        if data is not None:
            write_definition(path, data)
    except OSError as error:
        fail(f"can't write {path}: {failure_reason(error)}.")


@rules_app.command("shadow")
def shadow_command(
    rule: Annotated[str, typer.Argument(help="A rule code or name (any letter case).")],
    to: Annotated[
        TargetRoot,
        typer.Option("--to", help="The root to write the copy into.", show_default=False),
    ],
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
    print_only: Annotated[
        bool, typer.Option("--print", help="Print the copy instead of writing it.")
    ] = False,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
) -> None:
    """Copy the definition in force below a root into that root (`<root>/<CODE>.toml`),
    byte for byte, with a [shadow] table recording what it was copied from. Edit the copy:
    it replaces the lower definition as a whole."""
    target_root = RootKind(to.value)
    loaded, resolved, _active = _context(
        config, isolated, need_project=target_root is RootKind.PROJECT
    )
    code, chain = _find_chain(resolved.rule_set, rule)
    below = [d for d in chain if ROOT_PRECEDENCE[d.origin.root] < ROOT_PRECEDENCE[target_root]]
    if not below:
        fail(
            f"{code} is not defined in any root below {target_root.value}, so there is nothing "
            f"to shadow. To write a new rule, use `inwards rules new {code} --kind KIND "
            f"--to {target_root.value}`."
        )
    base_definition = below[0]
    data = _document_bytes(resolved, base_definition)
    base = ShadowBase(
        root=base_definition.origin.root.value,
        distribution=base_definition.family if base_definition.origin.root is RootKind.CORE else "",
        version=base_definition.family_version
        if base_definition.origin.root is RootKind.CORE
        else "",
        sha256=base_definition.origin.sha256,
        path=base_definition.origin.path,
    )
    copy = with_shadow_table(data, base)
    if print_only:
        sys.stdout.write(copy.decode("utf-8"))
        return
    directory = _root_directory(resolved, to)
    path = directory / f"{code}.toml"
    _write(path, None, loaded, to)  # before looking in the folder or deleting from it
    existing = [
        p
        for p in (directory.glob("*.toml") if directory.is_dir() else ())
        if p.stem.upper() == code
    ]
    if existing and not force:
        fail(f"{existing[0]} already exists; pass --force to overwrite it.")
    for old in existing:
        if old.name != path.name:
            old.unlink()  # one file per code: a differently cased old copy goes
    _write(path, copy, loaded, to)
    above = [d for d in chain if ROOT_PRECEDENCE[d.origin.root] > ROOT_PRECEDENCE[target_root]]
    if above:
        warn(
            f"the {above[0].origin.root.value} definition {above[0].origin.path} "
            f"shadows {code} above this root, so the new copy has no effect here."
        )
    sys.stdout.write(f"{path}\n")


@rules_app.command("new")
def new_command(
    code: Annotated[str, typer.Argument(help="The new rule's code, e.g. ACME001.")],
    kind: Annotated[
        str, typer.Option("--kind", help="The check kind, e.g. inw.forbidden.", show_default=False)
    ],
    to: Annotated[
        TargetRoot, typer.Option("--to", help="The root to write it into.", show_default=False)
    ],
    name: Annotated[
        str | None,
        typer.Option(
            "--name", help="The rule's name (kebab-case); the code in lower case by default."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
    print_only: Annotated[
        bool, typer.Option("--print", help="Print the template instead of writing it.")
    ] = False,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
) -> None:
    """Write a commented template definition for a new rule of a check kind."""
    target_root = RootKind(to.value)
    code = code.upper()
    if not CODE_PATTERN.match(code):
        fail(f'"{code}" is not a rule code: 2-6 capital letters and 3 digits, e.g. ACME001.')
    rule_name = (name or code.lower()).strip()
    if not NAME_PATTERN.match(rule_name):
        fail(f'"{rule_name}" is not a rule name: lower-case words joined by "-".')
    loaded, resolved, _active = _context(
        config, isolated, need_project=target_root is RootKind.PROJECT
    )
    rule_set = resolved.rule_set
    owner = owning_family(code, rule_set.families)
    if owner is not None:
        fail(
            f"The prefix {owner.prefix} belongs to the installed family {owner.distribution} "
            f"{owner.version}; give a new rule a prefix of your own (to change one of its "
            f"rules, use `inwards rules shadow`)."
        )
    if code in rule_set.chains:
        fail(
            f"{code} already exists; use `inwards rules shadow {code} --to {to.value}` to change it."
        )
    taken = next((c for c, chain in rule_set.chains.items() if chain[0].name == rule_name), None)
    if taken is not None:
        fail(f'"{rule_name}" is already the name of {taken}; pass --name to choose another.')
    found = next(((f, k) for f in rule_set.families for k in f.kinds if k.id == kind), None)
    if found is None:
        known = ", ".join(sorted(k.id for f in rule_set.families for k in f.kinds))
        fail(f'"{kind}" is not a check kind of any installed family. Known kinds: {known}.')
    family, check_kind = found
    docs = f"{family.docs_base}" if family.docs_base else ""
    text = new_definition_text(code, rule_name, check_kind, docs)
    if print_only:
        sys.stdout.write(text)
        return
    directory = _root_directory(resolved, to)
    path = directory / f"{code}.toml"
    _write(path, None, loaded, to)
    if os.path.lexists(path) and not force:
        fail(f"{path} already exists; pass --force to overwrite it.")
    _write(path, text.encode("utf-8"), loaded, to)
    sys.stdout.write(f"{path}\n")


__all__ = ["PROJECT_RULES_DIR", "rules_app"]
