"""`inwards status`: the rule roots, what each contributes and shadows, and what is wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from inwards_cli.commands.console import write_text
from inwards_cli.commands.loading import build_config, find_optional_config, resolve_rules
from inwards_cli.commands.options import ConfigOption, DisablePluginOption, IsolatedOption
from inwards_core.config.values import RuleSettings
from inwards_core.model.findings import RootKind
from inwards_core.ports import RootState
from inwards_core.reporting import plural
from inwards_core.rules.selection import select
from inwards_core.rules.status import (
    RootStatus,
    RulesStatus,
    Totals,
    project_status,
    status_json,
)
from inwards_core.version import inwards_version


def status_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print inwards/status@1 JSON.")] = False,
    isolated: IsolatedOption = False,
    disable_plugin: DisablePluginOption = None,
    config: ConfigOption = None,
) -> None:
    """Show the rule roots (core, user, project): where each is, what it defines and
    shadows, stale shadows, problems, effective totals, families and digests.

    Works outside a project too (then only core and user roots count). Exit status 0, or 2
    when the configuration can't be read.
    """
    status, settings_problems, has_project = _status_here(config, isolated, disable_plugin)
    if as_json:
        sys.stdout.write(
            json.dumps(status_json(status, settings_problems), indent=2, ensure_ascii=False) + "\n"
        )
        return
    write_text(render_status(status, settings_problems, has_project=has_project))


def _status_here(
    config: Path | None, isolated: bool, disable_plugin: list[str] | None
) -> tuple[RulesStatus, list[str], bool]:
    loaded = find_optional_config(config)
    built = build_config(loaded) if loaded is not None else None
    resolved = resolve_rules(loaded, built, isolated=isolated, disabled=disable_plugin)
    rule_set = resolved.rule_set
    active = select(rule_set, built.rules if built is not None else RuleSettings())
    status, settings_problems = project_status(
        rule_set,
        resolved.sources,
        active,
        built,
        previous_digests=resolved.manifest.digests if resolved.manifest is not None else None,
        inwards_version=inwards_version(),
    )
    return status, settings_problems, loaded is not None


def _shadow_summary(root: RootStatus) -> str:
    parts = []
    for verb, listed in (("shadowing", root.shadowing), ("overlaying", root.overlaying)):
        for lower, codes in listed:
            noun = f"a {lower.value} rule" if len(codes) == 1 else f"{lower.value} rules"
            parts.append(f"{len(codes)} {verb} {noun} ({', '.join(codes)})")
    if root.new:
        parts.append(f"{len(root.new)} new ({', '.join(root.new)})")
    head = plural(root.definitions, "rule")
    return f"{head}: {', '.join(parts)}" if parts else head


def _state(root: RootStatus) -> str:
    if root.state is RootState.IGNORED:
        return f"ignored ({root.note})"
    return str(root.state.value)


def render_status(status: RulesStatus, settings_problems: list[str], *, has_project: bool) -> str:
    out = [f"inwards {inwards_version()}", "", "Rule roots:", *_root_lines(status), ""]
    out += _policy_lines(status, has_project=has_project)
    out.append(_effective_line(status.totals))
    if status.stale:
        out.append("")
        out.append(f"Stale shadows ({len(status.stale)}):")
        out.extend(f"  {s.root.value:<8} {s.path}: {s.message}" for s in status.stale)
    out += _collision_lines(status)
    out += _conflict_lines(status)
    out += _problem_lines(status, settings_problems)
    out.append("")
    out.append("Families:")
    out.extend(
        f"  {f.prefix:<6} {f.distribution} {f.version}: {plural(f.kinds, 'check kind')}, "
        f"{plural(f.rules, 'core rule')}"
        for f in status.families
    )
    out.append("")
    out.append("Digests (since the last check):")
    for root in status.roots:
        change = {None: "no earlier check", True: "changed", False: "unchanged"}[root.changed]
        out.append(f"  {root.root.value:<8} {root.digest[:16]}  {change}")
    out.append(f"Rule-set fingerprint: {status.fingerprint}")
    return "\n".join(out) + "\n"


def _root_lines(status: RulesStatus) -> list[str]:
    """A line per root (core names its families), then what a found root defines, its
    note and its warning, indented below it."""
    out = []
    for root in status.roots:
        location = root.location or "-"
        if root.root is RootKind.CORE:
            location = ", ".join(
                f"{f.distribution} {f.version} ({f.prefix}: {plural(f.rules, 'rule')})"
                for f in status.families
            )
        elif root.root is RootKind.ORG and status.rule_packs:
            location = _org_location(root.location, status)
        out.append(f"  {root.root.value:<8} {_state(root):<10} {location}")
        if root.state is RootState.FOUND and root.root is not RootKind.CORE:
            out.append(f"           {_shadow_summary(root)}")
        if root.note and root.state is not RootState.IGNORED and root.root is not RootKind.CORE:
            out.append(f"           ({root.note})")
        if root.warning:
            out.append(f"           warning: {root.warning}")
    return out


def _org_location(location: str, status: RulesStatus) -> str:
    """The org root's packs as core's families are shown, then the INWARDS_ORG_RULES_DIR
    directory (the other folder of `location`, which lists them all)."""
    packs = [
        f"{p.pack.distribution} {p.pack.version} ({p.pack.name}: {plural(p.rules, 'rule')})"
        for p in status.rule_packs
    ]
    located = {p.pack.location for p in status.rule_packs}
    return ", ".join(packs + [d for d in location.split(", ") if d and d not in located])


def _policy_lines(status: RulesStatus, *, has_project: bool) -> list[str]:
    out = [
        f"User-rules policy: {status.user_rules}"
        + (" (the project's [tool.inwards] user-rules)" if has_project else " (the default)")
    ]
    if status.user_in_effect:
        out.append("User definitions in effect:")
        out.extend(f"  {u.code} ({u.effect}): {u.path}" for u in status.user_in_effect)
    return out


def _effective_line(totals: Totals) -> str:
    line = (
        f"Effective: {totals.active} active, {totals.shadowed} shadowed, "
        f"{len(totals.opt_in_off)} opt-in and off, "
        f"{len(totals.disabled_by_config)} disabled by config"
    )
    if totals.disabled_by_config:
        line += f" ({', '.join(totals.disabled_by_config)})"
    if totals.ignored_by_policy:
        line += f", {len(totals.ignored_by_policy)} user definitions ignored by policy ({', '.join(totals.ignored_by_policy)})"
    return line + "."


_POLICY_EFFECTS = {
    "warn": "the project's definition is in force, with a warning",
    "error": "each is a configuration error: check and rules stop (exit 2)",
    "ignore": "the project's definition is in force, silently",
}


def _collision_lines(status: RulesStatus) -> list[str]:
    """Every project definition over a user one with another intent: both files, how
    they differ, and what the project's on-collision policy does with it."""
    if not status.collisions:
        return []
    policy = status.collisions[0].policy
    out = [
        "",
        f'Collisions ({len(status.collisions)}; on-collision = "{policy}": '
        f"{_POLICY_EFFECTS[policy]}):",
    ]
    for collision in status.collisions:
        out.append(f"  {collision.code:<8} project {collision.project.path}")
        out.append(f"  {'':<8} user    {collision.user.path}")
        out.extend(f"  {'':<8} {detail}" for detail in collision.details)
    return out


def _problem_lines(status: RulesStatus, settings_problems: list[str]) -> list[str]:
    """The roots' problems, then the configuration's; one in the user or org root is a
    warning."""
    problems = [(r.root.value, p) for r in status.roots for p in r.problems]
    problems += [("config", p) for p in settings_problems]
    if not problems:
        return []
    out = ["", f"Problems ({len(problems)}):"]
    for root_name, problem in problems:
        warning = root_name in (RootKind.USER.value, RootKind.ORG.value)
        effect = " (warning: the lower definition stays in force)" if warning else ""
        out.append(f"  {root_name:<8} {problem}{effect}")
    return out


def _conflict_lines(status: RulesStatus) -> list[str]:
    """Each field an overlay sets or unsets that upstream changed since it was written."""
    if not status.conflicts:
        return []
    out = [
        "",
        f"Overlay conflicts ({len(status.conflicts)}; `inwards rules explain CODE` shows each):",
    ]
    out.extend(f"  {c.root.value:<8} {c.render()}" for c in status.conflicts)
    return out
