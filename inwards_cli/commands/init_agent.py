"""`inwards init --agent NAME`: set a coding agent up to be checked by inwards.

- `claude`: the hooks of `inwards hook claude-code` and the `permissions.deny` rules in
  `.claude/settings.local.json` (`--shared`: `.claude/settings.json`), and `.gitignore`
  lines for what must not be committed;
- `agents-md`, `codex`, `opencode`: the architecture brief in `AGENTS.md`, between the
  markers `inwards context --write` keeps (Codex and OpenCode read that file; neither can
  run `inwards hook claude-code`: see docs/agents.md);
- `aider`: prints the `lint-cmd` entry for `.aider.conf.yml`; with `--write`, adds it to
  that file when it sets no `lint-cmd` of its own (inwards edits no YAML).

Every file is read and merged before any is written, each is written atomically and never
through a link, and `--dry-run` prints the diffs instead. Exit status 0 (done, or nothing to
do), 2 (no configuration, a file that can't be merged into, a failed write).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.commands.console import fail, write_text

AGENTS = ("claude", "agents-md", "aider", "codex", "opencode")
GITIGNORE = ".gitignore"
STATE_IGNORE = ".inwards/state/"
LOCAL_SETTINGS = ".claude/settings.local.json"
SHARED_SETTINGS = ".claude/settings.json"
_MAX_SETTINGS_BYTES = 10 * 1024 * 1024
# The .gitignore lines that already keep a path out of git (as written, or a parent).
_ALREADY_IGNORED = {
    STATE_IGNORE: {".inwards/state/", ".inwards/state", ".inwards/", ".inwards"},
    LOCAL_SETTINGS: {LOCAL_SETTINGS, ".claude/", ".claude", "**/.claude/settings.local.json"},
}


@attrs.frozen
class FileChange:
    """A file of the project, relative to it, as it is (None: there is none) and will be."""

    path: str
    old: str | None
    new: str

    @property
    def changed(self) -> bool:
        return self.old != self.new


def run_agent(
    agent: str,
    *,
    shared: bool,
    launcher: str | None,
    dry_run: bool,
    write: bool = False,
    config: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Set `agent` up for the project of the configuration found from here."""
    if agent not in AGENTS:
        fail(
            f"error: --agent {agent!r} is not an agent inwards sets up; choose one of: "
            f"{', '.join(AGENTS)}."
        )
    if (shared or launcher is not None) and agent != "claude":
        fail("error: --shared and --launcher are for --agent claude.")
    if write and agent != "aider":
        fail(
            "error: --write is for --style auto and --agent aider; the other agents are "
            "written without it."
        )
    environ = os.environ if environ is None else environ
    if agent == "claude":
        _claude(shared=shared, launcher=launcher, dry_run=dry_run, config=config, environ=environ)
    elif agent == "aider":
        _aider(write=write, dry_run=dry_run, config=config)
    else:
        _agents_md(agent, dry_run=dry_run, config=config)


# -- Claude Code --------------------------------------------------------------------------


def _claude(
    *,
    shared: bool,
    launcher: str | None,
    dry_run: bool,
    config: Path | None,
    environ: Mapping[str, str],
) -> None:
    from inwards_cli.agents.setup import (
        SettingsShapeError,
        direct_command,
        launcher_command,
        with_denials,
        with_hooks,
    )

    project_dir = _project_dir(config)
    settings_path = SHARED_SETTINGS if shared else LOCAL_SETTINGS
    _refuse_odd_folder(project_dir, ".claude")
    if launcher is not None:
        try:
            command = launcher_command(launcher)
        except ValueError as error:
            fail(f"error: --launcher {launcher!r} can't be used: {error}.")
    else:
        command = direct_command(installed_inwards())
    old = _read(project_dir, settings_path)
    document = _parse_settings(settings_path, old)
    rules, left_out = deny_rules(settings_path, environ, shared=shared)
    try:
        merged = with_denials(with_hooks(document, command), rules)
    except SettingsShapeError as error:
        fail(
            f"error: {settings_path}: {error}; nothing was written (fix it, or move the "
            "file away and run this again)."
        )
    new = old if merged == document and old is not None else _json_text(merged)
    ignored = [STATE_IGNORE] if shared else [STATE_IGNORE, LOCAL_SETTINGS]
    changes = [
        FileChange(settings_path, old, new),
        _gitignore_change(project_dir, ignored),
    ]
    if not _apply(project_dir, changes, dry_run=dry_run):
        write_text(
            f"Claude Code is set up already: {settings_path} and {GITIGNORE} need no change.\n"
        )
        return
    if dry_run:
        return
    write_text(
        f"Claude Code runs inwards' hooks now ({settings_path}): SessionStart, PreToolUse, "
        f"PostToolUse and Stop run\n    {command}\n"
        f"and permissions.deny keeps the agent's file tools off {', '.join(rules)}.\n"
    )
    for root in left_out:
        write_text(
            f"Not in the shared settings: {root} (a path of this machine; the hook's "
            "own guard still refuses edits there).\n"
        )
    write_text(
        "Start a new Claude Code session in this directory for the hooks to run "
        "(docs/agents.md says what each does).\n"
    )


