"""What the SARIF log says, apart from its object model: fingerprints, the texts of rules and
results, and the property bags. `inwards_core.reporting.sarif` puts them in sarif_om
objects; keeping these here keeps that module, the only one importing sarif_om, short."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from inwards_core.model.findings import Finding, Report
from inwards_core.rules.rule_set import ResolvedRule

# GitHub code scanning truncates rule descriptions longer than this.
DESCRIPTION_LIMIT = 1024


# -- fingerprints -----------------------------------------------------------------------


def finding_identity(finding: Finding) -> str:
    """What a finding is, without where it is: rule code, file, module and the stable form
    of the message (no line numbers, no text that unrelated configuration changes)."""
    return "\0".join(
        (
            finding.code,
            finding.file,
            finding.module or "",
            finding.stable_message or finding.message,
        )
    )


def fingerprints(findings: Sequence[Finding]) -> list[str]:
    """One `inwards/v1` value per finding, in the given order (which must be the report's
    order): a hash of the finding's identity and, after a colon, its occurrence among
    identical ones (0, 1, ...). Lines above a finding don't change it; another rule, file,
    module or imported name does."""
    seen: dict[str, int] = {}
    values: list[str] = []
    for finding in findings:
        identity = finding_identity(finding)
        occurrence = seen.get(identity, 0)
        seen[identity] = occurrence + 1
        digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:32]
        values.append(f"{digest}:{occurrence}")
    return values


# -- rules ------------------------------------------------------------------------------


def doc_sections(rule: ResolvedRule) -> list[tuple[str, str]]:
    """The sections of the rule's check-kind docs (What it does, Why, How to fix,
    Limitations)."""
    docs = rule.kind.docs
    return list(docs.sections()) if docs is not None else []


def one_paragraph(text: str) -> str:
    return " ".join(text.split())


def clip(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """At most `limit` characters, cut after a sentence where possible."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    end = cut.rfind(". ")
    return cut[: end + 1] if end > 0 else cut.rstrip() + "…"


def rule_help_texts(rule: ResolvedRule, sections: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """Plain text (what the rule does and how to fix it) and markdown (the kind's whole
    description and the guidance templates each finding fills in)."""
    definition = rule.definition
    guidance = definition.guidance
    where = f"`inwards rule {definition.code}` prints the rule's page, offline."
    if guidance.docs:
        where = f"Docs: {guidance.docs} (`inwards rule {definition.code}` prints it, offline)."
    by_title = dict(sections)
    text = [definition.summary]
    if definition.description or "What it does" in by_title:
        text.append(one_paragraph(definition.description or by_title["What it does"]))
    if "How to fix" in by_title:
        text.append("How to fix: " + one_paragraph(by_title["How to fix"]))
    elif guidance.summary:
        text.append(f"How to fix: {guidance.summary}")
    text.append(where)
    markdown = [
        f"**{definition.code} {definition.name}**: {definition.summary}",
        "",
        f"Check kind `{rule.kind.id}`; definition `{definition.origin.path}` "
        f"({definition.origin.root.value} root).",
    ]
    if definition.description:
        markdown += ["", definition.description]
    for title, body in sections:
        markdown += ["", f"### {title}", "", body]
    if guidance.summary or guidance.steps:
        markdown += ["", "### Fix guidance", "", "Each finding fills in the `{...}` parts.", ""]
        markdown += [f"{guidance.summary}", ""] if guidance.summary else []
        markdown += [f"{number}. {step}" for number, step in enumerate(guidance.steps, 1)]
    markdown += ["", where]
    return "\n\n".join(text), "\n".join(markdown).replace("\n\n\n", "\n\n")


def full_description(rule: ResolvedRule, sections: Sequence[tuple[str, str]]) -> str:
    """The definition's description, else the kind's "What it does", else a summary."""
    definition = rule.definition
    what = next((body for title, body in sections if title == "What it does"), "")
    return definition.description or what or rule.kind.summary or definition.summary


def rule_properties(rule: ResolvedRule) -> dict[str, Any]:
    """The check kind, the family, and where the definition (and any it shadows, and its
    guidance) came from."""
    definition = rule.definition
    properties: dict[str, Any] = {
        "checkKind": rule.kind.id,
        "definition": definition.origin.data(),
        "tags": ["architecture"],
    }
    if definition.family:
        properties["family"] = f"{definition.family} {definition.family_version}".strip()
    if rule.shadowed:
        properties["shadows"] = [d.origin.data() for d in rule.shadowed]
    if definition.overlay is not None:
        properties["overlayChain"] = [link.data() for link in definition.overlay.chain]
    if definition.guidance_origin is not None:
        properties["guidanceFrom"] = definition.guidance_origin.data()
    return properties


# -- results ----------------------------------------------------------------------------


def result_message(finding: Finding) -> str:
    """The message, then the fix summary and its numbered steps."""
    lines = [finding.message]
    if finding.fix.summary:
        lines.append(f"Fix: {finding.fix.summary}")
    lines += [f"{number}. {step}" for number, step in enumerate(finding.fix.steps, 1)]
    return "\n".join(lines)


def result_properties(finding: Finding) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "fix": {"summary": finding.fix.summary, "steps": list(finding.fix.steps)},
        "origin": finding.origin.value,
    }
    if finding.module:
        properties["module"] = finding.module
    if finding.docs:
        properties["docs"] = finding.docs
    return properties


# -- the run ----------------------------------------------------------------------------


def resolved_texts(report: Report) -> Iterable[str]:
    """A note per baseline entry that matched fewer findings than it accepts."""
    for entry in report.baseline_resolved:
        count = "1 finding" if entry.count == 1 else f"{entry.count} findings"
        yield (
            f"{count} of {entry.code} in {entry.module} that the baseline accepts "
            f'("{entry.message}") {"is" if entry.count == 1 else "are"} no longer found: '
            "run `inwards baseline` to drop what was fixed."
        )


def run_properties(report: Report) -> dict[str, Any]:
    properties: dict[str, Any] = {
        "filesChecked": report.files_checked,
        "wholeProject": report.whole_project,
    }
    if report.rule_set_fingerprint:
        properties["ruleSetFingerprint"] = report.rule_set_fingerprint
    if report.user_definitions:
        properties["userDefinitions"] = [
            {"code": item.code, "effect": item.effect, "path": item.path}
            for item in report.user_definitions
        ]
    if report.overlays:
        properties["overlays"] = [
            {
                "code": item.code,
                "chain": [link.data() for link in item.chain],
                "conflicts": item.conflicts,
            }
            for item in report.overlays
        ]
    return properties
