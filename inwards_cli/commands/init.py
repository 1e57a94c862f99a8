"""`inwards init`: write a starting `[tool.inwards]` into pyproject.toml from a preset (and,
with --scaffold, a small passing example package), or guess one from the package names
(`--style auto`). Exit status: 0 done (or printed), 2 usage: no style and no terminal to
ask on, a table already there without --force, no pyproject.toml, a scaffold file that
exists, a package name that can't be one."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from inwards_cli.commands.console import fail, warn, write_text

if TYPE_CHECKING:
    from inwards_core.config.values import Config
    from inwards_core.presets import Preset

# Written out for --help (the presets are imported only when init runs); a test holds it
# equal to inwards_core.presets.STYLE_NAMES.
STYLES_HELP = "layered, clean, hexagonal, vertical-slices, bounded-contexts, django, fastapi, auto"
_FLAGS = (
    "--style NAME, --list-styles, --package NAME, --scaffold, --dry-run, --force, --write, "
    "--agent NAME, --shared, --launcher CMD"
)
AGENTS_HELP = "claude, agents-md, aider, codex, opencode"


def init_command(
    style: Annotated[
        str | None,
        typer.Option(
            "--style",
            help=f"The architecture to start from: {STYLES_HELP}. "
            "`auto` guesses from the package names and writes only with --write.",
            show_default=False,
            metavar="STYLE",
        ),
    ] = None,
    list_styles: Annotated[
        bool, typer.Option("--list-styles", help="List the styles and what each writes.")
    ] = False,
    package: Annotated[
        str | None,
        typer.Option(
            "--package",
            help="The top-level package (default: [project].name, lower case, - and . as _).",
            show_default=False,
            metavar="NAME",
        ),
    ] = None,
    scaffold: Annotated[
        bool,
        typer.Option(
            "--scaffold",
            help="Also create a small example package in the style that passes the check "
            "(never over an existing file), then check it and show what each layer may import.",
        ),
    ] = False,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Print the table and the diff of pyproject.toml (with --agent: the diff of "
            "each file it would change); write nothing.",
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Replace an existing [tool.inwards] table (and its sub-tables)."
        ),
    ] = False,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="With --style auto: write the proposal into pyproject.toml. With --agent "
            "aider: add the lint-cmd to .aider.conf.yml.",
        ),
    ] = False,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            help=f"Set a coding agent up instead: {AGENTS_HELP}. `claude` writes the hooks "
            "into .claude/settings.local.json, `agents-md` (and `codex`, `opencode`) the brief "
            "into AGENTS.md, `aider` prints its lint-cmd (--write: adds it) (docs/agents.md).",
            show_default=False,
            metavar="AGENT",
        ),
    ] = None,
    shared: Annotated[
        bool,
        typer.Option(
            "--shared",
            help="With --agent claude: write into .claude/settings.json, the settings the "
            "project commits, instead of your own .claude/settings.local.json.",
        ),
    ] = False,
    launcher: Annotated[
        str | None,
        typer.Option(
            "--launcher",
            help='With --agent claude: run the hooks through a launcher, e.g. "uv run", '
            "instead of the installed inwards by its absolute path.",
            show_default=False,
            metavar="CMD",
        ),
    ] = None,
) -> None:
    """Write a starting [tool.inwards] into ./pyproject.toml, keeping the rest of the file
    byte for byte.

    With --agent, set a coding agent up to be checked instead (the project needs its
    [tool.inwards] first): hooks, AGENTS.md or the command to add to its configuration.

    Exit status: 0 written or printed; 2 no style given without a terminal to ask on, an
    existing [tool.inwards] without --force, no pyproject.toml, a scaffold file that
    exists already, an unusable package name, or (--agent) a settings file that can't be
    merged into.
    """
    from inwards_core.presets import PRESETS, STYLE_NAMES

    if agent is not None:
        if style is not None or list_styles or package or scaffold or force:
            fail(
                "error: --agent sets up a coding agent and takes only --shared, --launcher, "
                "--write and --dry-run; run `inwards init --style ...` on its own first."
            )
        from inwards_cli.commands.init_agent import run_agent

        run_agent(agent, shared=shared, launcher=launcher, dry_run=dry_run, write=write)
        raise SystemExit(0)
    if shared or launcher is not None:
        fail("error: --shared and --launcher are for --agent claude.")
    if list_styles:
        write_text(_styles_text())
        raise SystemExit(0)
    if style is None:
        if not _interactive():
            fail(
                "error: inwards init needs --style when it can't ask (no terminal, or CI is "
                "set). Run `inwards init --list-styles` to see the styles.",
                f"Options: {_FLAGS}.",
            )
        style, package, scaffold = _ask(package, scaffold)
    if style not in STYLE_NAMES:
        fail(f"error: --style {style!r} is not a style; choose one of: {', '.join(STYLE_NAMES)}.")
    if write and style != "auto":
        fail("error: --write is for --style auto; the other styles write without it.")
    if scaffold and style == "auto":
        fail("error: --scaffold needs a style; auto only describes the packages that exist.")
    project_dir = Path.cwd()
    if style == "auto":
        from inwards_cli.commands.init_auto import run_auto

        run_auto(project_dir, package, write=write, dry_run=dry_run, force=force)
        raise SystemExit(0)
    _run_preset(
        project_dir, PRESETS[style], package, scaffold=scaffold, dry_run=dry_run, force=force
    )
    raise SystemExit(0)


def _styles_text() -> str:
    from inwards_core.presets import PRESETS

    lines = []
    for preset in PRESETS.values():
        lines.append(f"{preset.name}: {preset.summary}")
        lines.append(f"    layers: {preset.layers}")
        lines.append(f"    also writes: {preset.extras}")
    lines.append("auto: guesses the layers from the names of the packages that exist, picks")
    lines.append("    the closest of the styles above, and writes only with --write")
    lines.append("")
    lines.append("Every style writes all of the above today: contexts, shapes, templates and")
    lines.append("the opt-in rules it names all exist in this version.")
    return "\n".join(lines) + "\n"


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty() and not os.environ.get("CI")


def _ask(package: str | None, scaffold: bool) -> tuple[str, str | None, bool]:
    """The few questions on a terminal: style, package, scaffold."""
    from inwards_cli.commands.init_project import project_name, read_pyproject
    from inwards_core.presets import PRESETS, STYLE_NAMES

    names = list(STYLE_NAMES)
    for number, name in enumerate(names, 1):
        summary = PRESETS[name].summary if name in PRESETS else "guess from the package names"
        typer.echo(f"  {number}. {name}: {summary}")
    choice = typer.prompt("Style (number or name)", default="clean")
    style = names[int(choice) - 1] if choice.isdigit() and 0 < int(choice) <= len(names) else choice
    if package is None:
        path = Path.cwd() / "pyproject.toml"
        default = project_name(read_pyproject(path)) if path.is_file() else None
        package = typer.prompt("Package", default=default) if default else typer.prompt("Package")
    if style != "auto" and not scaffold:
        scaffold = typer.confirm("Create an example package (--scaffold)?", default=False)
    return style, package, scaffold


def _run_preset(
    project_dir: Path,
    preset: Preset,
    package: str | None,
    *,
    scaffold: bool,
    dry_run: bool,
    force: bool,
) -> None:
    from inwards_cli.commands import init_project as project
    from inwards_cli.commands import init_steps as steps
    from inwards_cli.pyproject_edit import has_inwards_table, render_table
    from inwards_core.presets import PresetTarget, preset_comment
    from inwards_core.version import VERSION

    path, text = steps.load_pyproject(project_dir, create=scaffold and package is not None)
    name = steps.resolve_package(text, package)
    old = text if text is not None else _minimal_pyproject(name)
    root = project.root_for(project_dir, name)
    if scaffold and not project.package_exists(project_dir, name):
        root = preset.scaffold_root  # a new package goes where the style puts it
    files = preset.scaffold(name, root) if scaffold else ()
    modules = project.existing_modules(project_dir, root, name)
    modules = tuple(sorted({*modules, *project.scaffold_modules(files, root)}))
    target = PresetTarget(package=name, root=root, version=VERSION, modules=modules)
    table = preset.table(target)
    config = steps.validate(table)
    comment = preset_comment(preset)
    new = steps.new_pyproject(old, table, comment, force=force)
    kept = project.kept_package_markers(project_dir, files)
    files = tuple(file for file in files if file.path not in kept)
    clashes = project.scaffold_clashes(project_dir, files)
    if clashes:
        fail(
            f"error: --scaffold would write over {len(clashes)} existing "
            f"{'path' if len(clashes) == 1 else 'paths'}; nothing was written:",
            *(f"    {clash}" for clash in clashes),
        )
    if dry_run:
        steps.show_dry_run(path, text or "", new, render_table(table, comment))
        for file in files:
            write_text(f"would create {file.path}\n")
        write_text("Nothing written (--dry-run).\n")
        return
    project.write_scaffold(project_dir, files)
    replaced = has_inwards_table(old) is not None
    steps.save(path, new)
    verb = "Replaced" if replaced else "Wrote"
    made = "" if text is not None else " (a new file)"
    write_text(f"{verb} [tool.inwards] ({preset.name}, package {name}) in {path.name}{made}.\n")
    if files:
        also = f" (kept the existing {', '.join(sorted(kept))})" if kept else ""
        write_text(f"Created {len(files)} files of an example {preset.name} package{also}.\n")
        _check_scaffold(path, config)
    else:
        write_text(
            "Next: run `inwards check`. A layer that owns no code yet is reported (INW006) "
            "until its package exists: remove the layers you don't need.\n"
        )


def _minimal_pyproject(package: str) -> str:
    return f'[project]\nname = "{package}"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n'


def _check_scaffold(path: Path, config: Config) -> None:
    """`inwards check` in this process, its text report, then the layer tree of `config`
    (the table just written, built once by `validate`)."""
    from inwards_cli.commands.check.options import CheckArguments
    from inwards_cli.commands.check.output import render
    from inwards_cli.commands.check.run import check
    from inwards_cli.commands.init_project import layer_tree

    arguments = CheckArguments(config=path)
    outcome = check(arguments)
    write_text(f"\ninwards check:\n{render(outcome, arguments)}")
    if outcome.report.exit_code() != 0:
        warn("the example does not pass the check; please report it as a bug of inwards.")
    write_text("\nWhat each layer may import (innermost first):\n")
    write_text("\n".join(layer_tree(config)) + "\n")
