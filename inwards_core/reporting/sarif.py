"""The `sarif` format: SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it.

The log is built from the `sarif_om` object model (this is the only module that imports it)
and serialised through the attrs metadata of its classes: each field's
`schema_property_name` is the JSON name; fields left at None or at the schema's default are
omitted, except the few whose absence would read as something else (`level`, `enabled`).

What goes in, beyond the findings:
- every registered rule, in `tool.driver.rules`, with its description, help, default
  configuration, and where its definition came from (root, path, sha256);
- how this run's configuration differs from each rule's default
  (`invocations[0].ruleConfigurationOverrides`);
- inline-suppressed findings (`inSource`) and findings a baseline accepts (`external`,
  `baselineState: unchanged`), so a viewer shows them as dismissed instead of forgetting them;
- a `partialFingerprints` entry that identifies a finding without its line, so an alert
  survives code moving around it;
- paths not checked, notes and configuration warnings as notifications.

No time is written: the same tree gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

import attrs
import sarif_om as om

from inwards_core.model.findings import Finding, Report, Severity, SuppressedFinding
from inwards_core.rules.rule_set import ResolvedRule
from inwards_core.rules.selection import ActiveRule
from inwards_core.version import inwards_version

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SOURCE_ROOT = "%SRCROOT%"
# The name of our partial fingerprint; the version changes if its recipe ever does.
FINGERPRINT = "inwards/v1"
# Where people learn about inwards (the tool's `informationUri`, which GitHub's ingestion
# rules want). inwards has no public home yet: this reserved name (RFC 2606) stands in for
# it, rather than a guess that might be someone else's page. Set it when there is one.
INFORMATION_URI = "https://inwards.invalid/"
# GitHub code scanning truncates rule descriptions longer than this.
DESCRIPTION_LIMIT = 1024

# Fields written even when they hold the schema's default: a reader should not have to know
# that a missing `level` means "warning" or a missing `enabled` means true.
_ALWAYS_WRITTEN = frozenset(
    {
        (om.ReportingConfiguration, "enabled"),
        (om.ReportingConfiguration, "level"),
        (om.Result, "level"),
        (om.Notification, "level"),
    }
)


def to_json_value(value: Any) -> Any:
    """A sarif_om object (or a dict/list of them, or a plain value) as JSON data."""
    fields = _FIELDS.get(type(value))
    if fields is None and attrs.has(type(value)):
        fields = _FIELDS[type(value)] = _fields_of(type(value))
    if fields is not None:
        out: dict[str, Any] = {}
        for name, json_name, default, always in fields:
            item = getattr(value, name)
            if item is None or (not always and type(item) is type(default) and item == default):
                continue
            out[json_name] = to_json_value(item)
        return out
    if isinstance(value, Mapping):
        return {str(key): to_json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_value(item) for item in value]
    return value


# Per sarif_om class: (attribute, JSON name, default, always written) for each field.
_FIELDS: dict[type, tuple[tuple[str, str, Any, bool], ...]] = {}


def _fields_of(cls: type) -> tuple[tuple[str, str, Any, bool], ...]:
    found = []
    for field in attrs.fields(cls):
        default: Any = field.default
        if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
            default = default.factory()
        elif default is attrs.NOTHING:
            default = _NO_DEFAULT
        always = (cls, field.name) in _ALWAYS_WRITTEN
        found.append((field.name, field.metadata["schema_property_name"], default, always))
    return tuple(found)


class _NoDefault:
    """Stands for "no default": equal to no value a field can hold."""


_NO_DEFAULT = _NoDefault()


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


def _level(severity: Severity) -> str:
    return "error" if severity is Severity.ERROR else "warning"


def _doc_sections(rule: ResolvedRule) -> list[tuple[str, str]]:
    """The sections of the rule's check-kind docs (What it does, Why, How to fix,
    Limitations)."""
    docs = rule.kind.docs
    return list(docs.sections()) if docs is not None else []


def _one_paragraph(text: str) -> str:
    return " ".join(text.split())


def _clip(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """At most `limit` characters, cut after a sentence where possible."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    end = cut.rfind(". ")
    return cut[: end + 1] if end > 0 else cut.rstrip() + "…"


def _help_uri(docs: str) -> str | None:
    # SARIF wants an absolute URI; a definition's docs may be a path in its repository.
    return docs if re.match(r"^https?://", docs) else None


def _rule_help(
    rule: ResolvedRule, sections: Sequence[tuple[str, str]]
) -> om.MultiformatMessageString:
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
        text.append(_one_paragraph(definition.description or by_title["What it does"]))
    if "How to fix" in by_title:
        text.append("How to fix: " + _one_paragraph(by_title["How to fix"]))
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
    return om.MultiformatMessageString(
        text="\n\n".join(text), markdown="\n".join(markdown).replace("\n\n\n", "\n\n")
    )


