"""`inwards rules shadow` and `inwards rules new`: write a rule definition into the user or
the project root (a copy of the one in force below it, or a template for a new rule)."""

from __future__ import annotations

import enum
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.adapters.atomic import failure_reason
from inwards_cli.commands.console import fail, warn
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption
from inwards_cli.commands.rules import RulesHere, document_bytes, find_chain, rules_here
from inwards_cli.commands.rules_overlay import flattened_bytes, overlay_bytes, refreshed_overlay
from inwards_cli.definition_files import (
    keys_to_fill_in,
    new_definition_text,
    refuse_links_out,
    with_shadow_table,
    write_definition,
)
from inwards_core.model.findings import RootKind
from inwards_core.rules.definitions import CODE_PATTERN, NAME_PATTERN, RuleDefinition, ShadowBase
from inwards_core.rules.kinds import CheckKind, Family
from inwards_core.rules.listing import shipped
from inwards_core.rules.resolver import ROOT_PRECEDENCE, owning_family
from inwards_core.rules.rule_set import RuleSet


class TargetRoot(enum.StrEnum):
    user = "user"
    project = "project"


ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")]


def shadow_command(
    rule: Annotated[
        str, typer.Argument(metavar="RULE", help="A rule code or name (any letter case).")
    ],
    to: Annotated[
        TargetRoot,
        typer.Option(
            "--to",
            help="The root to write the copy into.",
            show_default=False,
            metavar="user|project",
        ),
    ],
    force: ForceOption = False,
    print_only: Annotated[
        bool, typer.Option("--print", help="Print the copy instead of writing it.")
    ] = False,
    overlay: Annotated[
        bool,
        typer.Option(
            "--overlay",
            help="Write an overlay (only the fields given by --set and --unset) instead of "
            "a copy of the whole definition.",
        ),
    ] = False,
    set_fields: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            metavar="KEY=VALUE",
            help="With --overlay: set a field (severity=warning, "
            'options.forbidden=["requests"]); VALUE is TOML, or text. Repeatable.',
            show_default=False,
        ),
    ] = None,
    unset_fields: Annotated[
        list[str] | None,
        typer.Option(
            "--unset",
            metavar="KEY",
            help="With --overlay: remove a field (guidance.docs). Repeatable.",
            show_default=False,
        ),
    ] = None,
    refresh: Annotated[
        bool,
        typer.Option(
            "--refresh",
            help="With --overlay: record the overlay's base again (its [overlay] table) "
            "against the definition below it now, after resolving its conflicts.",
        ),
    ] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """Copy the definition in force below a root into that root (`<root>/<CODE>.toml`):
    its text with a header saying where the copy comes from, and a [shadow] table recording
    what it was copied from. Edit the copy: it replaces the lower definition as a whole.
    With --overlay, write only the fields --set and --unset change: the rest keeps
    following the definition below as it changes."""
    target_root = RootKind(to.value)
    if not overlay and (set_fields or unset_fields or refresh):
        fail("--set, --unset and --refresh write an overlay: add --overlay.")
    if refresh and (set_fields or unset_fields):
        fail("--refresh keeps the overlay's fields as they are: edit the file to change them.")
    here = rules_here(
        config,
        isolated,
        need_project=target_root is RootKind.PROJECT,
        disabled=disable_plugin,
    )
    code, chain = find_chain(here.resolved.rule_set, rule)
    below = [d for d in chain if ROOT_PRECEDENCE[d.origin.root] < ROOT_PRECEDENCE[target_root]]
    if not below:
        fail(
            f"{code} is not defined in any root below {target_root.value}, so there is nothing "
            f"to shadow. To write a new rule, use `inwards rules new {code} --kind KIND "
            f"--to {target_root.value}`."
        )
    if refresh:
        _refresh(here, code, chain, to, print_only=print_only)
        return
    directory = _root_directory(here, to)
    path = directory / f"{code}.toml"
    if overlay:
        copy = overlay_bytes(
            here,
            code,
            below[0],
            path,
            to=target_root,
            set_arguments=set_fields or (),
            unset_arguments=unset_fields or (),
        )
    else:
        copy = _whole_copy(here, code, below[0], to)
    if print_only:
        sys.stdout.write(copy.decode("utf-8"))
        return
    _check_writable(path, here, to)  # before looking in the folder or deleting from it
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
    _write(path, copy, here, to)
    above = [d for d in chain if ROOT_PRECEDENCE[d.origin.root] > ROOT_PRECEDENCE[target_root]]
    if above:
        warn(
            f"the {above[0].origin.root.value} definition {above[0].origin.path} "
            f"shadows {code} above this root, so the new copy has no effect here."
        )
    sys.stdout.write(f"{path}\n")


