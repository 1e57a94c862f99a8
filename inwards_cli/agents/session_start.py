"""SessionStart: record what the project is now (the start record), prune old sessions, and
hand the agent the architecture brief and how it will be checked.

Claude Code sends SessionStart again when a session resumes or is compacted, with the same
session id: the record made at the true start is kept (otherwise the agent's own edits
would become the start), and the brief is handed over again (compaction loses it)."""

from __future__ import annotations

import time

from inwards_cli.agents.findings import counts_by_file
from inwards_cli.agents.project import (
    baseline_digest,
    canonical,
    digest,
    manifest,
    plain,
    python_files,
    quiet,
    rule_root_digests,
    session_for,
)
from inwards_cli.agents.record import StartRecord
from inwards_cli.agents.reply import MAX_CONTEXT_CHARACTERS, HookReply, clipped, with_context
from inwards_cli.agents.run import HookRun, now_text
from inwards_cli.agents.settings import hook_state, settings_files
from inwards_cli.composition import installed_plugin_host
from inwards_core.diagrams.brief import architecture_brief
from inwards_core.session import Session

BRIEF_BUDGET = MAX_CONTEXT_CHARACTERS - 1500  # the rest is how the agent is checked


def session_start(run: HookRun) -> HookReply:
    record = run.start_record()
    made = record is None
    if run.config_error is not None:
        raise run.config_error
    # The record is made by a session of its own: a warm one may not have seen every change.
    with session_for(run.loaded) as session:
        if record is None:
            record = make_record(run, session)
            run.state().write_json(run.start_name, record.to_json())
        pruned = run.state().prune(run.stem, time.time())
        run.log({"source": run.payload.source[:40], "recorded": made, "pruned": len(pruned)})
        return with_context("SessionStart", _context(run, session))


def make_record(run: HookRun, session: Session) -> StartRecord:
    """The project as it is now, checked whole (no cache, no baseline)."""
    with quiet():
        report = session.check()
    listing = session.tree().listing
    table = run.loaded.table
    config = session.config
    events, disabled = hook_state(settings_files(run.claude_dir, run.environ))
    return StartRecord(
        started_at=now_text(),
        config_file=config.file,
        config=plain(table),
        config_digest=digest(canonical(table)),
        rule_roots=rule_root_digests(run.loaded, config),
        baseline=baseline_digest(run.project_dir),
        hook_events=events,
        hooks_disabled=disabled,
        files=manifest(run.project_dir, python_files(listing)),
        findings=counts_by_file(report.findings),
        suppressed=counts_by_file(item.finding for item in report.suppressed),
    )


def _context(run: HookRun, session: Session) -> str:
    config = session.config
    host, _ = installed_plugin_host(run.project_dir)
    brief = architecture_brief(config, session.rules, host)
    suppressions = (
        "an `# inwards: ignore[...]` comment you add does not count"
        if config.agent_suppressions == "deny"
        else 'an `# inwards: ignore[CODE] reason="..."` comment counts, with a real reason'
    )
    checked = [
        "",
        "## How inwards checks this session",
        "",
        "- After each edit of a Python file, inwards checks that file. An error it did not "
        "have when this session started blocks the edit: fix it before going on. What was "
        "there before is context, not a block.",
        "- Before an edit you may be told what the file's layer may import and the rules in "
        "force there.",
        "- Edits to `[tool.inwards]`, `.inwards/`, `inwards-baseline.json`, the rule roots and "
        "the Claude Code hook settings are refused, and so is a new module a package shape "
        "does not allow: if one of them must change, ask the user.",
        f"- In this session {suppressions}.",
        "- When you end a turn, every Python file changed in the session is checked again, "
        "and new violations keep the turn going.",
        f"- After {config.escalate_after} blocks for the same finding, stop working around "
        "it and ask the user.",
    ]
    return clipped(brief, BRIEF_BUDGET) + "\n".join(checked) + "\n"