def installed_inwards() -> list[str]:
    """The installed `inwards` that runs now, by absolute path: the console script of this
    interpreter's environment, else the one this run was started as, else
    `python -m inwards_cli` with this interpreter."""
    name = "inwards.exe" if os.name == "nt" else "inwards"
    script = Path(sysconfig.get_path("scripts")) / name
    if script.is_file():
        return [str(script)]
    started = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started is not None and started.name in (name, "inwards") and started.is_file():
        return [str(started.absolute())]
    return [sys.executable, "-m", "inwards_cli"]


def deny_rules(
    settings_path: str, environ: Mapping[str, str], *, shared: bool
) -> tuple[list[str], list[str]]:
    """The `permissions.deny` rules (Claude Code's rule syntax: `/path` from the project
    root, `~/path` from the home folder, `//path` absolute) for what the agent may not edit,
    and the rule roots left out of shared settings (a path only this machine has)."""
    from inwards_cli.adapters.org_rules import ORG_RULES_OVERRIDE
    from inwards_cli.adapters.rule_roots import user_rules_directory
    from inwards_core.baseline import BASELINE_FILE_NAME

    rules = ["Edit(/.inwards/**)", f"Edit(/{BASELINE_FILE_NAME})", f"Edit(/{settings_path})"]
    roots = [user_rules_directory(environ)[0]]
    org = environ.get(ORG_RULES_OVERRIDE, "")
    if org and os.path.isabs(org):
        roots.append(Path(org))
    home = environ.get("HOME", "")
    left_out: list[str] = []
    for root in roots:
        rule = _root_rule(root, Path(home) if os.path.isabs(home) else None, shared=shared)
        if rule is None:
            left_out.append(str(root))
        else:
            rules.append(rule)
    return list(dict.fromkeys(rules)), left_out


def _root_rule(root: Path, home: Path | None, *, shared: bool) -> str | None:
    if home is not None and root.is_relative_to(home) and root != home:
        return f"Edit(~/{root.relative_to(home).as_posix()}/**)"
    if shared:
        return None
    return f"Edit(//{root.as_posix().lstrip('/')}/**)"


def _parse_settings(path: str, text: str | None) -> dict[str, Any]:
    if text is None:
        return {}
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        fail(
            f"error: {path}:{error.lineno}:{error.colno}: not valid JSON ({error.msg}); "
            "nothing was written (fix it, or move the file away and run this again)."
        )
    except RecursionError:
        fail(f"error: {path}: nested too deeply to read; nothing was written.")
    if not isinstance(document, dict):
        fail(
            f"error: {path}: holds a JSON {_json_kind(document)}, not an object; nothing "
            "was written (fix it, or move the file away and run this again)."
        )
    return document


