"""`inwards init --style auto`: print a configuration guessed from the package names, with
the reasons and the findings it would give today; write it only with --write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inwards_cli.commands import init_project as project
from inwards_cli.commands.console import fail, warn, write_text
from inwards_cli.commands.init_steps import (
    load_pyproject,
    new_pyproject,
    resolve_package,
    save,
    show_dry_run,
    validate,
)
from inwards_core.config.values import ConfigError
from inwards_core.presets import PresetTarget
from inwards_core.presets.auto import AutoProposal, propose
from inwards_core.reporting.escaping import printable
from inwards_core.version import VERSION


def run_auto(
    project_dir: Path, package: str | None, *, write: bool, dry_run: bool, force: bool
) -> None:
    from inwards_cli.pyproject_edit import render_table

    # Without --write nothing is written, so the proposal needs no pyproject.toml to go into.
    path, existing = load_pyproject(project_dir, create=not write)
    text = existing or ""
    name = resolve_package(existing, package)
    root = project.root_for(project_dir, name)
    modules = project.existing_modules(project_dir, root, name)
    if len(modules) <= 1:
        shown = f"{root}/{name}" if root != "." else name
        fail(
            f"error: {shown}/ holds no packages, so there are no names to guess layers from; "
            "pick a style with --style (see --list-styles), or pass --package NAME."
        )
    proposal = propose(modules, name)
    target = PresetTarget(package=name, root=root, version=VERSION, modules=modules)
    table = proposal.table(target)
    if not table.get("layers"):
        fail(
            f"error: no package below {name} has a name auto knows (domain, services, api, "
            "...); pick a style with --style (see --list-styles)."
        )
    validate(table)
    comment = (
        f"Proposed by `inwards init --style auto` (closest preset: {proposal.preset}).\n"
        "Review the layers: names were matched, not imports."
    )
    new = new_pyproject(text, table, comment, force=force)
    # A package's name is a directory's: a line break in it must not start a line of its own.
    write_text("\n".join(map(printable, _proposal_lines(proposal, root))) + "\n\n")
    write_text(render_table(table, comment) + "\n")
    _print_findings(project_dir, new, table)
    if dry_run:
        show_dry_run(path, text, new, render_table(table, comment))
        write_text("Nothing written (--dry-run).\n")
    elif write:
        save(path, new)
        write_text(f"Wrote [tool.inwards] (auto, closest to {proposal.preset}) in {path.name}.\n")
    else:
        write_text("Nothing written: run `inwards init --style auto --write` to write it.\n")


def _proposal_lines(proposal: AutoProposal, root: str) -> list[str]:
    lines = [f"Packages below {proposal.package} (root {root!r}):"]
    width = max(
        (len(item) for item in (*proposal.unassigned, *(a.module for a in proposal.assignments))),
        default=0,
    )
    for assignment in sorted(proposal.assignments, key=lambda item: item.module):
        lines.append(
            f"  {assignment.module.ljust(width)}  -> {assignment.role}: {assignment.reason}"
        )
    for module in proposal.unassigned:
        lines.append(f"  {module.ljust(width)}  -> no layer: no name auto knows (add it by hand)")
    scores = ", ".join(f"{style} {score}" for style, score in proposal.scores)
    tied = [style for style, score in proposal.scores if score == proposal.scores[0][1]]
    tie = f"; a tie, broken in the order {', '.join(tied)}" if len(tied) > 1 else ""
    lines.append(f"Closest preset: {proposal.preset} (scores: {scores}{tie})")
    for signal in proposal.signals:
        lines.append(f"  seen: {signal}")
    return lines


def _print_findings(project_dir: Path, text: str, table: dict[str, Any]) -> None:
    try:
        report = project.check_table(project_dir, text, table)
    except ConfigError as error:
        warn(f"the proposal could not be checked: {error.problems[0].render()}")
        return
    lines = project.findings_per_rule(report)
    errors, warnings = len(report.errors), len(report.warnings)
    write_text(
        f"With this table, `inwards check` finds today: {errors} "
        f"error{'' if errors == 1 else 's'} and {warnings} warning{'' if warnings == 1 else 's'}"
        f" in {report.files_checked} files{':' if lines else '.'}\n"
    )
    if lines:
        write_text("\n".join(lines) + "\n")
    innermost = table["layers"][0] if isinstance(table.get("layers"), list) else None
    kernel = isinstance(innermost, dict) and innermost.get("name") == "kernel"
    if kernel and any(item.code == "INW005" for item in report.findings):
        write_text(
            "  (INW005: the innermost layer, kernel, refuses I/O libraries by default; give it "
            "`deny-libraries = []` if your utilities may use them.)\n"
        )