def rule_descriptor(active: ActiveRule) -> om.ReportingDescriptor:
    rule = active.rule
    definition = rule.definition
    sections = _doc_sections(rule)
    what = next((body for title, body in sections if title == "What it does"), "")
    full = definition.description or what or rule.kind.summary or definition.summary
    properties: dict[str, Any] = {
        "checkKind": rule.kind.id,
        "definition": {
            "root": definition.origin.root.value,
            "path": definition.origin.path,
            "sha256": definition.origin.sha256,
        },
        "tags": ["architecture"],
    }
    if definition.family:
        properties["family"] = f"{definition.family} {definition.family_version}".strip()
    if rule.shadowed:
        properties["shadows"] = [
            {"root": d.origin.root.value, "path": d.origin.path, "sha256": d.origin.sha256}
            for d in rule.shadowed
        ]
    if definition.guidance_origin is not None:
        properties["guidanceFrom"] = {
            "root": definition.guidance_origin.root.value,
            "path": definition.guidance_origin.path,
            "sha256": definition.guidance_origin.sha256,
        }
    return om.ReportingDescriptor(
        id=definition.code,
        name=definition.name,
        short_description=om.MultiformatMessageString(text=_clip(definition.summary)),
        full_description=om.MultiformatMessageString(text=_clip(_one_paragraph(full))),
        help=_rule_help(rule, sections),
        help_uri=_help_uri(definition.guidance.docs),
        default_configuration=om.ReportingConfiguration(
            enabled=definition.default == "on", level=_level(definition.severity)
        ),
        properties=properties,
    )


def _configuration_overrides(rules: Sequence[ActiveRule]) -> list[om.ConfigurationOverride]:
    """Where `[tool.inwards.rules]` made this run differ from a rule's default."""
    overrides: list[om.ConfigurationOverride] = []
    for index, active in enumerate(rules):
        definition = active.rule.definition
        if (
            active.enabled == (definition.default == "on")
            and active.severity is definition.severity
        ):
            continue
        overrides.append(
            om.ConfigurationOverride(
                configuration=om.ReportingConfiguration(
                    enabled=active.enabled,
                    level=_level(active.severity),
                    properties={
                        "enabledBy": active.decided_by,
                        "levelBy": active.severity_decided_by,
                    },
                ),
                descriptor=om.ReportingDescriptorReference(id=active.code, index=index),
            )
        )
    return overrides


# -- results ----------------------------------------------------------------------------


def _artifact(path: str, prefix: str) -> om.ArtifactLocation:
    """A project file relative to %SRCROOT%; a file outside the project (a definition in
    the user rule root) by its absolute `file:` URI."""
    if PurePath(path).is_absolute():
        return om.ArtifactLocation(uri=PurePath(path).as_uri())
    return om.ArtifactLocation(uri=quote(f"{prefix}{path}", safe="/"), uri_base_id=SOURCE_ROOT)


def result_message(finding: Finding) -> str:
    """The message, then the fix summary and its numbered steps."""
    lines = [finding.message]
    if finding.fix.summary:
        lines.append(f"Fix: {finding.fix.summary}")
    lines += [f"{number}. {step}" for number, step in enumerate(finding.fix.steps, 1)]
    return "\n".join(lines)


def _region(finding: Finding) -> om.Region:
    span = finding.span
    end_line = max(span.end_line, span.line)
    end_column = span.end_column
    if end_line == span.line:
        end_column = max(end_column, span.column)
    return om.Region(
        start_line=span.line,
        start_column=span.column,
        end_line=end_line,
        end_column=end_column,
    )


@attrs.frozen
class _Entry:
    finding: Finding
    suppression: om.Suppression | None = None
    baselined: bool = False


def _entries(report: Report) -> list[_Entry]:
    """Findings, inline-suppressed and baselined findings, in report order."""
    entries = [_Entry(f) for f in report.findings]
    entries += [_Entry(s.finding, _in_source(s)) for s in report.suppressed]
    accepted = f"Accepted by the baseline {report.baseline_file or 'inwards-baseline.json'}."
    entries += [
        _Entry(f, om.Suppression(kind="external", justification=accepted), True)
        for f in report.baselined
    ]
    entries.sort(key=lambda entry: entry.finding.sort_key())
    return entries


def _in_source(item: SuppressedFinding) -> om.Suppression:
    return om.Suppression(kind="inSource", justification=item.reason or None)