def _json_kind(value: Any) -> str:
    kinds = {list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _json_text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _gitignore_change(project_dir: Path, patterns: Sequence[str]) -> FileChange:
    old = _read(project_dir, GITIGNORE)
    lines = {line.strip().lstrip("/") for line in (old or "").splitlines()}
    missing = [p for p in patterns if not (_ALREADY_IGNORED[p] & lines)]
    if not missing:
        return FileChange(GITIGNORE, old, old or "")
    text = old or ""
    if text and not text.endswith("\n"):
        text += "\n"
    text += "# What inwards' agent hooks keep for this machine only (inwards init --agent)\n"
    text += "".join(f"{pattern}\n" for pattern in missing)
    return FileChange(GITIGNORE, old, text)


# -- AGENTS.md, Codex, OpenCode -----------------------------------------------------------

_NO_HOOK = {
    "codex": (
        "Codex reads AGENTS.md, where the brief is kept. Its hooks (.codex/hooks.json) take "
        "Claude Code's JSON on standard input, but Codex edits files with apply_patch, whose "
        "payload is a patch, not the file_path that `inwards hook claude-code` checks: "
        "inwards writes no Codex hooks. Run `inwards check` (or the pre-commit hook) before "
        "committing; docs/agents.md#codex says more."
    ),
    "opencode": (
        "OpenCode reads AGENTS.md, where the brief is kept. Its plugins are JavaScript "
        "modules called in-process, not commands fed JSON on standard input, so "
        "`inwards hook claude-code` can't be one: inwards writes no OpenCode plugin. Run "
        "`inwards check` (or the pre-commit hook) before committing; docs/agents.md#opencode "
        "says more."
    ),
}


def _agents_md(agent: str, *, dry_run: bool, config: Path | None) -> None:
    from inwards_cli.commands.context import architecture_brief_of, keep_brief

    target, brief = architecture_brief_of(config, isolated=False)
    keep_brief(target, brief, who="init", dry_run=dry_run)
    if agent in _NO_HOOK:
        write_text(_NO_HOOK[agent] + "\n")


# -- Aider --------------------------------------------------------------------------------


AIDER_CONFIG = ".aider.conf.yml"
# A top-level `lint-cmd` key of a YAML mapping (bare or quoted).
_AIDER_LINT_KEY = re.compile(r"""^(?:lint-cmd|"lint-cmd"|'lint-cmd')[ \t]*:""")


def _aider(*, write: bool, dry_run: bool, config: Path | None) -> None:
    """Aider runs its lint command with the edited files after each change and shows the
    model what a failing run prints: `inwards check FILE...` is that command."""
    command = shlex.join([*installed_inwards(), "check"])
    entry = json.dumps(f"python: {command}")
    block = f"lint-cmd:\n  - {entry}\n"
    if not write:
        write_text(
            f"Add this to {AIDER_CONFIG} (Aider then runs `inwards check` on the Python files "
            "it edits and hands the findings to the model), or run this again with --write:"
            f"\n\n{block}"
        )
        return
    project_dir = _project_dir(config)
    old = _read(project_dir, AIDER_CONFIG)
    lines = (old or "").splitlines()
    taken = next((n for n, line in enumerate(lines, 1) if _AIDER_LINT_KEY.match(line)), None)
    if taken is not None:
        if entry in (old or "") or f"python: {command}" in (old or ""):
            write_text(f"{AIDER_CONFIG} runs inwards already; nothing to change.\n")
            return
        fail(
            f"error: {AIDER_CONFIG}:{taken}: lint-cmd is set already; add {entry} to its list "
            "yourself (inwards edits no YAML); nothing was written."
        )
    text = old or ""
    if text and not text.endswith("\n"):
        text += "\n"
    text += f"# inwards checks the Python files Aider edits (inwards init --agent aider)\n{block}"
    _apply(project_dir, [FileChange(AIDER_CONFIG, old, text)], dry_run=dry_run)
    if not dry_run:
        write_text(f"Added the lint-cmd of inwards to {AIDER_CONFIG}:\n\n{block}")


# -- files --------------------------------------------------------------------------------


def _project_dir(config: Path | None) -> Path:
    from inwards_cli.commands.loading import locate_config

    return locate_config(config).project_dir


def _refuse_odd_folder(project_dir: Path, name: str) -> None:
    if os.path.islink(project_dir / name):
        fail(
            f"error: {name} is a symbolic link; inwards writes only into the project's own "
            f"{name} folder (replace the link with a folder)."
        )
    if os.path.lexists(project_dir / name) and not (project_dir / name).is_dir():
        fail(f"error: {name} is not a folder; nothing was written.")


def _read(project_dir: Path, relative: str) -> str | None:
    """The text of a project file; None when there is none. A link, a FIFO, a folder or an
    oversized file is exit 2 naming it: nothing is written through or over those."""
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file

    path = project_dir / relative
    if os.path.islink(path):
        fail(
            f"error: {relative} is a symbolic link; inwards does not write through links "
            "(replace it with the file itself)."
        )
    try:
        data = read_regular_file(path, follow_symlinks=False, max_bytes=_MAX_SETTINGS_BYTES)
        return data.decode("utf-8-sig")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        fail(f"error: {relative} is not UTF-8 text; nothing was written.")
    except NotARegularFileError as error:
        fail(f"error: {relative} {error.strerror}; nothing was written.")
    except OSError as error:
        fail(f"error: {relative} can't be read: {failure_reason(error)}.")


def _refuse_unwritable(project_dir: Path, relative: str) -> None:
    """Exit 2 when `relative` can't be written (a read-only file, a folder on its way that
    is a file), so that one file is not written while the next is refused."""
    path = project_dir / relative
    for parent in Path(relative).parents:
        folder = project_dir / parent
        if parent != Path(".") and os.path.lexists(folder) and not folder.is_dir():
            fail(f"error: {parent.as_posix()} is not a folder; nothing was written.")
    if path.is_file() and (path.stat().st_mode & 0o222 == 0 or not os.access(path, os.W_OK)):
        fail(
            f"error: {relative} is read-only; nothing was written (make it writable and run this again)."
        )


def _apply(project_dir: Path, changes: Sequence[FileChange], *, dry_run: bool) -> bool:
    """Show (`dry_run`) or write the changed files; False when none changes."""
    from inwards_cli.adapters.atomic import failure_reason, write_user_file
    from inwards_cli.pyproject_edit import unified_diff

    changed = [change for change in changes if change.changed]
    if not changed:
        return False
    if dry_run:
        for change in changed:
            diff = unified_diff(change.old or "", change.new, change.path)
            write_text(f"The change to {change.path}:\n\n{diff}\n")
        write_text("Nothing written (--dry-run).\n")
        return True
    for change in changed:  # what would fail a write, found before any file is written
        _refuse_unwritable(project_dir, change.path)
    for change in changed:
        try:
            write_user_file(project_dir / change.path, change.new.encode("utf-8"))
        except OSError as error:
            fail(f"error: can't write {change.path}: {failure_reason(error)}.")
    return True