def new_command(
    code: Annotated[str, typer.Argument(metavar="CODE", help="The new rule's code, e.g. ACME001.")],
    kind: Annotated[
        str,
        typer.Option(
            "--kind", help="The check kind, e.g. inw.forbidden.", show_default=False, metavar="KIND"
        ),
    ],
    to: Annotated[
        TargetRoot,
        typer.Option(
            "--to", help="The root to write it into.", show_default=False, metavar="user|project"
        ),
    ],
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            help="The rule's name (kebab-case); the code in lower case by default.",
            metavar="NAME",
        ),
    ] = None,
    force: ForceOption = False,
    print_only: Annotated[
        bool, typer.Option("--print", help="Print the template instead of writing it.")
    ] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
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
    here = rules_here(
        config,
        isolated,
        need_project=target_root is RootKind.PROJECT,
        disabled=disable_plugin,
    )
    rule_set = here.resolved.rule_set
    _refuse_taken(code, rule_name, to, rule_set)
    family, check_kind = _kind_named(kind, rule_set.families)
    docs = f"{family.docs_base}" if family.docs_base else ""
    text = new_definition_text(code, rule_name, check_kind, docs)
    if print_only:
        sys.stdout.write(text)
        _say_what_to_fill_in(text)
        return
    path = _root_directory(here, to) / f"{code}.toml"
    _check_writable(path, here, to)
    if os.path.lexists(path) and not force:
        fail(f"{path} already exists; pass --force to overwrite it.")
    _write(path, text.encode("utf-8"), here, to)
    sys.stdout.write(f"{path}\n")
    _say_what_to_fill_in(text)


def _say_what_to_fill_in(text: str) -> None:
    """On stderr (stdout holds the path, or the template with --print): the keys whose
    placeholders the author replaces; until then each run warns about the texts left."""
    keys = keys_to_fill_in(text)
    if keys:
        sys.stderr.write(
            f"Fill in what the template leaves to you: {', '.join(keys)} (until then, each "
            "run warns about the texts left in).\n"
        )


def _refresh(
    here: RulesHere,
    code: str,
    chain: tuple[RuleDefinition, ...],
    to: TargetRoot,
    *,
    print_only: bool,
) -> None:
    path, data = refreshed_overlay(here, code, chain, RootKind(to.value))
    if print_only:
        sys.stdout.write(data.decode("utf-8"))
        return
    _write(path.absolute(), data, here, to)
    sys.stdout.write(f"{path}\n")


def _whole_copy(here: RulesHere, code: str, base: RuleDefinition, to: TargetRoot) -> bytes:
    """A whole-file copy of `base` with its [shadow] table; an overlay is copied as the
    merged definition it makes (its own bytes hold only the fields it changes)."""
    merged = base.overlay is not None
    data = flattened_bytes(base) if merged else document_bytes(here.resolved, base)
    return with_shadow_table(data, _shadow_base(base), code=code, to=to.value)


def _shadow_base(definition: RuleDefinition) -> ShadowBase:
    """What a copy of `definition` records in its [shadow] table: for a core or org one,
    the distribution (a family's, a rule pack's) and version that ship it. An overlay is
    recorded by its merged table's digest: its own file's bytes would not change when a
    definition below it does."""
    by_distribution = shipped(definition)
    merged = definition.overlay is not None
    return ShadowBase(
        root=definition.origin.root.value,
        distribution=definition.family if by_distribution else "",
        version=definition.family_version if by_distribution else "",
        sha256=definition.table_sha256 if merged else definition.origin.sha256,
        path=definition.origin.path,
    )


def _refuse_taken(code: str, rule_name: str, to: TargetRoot, rule_set: RuleSet) -> None:
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


def _kind_named(kind: str, families: tuple[Family, ...]) -> tuple[Family, CheckKind]:
    found = next(((f, k) for f in families for k in f.kinds if k.id == kind), None)
    if found is None:
        known = ", ".join(sorted(k.id for f in families for k in f.kinds))
        fail(f'"{kind}" is not a check kind of any installed family. Known kinds: {known}.')
    return found


def _root_directory(here: RulesHere, target: TargetRoot) -> Path:
    if target is TargetRoot.user:
        return here.resolved.sources.user_rules
    project = here.resolved.sources.project_rules
    assert project is not None  # rules_here(need_project=True) made sure of it
    return project


def _check_writable(path: Path, here: RulesHere, to: TargetRoot) -> None:
    """In the project root no folder on the way may be a link leading out of the project
    (the user root is the user's own, and may well be a link into a dotfiles repository)."""
    try:
        if to is TargetRoot.project and here.loaded is not None:
            refuse_links_out(here.loaded.project_dir, path)
    except OSError as error:
        fail(f"can't write {path}: {failure_reason(error)}.")


def _write(path: Path, data: bytes, here: RulesHere, to: TargetRoot) -> None:
    _check_writable(path, here, to)
    try:
        write_definition(path, data)
    except OSError as error:
        fail(f"can't write {path}: {failure_reason(error)}.")