def _result(
    entry: _Entry,
    fingerprint: str,
    rule_index: Mapping[str, int],
    prefix: str,
    baseline_in_use: bool,
) -> om.Result:
    finding = entry.finding
    properties: dict[str, Any] = {
        "fix": {"summary": finding.fix.summary, "steps": list(finding.fix.steps)},
        "origin": finding.origin.value,
    }
    if finding.module:
        properties["module"] = finding.module
    if finding.docs:
        properties["docs"] = finding.docs
    baseline_state = None
    if (baseline_in_use and entry.suppression is None) or entry.baselined:
        baseline_state = "unchanged" if entry.baselined else "new"
    return om.Result(
        message=om.Message(text=result_message(finding)),
        rule_id=finding.code,
        rule_index=rule_index.get(finding.code, -1),
        level=_level(finding.severity),
        locations=[
            om.Location(
                physical_location=om.PhysicalLocation(
                    artifact_location=_artifact(finding.file, prefix),
                    region=_region(finding),
                )
            )
        ],
        partial_fingerprints={FINGERPRINT: fingerprint},
        suppressions=[entry.suppression] if entry.suppression is not None else None,
        baseline_state=baseline_state,
        properties=properties,
    )


# -- the log ----------------------------------------------------------------------------


def _notification(text: str, level: str, properties: Mapping[str, Any] | None = None) -> Any:
    return om.Notification(
        message=om.Message(text=text),
        level=level,
        properties=dict(properties) if properties else None,
    )


def _resolved_text(report: Report) -> Iterable[str]:
    for entry in report.baseline_resolved:
        count = "1 finding" if entry.count == 1 else f"{entry.count} findings"
        yield (
            f"{count} of {entry.code} in {entry.module} that the baseline accepts "
            f'("{entry.message}") {"is" if entry.count == 1 else "are"} no longer found: '
            "run `inwards baseline` to drop what was fixed."
        )


def sarif_log(
    report: Report,
    rules: Sequence[ActiveRule],
    *,
    source_root_uri: str,
    path_prefix: str = "",
    configuration_warnings: Sequence[str] = (),
    information_uri: str = INFORMATION_URI,
) -> Any:
    """The report as a sarif_om `SarifLog`.

    `source_root_uri` is the absolute `file:` URI of %SRCROOT% (ending with "/"): the project
    directory, or a folder above it (the repository a CI checked out), in which case
    `path_prefix` is the project directory relative to it ("backend/"): result URIs are
    `path_prefix` + the finding's project-relative file. `configuration_warnings` are the
    warnings about rule roots and definitions that the CLI prints on standard error."""
    rule_index = {active.code: index for index, active in enumerate(rules)}
    entries = _entries(report)
    prints = fingerprints([entry.finding for entry in entries])
    baseline_in_use = report.baseline_file is not None
    results = [
        _result(entry, fingerprint, rule_index, path_prefix, baseline_in_use)
        for entry, fingerprint in zip(entries, prints, strict=True)
    ]
    execution = [
        _notification(item.message, "warning", {"path": item.path}) for item in report.not_checked
    ]
    execution += [_notification(note, "note") for note in report.notes]
    execution += [_notification(text, "note") for text in _resolved_text(report)]
    configuration = [_notification(text, "warning") for text in configuration_warnings]
    invocation = om.Invocation(
        execution_successful=not report.nothing_checked,
        exit_code=report.exit_code(),
        tool_execution_notifications=execution or None,
        tool_configuration_notifications=configuration or None,
        rule_configuration_overrides=_configuration_overrides(rules) or None,
    )
    run_properties: dict[str, Any] = {
        "filesChecked": report.files_checked,
        "wholeProject": report.whole_project,
    }
    if report.rule_set_fingerprint:
        run_properties["ruleSetFingerprint"] = report.rule_set_fingerprint
    if report.user_definitions:
        run_properties["userDefinitions"] = [
            {"code": item.code, "effect": item.effect, "path": item.path}
            for item in report.user_definitions
        ]
    driver = om.ToolComponent(
        name="inwards",
        version=inwards_version(),
        semantic_version=inwards_version(),
        information_uri=information_uri,
        rules=[rule_descriptor(active) for active in rules],
    )
    run = om.Run(
        tool=om.Tool(driver=driver),
        original_uri_base_ids={SOURCE_ROOT: om.ArtifactLocation(uri=source_root_uri)},
        column_kind="unicodeCodePoints",
        invocations=[invocation],
        results=results,
        properties=run_properties,
    )
    return om.SarifLog(runs=[run], version=SARIF_VERSION, schema_uri=SCHEMA_URI)


def render_sarif(
    report: Report,
    rules: Sequence[ActiveRule],
    *,
    source_root_uri: str,
    path_prefix: str = "",
    configuration_warnings: Sequence[str] = (),
    information_uri: str = INFORMATION_URI,
    pretty: bool = False,
) -> str:
    """The SARIF log as JSON text: keys sorted, UTF-8 (not escaped); indented when `pretty`
    (for people: several times slower on large logs, as Python encodes indented JSON
    without its C accelerator)."""
    log = sarif_log(
        report,
        rules,
        source_root_uri=source_root_uri,
        path_prefix=path_prefix,
        configuration_warnings=configuration_warnings,
        information_uri=information_uri,
    )
    data = to_json_value(log)
    if pretty:
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"
