"""The start record of an agent's session (`.inwards/state/<session>.start.json`): what the
project was when the session began, so that later hook runs judge only what changed.

It keeps the parsed `[tool.inwards]` and its digest, the digest of every rule root, the
baseline's digest, whether the Claude Code settings held the hooks, a sha256 manifest of
the project's Python files, and the fingerprints of every finding (and every suppressed
finding) per file. A record that is not one (hand-edited, cut short, of another version)
reads as no record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.model.value_repr import value_repr

RECORD_SCHEMA = "inwards/agent-session-start@1"


@attrs.frozen
class StartRecord:
    __repr__ = value_repr

    started_at: str
    config_file: str
    config: Mapping[str, Any]
    config_digest: str
    rule_roots: Mapping[str, str]
    baseline: str | None
    hook_events: tuple[str, ...]
    hooks_disabled: bool
    files: Mapping[str, str]
    findings: Mapping[str, Mapping[str, int]]
    suppressed: Mapping[str, Mapping[str, int]]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": RECORD_SCHEMA,
            "startedAt": self.started_at,
            "configFile": self.config_file,
            "config": self.config,
            "configDigest": self.config_digest,
            "ruleRoots": dict(self.rule_roots),
            "baseline": self.baseline,
            "hooks": {"events": list(self.hook_events), "disabled": self.hooks_disabled},
            "files": dict(self.files),
            "findings": {file: dict(found) for file, found in self.findings.items()},
            "suppressed": {file: dict(found) for file, found in self.suppressed.items()},
        }

    @classmethod
    def from_json(cls, document: Any) -> StartRecord | None:
        """The record in `document`; None when it is not a start record of this version."""
        if not isinstance(document, dict) or document.get("schema") != RECORD_SCHEMA:
            return None
        hooks = document.get("hooks")
        try:
            return cls(
                started_at=_text(document.get("startedAt")),
                config_file=_text(document.get("configFile")),
                config=_table(document.get("config")),
                config_digest=_text(document.get("configDigest")),
                rule_roots=_texts(document.get("ruleRoots")),
                baseline=None if document.get("baseline") is None else _text(document["baseline"]),
                hook_events=tuple(_list(hooks.get("events") if isinstance(hooks, dict) else [])),
                hooks_disabled=isinstance(hooks, dict) and hooks.get("disabled") is True,
                files=_texts(document.get("files")),
                findings=_counts(document.get("findings")),
                suppressed=_counts(document.get("suppressed")),
            )
        except _NotARecord:
            return None


class _NotARecord(Exception):
    pass


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _NotARecord
    return value


def _table(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _NotARecord
    return value


def _list(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise _NotARecord
    return [_text(item) for item in value]


def _texts(value: Any) -> dict[str, str]:
    return {_text(key): _text(item) for key, item in _table(value).items()}


def _counts(value: Any) -> dict[str, dict[str, int]]:
    counts: dict[str, dict[str, int]] = {}
    for file, found in _table(value).items():
        inner: dict[str, int] = {}
        for key, count in _table(found).items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise _NotARecord
            inner[key] = count
        counts[file] = inner
    return counts
