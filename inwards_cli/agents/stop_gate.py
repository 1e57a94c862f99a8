"""Stop: the gate at the end of each turn. Every Python file whose bytes changed since the
session started (by hash, whatever changed it: an edit, a shell command, a generator) is
checked, and only violations new since the start block (exit 2). The gate also blocks when
`[tool.inwards]`, a rule root or the baseline changed during the session (the changed files
are then checked with the configuration the session started with, so a loosened rule still
shows), when the hooks were taken out of the Claude Code settings, and when the session has
no start record. After `escalate-after` blocks in one turn it lets the turn end, with a
message to the user listing what is unresolved."""

from __future__ import annotations

from collections.abc import Sequence

from inwards_cli.agents.findings import (
    beyond,
    errors,
    fingerprint,
    judge_suppressions,
    stop_blocks_this_turn,
    with_rejected,
)
from inwards_cli.agents.project import (
    baseline_digest,
    canonical,
    digest,
    manifest,
    python_files,
    quiet,
    rule_root_digests,
    session_for,
)
from inwards_cli.agents.record import StartRecord
from inwards_cli.agents.reply import (
    ALLOW,
    HookReply,
    block,
    diagnostics_text,
    fail_open,
    finding_line,
    tell_user,
)
from inwards_cli.agents.run import HookRun
from inwards_cli.agents.settings import hook_state, settings_files
from inwards_core.config.values import DEFAULT_ESCALATE_AFTER, ConfigError
from inwards_core.model.findings import Finding, Report
from inwards_core.session import Session

MAX_UNRESOLVED_LINES = 20


