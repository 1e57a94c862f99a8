"""PostToolUse: the file an Edit, Write or MultiEdit changed is checked as it is now, under
every name it has in the project, within the session. An error it did not have when the
session started blocks (exit 2, the compact diagnostics on standard error); what it had is
context, and so are warnings (exit 0 with `additionalContext`). After `escalate-after`
blocks of the same finding the agent is told to stop and ask the user instead."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_cli.agents.edits import lines_added
from inwards_cli.agents.findings import (
    beyond,
    blocks_so_far,
    errors,
    fingerprint,
    judge_suppressions,
    with_rejected,
)
from inwards_cli.agents.project import digest, quiet
from inwards_cli.agents.record import StartRecord
from inwards_cli.agents.reply import (
    ALLOW,
    HookReply,
    block,
    diagnostics_text,
    finding_lines,
    with_context,
)
from inwards_cli.agents.run import HookRun
from inwards_core.extraction.remembered_runs import SOURCE_SUFFIXES
from inwards_core.model.findings import Finding, Report, SuppressedFinding
from inwards_core.ports import ProjectListing
from inwards_core.session import Session


def escalation_text(limit: int) -> str:
    return (
        f"inwards: these findings have blocked {limit} edits each. Stop working around them: "
        "tell the user, for each one, the file, the rule and what it asks, and ask how to go "
        "on. The fix may need a decision about the architecture that is theirs to make."
    )


def post_tool_use(run: HookRun) -> HookReply:
    path = run.payload.file_path
    relative = None if path is None else run.inside(path)
    if relative is None or not relative.endswith(SOURCE_SUFFIXES):
        run.log({"checked": False, **({"file": relative} if relative else {})})
        return ALLOW
    session = run.session()
    session.changed([relative])  # a warm session reads it again (a new file joins the tree)
    listing = session.tree().listing
    names = [name for name in checked_names(listing, relative) if name in listing.files]
    if not names:  # not a file the project's checks read (outside the root, skipped)
        run.log({"checked": False, "file": relative})
        return ALLOW
    with quiet():
        report = _checked(session, names)
    record = run.start_record()
    config = session.config
    _, rejected = judge_suppressions(
        report.suppressed, _suppressed_at_start(record), policy=config.agent_suppressions
    )
    findings = with_rejected(report, rejected)
    new = errors(beyond(findings, record.findings if record is not None else {}))
    if new and record is not None and _as_at_start(run, record, names):
        new = []  # the file is byte for byte what the session found
    counts = blocks_so_far(run.log_entries(), "PostToolUse")
    limit = config.escalate_after
    escalated = [finding for finding in new if counts[fingerprint(finding)] >= limit]
    blocking = [finding for finding in new if counts[fingerprint(finding)] < limit]
    run.log(
        {
            "file": relative,
            "fingerprints": sorted({fingerprint(f) for f in errors(findings)}),
            "new": sorted({fingerprint(f) for f in new}),
            "escalated": sorted({fingerprint(f) for f in escalated}),
            "blocked": bool(blocking),
            "rules": {fingerprint(f): {"code": f.code, "origin": f.origin.value} for f in new},
            "rejected": len(rejected),
            "linesAdded": _lines_added(run),
        }
    )
    fresh = {id(finding) for finding in new}
    known = [finding for finding in findings if id(finding) not in fresh]
    if blocking:
        notes = _notes(record, known, rejected, escalated, limit)
        return block(diagnostics_text(report, blocking, notes))
    if escalated:
        return with_context(
            "PostToolUse", "\n".join([escalation_text(limit), *finding_lines(escalated)])
        )
    if known or rejected:
        return with_context("PostToolUse", _context(relative, known))
    return ALLOW


def _checked(session: Session, names: Sequence[str]) -> Report:
    """The report of the file under each of its names. A check of named paths reaches a file
    by its real path only, so a file with other names (rare) is checked with the whole
    project, and the findings on its names kept."""
    if len(names) == 1:
        return session.check(names)
    report = session.check()
    return attrs.evolve(
        report,
        findings=tuple(f for f in report.findings if f.file in names),
        suppressed=tuple(s for s in report.suppressed if s.finding.file in names),
    )


def checked_names(listing: ProjectListing, relative: str) -> list[str]:
    """`relative` and the other paths the listing reaches the same file by (a link to it,
    or into a directory above it): the file is one module under each name."""
    names = [relative]
    for link, target in listing.symlinks:
        if target == relative:
            names.append(link)
        elif relative.startswith(target + "/"):
            names.append(link + relative[len(target) :])
    return names


def _suppressed_at_start(record: StartRecord | None) -> dict[str, dict[str, int]]:
    if record is None:
        return {}
    return {file: dict(found) for file, found in record.suppressed.items()}


def _as_at_start(run: HookRun, record: StartRecord, names: Sequence[str]) -> bool:
    files = LocalProjectFiles(run.project_dir)
    for name in names:
        try:
            if record.files.get(name) != digest(files.read_bytes(name)):
                return False
        except OSError:
            return False
    return True


def _lines_added(run: HookRun) -> int:
    payload = run.payload
    if payload.tool_name == "Write" and payload.tool_use_id:
        for entry in reversed(run.log_entries()):
            added = entry.get("linesAdded")
            if (
                entry.get("event") == "PreToolUse"
                and entry.get("toolUseId") == payload.tool_use_id
                and isinstance(added, int)
            ):
                return added
    return lines_added(payload.tool_name, payload.tool_input)


def _notes(
    record: StartRecord | None,
    known: Sequence[Finding],
    rejected: Sequence[SuppressedFinding],
    escalated: Sequence[Finding],
    limit: int,
) -> list[str]:
    notes = []
    if record is None:
        notes.append(
            "This session has no start record (its SessionStart hook did not run), so every "
            "error of the file counts as new."
        )
    old = len(errors(known))
    if old:
        notes.append(
            f"{old} other error{'s' if old != 1 else ''} of this file were there when the session "
            "started; they don't block."
        )
    for item in rejected:
        finding = item.finding
        notes.append(
            f"The suppression of {finding.code} at {finding.file}:{finding.span.line} was not "
            'there when the session started, and agent-suppressions = "deny" counts only '
            "those: fix the code instead, or ask the user."
        )
    if escalated:
        notes.append(
            escalation_text(limit)
            + " They are: "
            + "; ".join(f"{f.file}:{f.span.line} {f.code}" for f in escalated)
        )
    return notes


def _context(relative: str, known: Sequence[Finding]) -> str:
    lines = [
        f"inwards: {relative} has no new errors. Findings it had before this session, and "
        "warnings, for context (they don't block):",
        *finding_lines(list(known)),
    ]
    return "\n".join(lines)