class _Verdict:
    """What the gate found: problems of the session itself (one sentence each), and the
    new violations with the report they came from."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []  # (kind, sentence)
        self.new: list[Finding] = []
        self.report: Report | None = None
        self.changed = 0
        self.limit = DEFAULT_ESCALATE_AFTER


def stop(run: HookRun) -> HookReply:
    verdict = _Verdict()
    record = run.start_record()
    if record is None and (run.config_error is not None or not run.log_entries()):
        # Hooks set up in the middle of a session, or a configuration that never worked:
        # nothing the agent did, so the user is told and the turn ends.
        reason = (
            "its SessionStart hook did not run"
            if run.config_error is None
            else str(run.config_error).strip().splitlines()[0]
        )
        return fail_open(
            f"this session has no start record ({reason}), so the Stop gate checked nothing."
        )
    if record is None:
        verdict.problems.append(
            (
                "no-start-record",
                "this session has no start record (.inwards/state/), so inwards can't tell "
                "what the session changed. Its SessionStart hook did not run: tell the user, "
                "who can check the hook settings and start a new session.",
            )
        )
        verdict.limit = _limit_of(run)
    else:
        _judge(run, record, verdict)
    prior = stop_blocks_this_turn(run.log_entries()) if run.payload.stop_hook_active else 0
    entry = {
        "stopHookActive": run.payload.stop_hook_active,
        "changed": verdict.changed,
        "new": sorted({fingerprint(f) for f in verdict.new}),
        "rules": {fingerprint(f): {"code": f.code, "origin": f.origin.value} for f in verdict.new},
        "problems": [kind for kind, _ in verdict.problems],
    }
    if not verdict.problems and not verdict.new:
        run.log({**entry, "blocked": False})
        return ALLOW
    if prior >= verdict.limit:
        run.log({**entry, "blocked": False, "letGo": True})
        return tell_user(_unresolved(verdict))
    run.log({**entry, "blocked": True})
    return block(_reason(verdict))


def _limit_of(run: HookRun) -> int:
    try:
        return run.config().escalate_after
    except Exception:  # a configuration that can't be used: the default
        return DEFAULT_ESCALATE_AFTER


def _judge(run: HookRun, record: StartRecord, verdict: _Verdict) -> None:
    table = run.loaded.table
    config_changed = digest(canonical(table)) != record.config_digest
    if config_changed:
        verdict.problems.append(
            (
                "config-changed",
                f"[tool.inwards] of {record.config_file} changed during this session. Put it "
                "back as it was, or ask the user to make the change; the changed files are "
                "checked with the configuration the session started with.",
            )
        )
    session = _session(run, record, config_changed, verdict)
    if session is None:
        return
    try:
        _compare_inputs(run, record, session, verdict)
        _check_changed(run, record, session, verdict)
    finally:
        session.close()


def _session(
    run: HookRun, record: StartRecord, config_changed: bool, verdict: _Verdict
) -> Session | None:
    # A session of the gate's own (on the start's configuration when it changed): a warm
    # one may not have seen what shell commands changed, and the gate answers the same
    # with or without one.
    try:
        if run.config_error is not None and not config_changed:
            raise run.config_error
        session = session_for(run.loaded, table=record.config if config_changed else None)
    except (ConfigError, OSError) as error:
        verdict.problems.append(
            (
                "unusable-config",
                "the configuration can't be used to check the changed files: "
                + str(error).splitlines()[0],
            )
        )
        return None
    verdict.limit = session.config.escalate_after
    return session


def _compare_inputs(run: HookRun, record: StartRecord, session: Session, verdict: _Verdict) -> None:
    roots = rule_root_digests(run.loaded, session.config)
    changed = sorted(
        root
        for root in set(roots) | set(record.rule_roots)
        if roots.get(root) != record.rule_roots.get(root)
    )
    if changed:
        verdict.problems.append(
            (
                "rules-changed",
                f"rule definitions of the {_listed(changed)} rule root"
                f"{'s' if len(changed) > 1 else ''} changed during this session. Put them back "
                "as they were, or ask the user to make the change.",
            )
        )
    if baseline_digest(run.project_dir) != record.baseline:
        verdict.problems.append(
            (
                "baseline-changed",
                "inwards-baseline.json changed during this session. Put it back as it was; "
                "only the user accepts findings into the baseline.",
            )
        )
    events, disabled = hook_state(settings_files(run.claude_dir, run.environ))
    missing = sorted(set(record.hook_events) - set(events))
    if missing or (disabled and not record.hooks_disabled):
        what = (
            f"the inwards hooks for {_listed(missing)} are gone from"
            if missing
            else "disableAllHooks turns every hook off in"
        )
        verdict.problems.append(
            (
                "hooks-removed",
                f"{what} the Claude Code settings since this session started. Put them back, "
                "or ask the user.",
            )
        )


def _check_changed(run: HookRun, record: StartRecord, session: Session, verdict: _Verdict) -> None:
    listing = session.tree().listing
    current = manifest(run.project_dir, python_files(listing))
    changed = sorted(path for path, value in current.items() if record.files.get(path) != value)
    verdict.changed = len(changed)
    if not changed:
        return
    with quiet():
        report = session.check(changed)
    _, rejected = judge_suppressions(
        report.suppressed, record.suppressed, policy=session.config.agent_suppressions
    )
    verdict.new = errors(beyond(with_rejected(report, rejected), record.findings))
    verdict.report = report


def _reason(verdict: _Verdict) -> str:
    lines = [f"inwards: {sentence}" for _, sentence in verdict.problems]
    if verdict.new and verdict.report is not None:
        count = len(verdict.new)
        lines.append(
            f"inwards: {count} violation{'s are' if count != 1 else ' is'} new since this "
            "session started, in the files it changed. Fix them before ending the turn:"
        )
        lines.append(diagnostics_text(verdict.report, verdict.new, ()))
    return "\n".join(lines)


def _unresolved(verdict: _Verdict) -> str:
    items = [sentence for _, sentence in verdict.problems]
    items += [finding_line(finding) for finding in verdict.new]
    shown = items[:MAX_UNRESOLVED_LINES]
    if len(items) > len(shown):
        shown.append(f"… and {len(items) - len(shown)} more")
    return "\n".join(
        [
            "inwards: the turn ended with architecture problems the agent did not resolve "
            f"after {verdict.limit} tries:",
            *(f"- {item}" for item in shown),
        ]
    )


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names)
