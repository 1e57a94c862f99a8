"""The `sarif` format: SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it.

The log is built from the `sarif_om` object model (this is the only module that imports it)
and serialised through the attrs metadata of its classes: each field's
`schema_property_name` is the JSON name; fields left at None or at the schema's default are
omitted, except the few whose absence would read as something else (`level`, `enabled`).

What goes in, beyond the findings:
- every registered rule, in `tool.driver.rules`, with its description, help, the page
  about it (`helpUri`, see `docs_links`), default configuration, and where its definition
  came from (root, path, sha256);
- how this run's configuration differs from each rule's default
  (`invocations[0].ruleConfigurationOverrides`);
- inline-suppressed findings (`inSource`) and findings a baseline accepts (`external`,
  `baselineState: unchanged`), so a viewer shows them as dismissed instead of forgetting them;
- a `partialFingerprints` entry that identifies a finding without its line, so an alert
  survives code moving around it;
- paths not checked, notes and configuration warnings as notifications.

No time is written: the same tree gives the same bytes.

What the log says apart from its object model (fingerprints, help texts, property bags) is
built by `inwards_core.reporting.sarif_content`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any
from urllib.parse import quote

import attrs
import sarif_om as om

from inwards_core.model.findings import Finding, Report, Severity, Span, SuppressedFinding
from inwards_core.reporting import ReportInput
from inwards_core.reporting.docs_links import DEFAULT_INFORMATION_URI, DocsLinks
from inwards_core.reporting.sarif_content import (
    clip,
    doc_sections,
    fingerprints,
    full_description,
    one_paragraph,
    resolved_texts,
    result_message,
    result_properties,
    rule_help_texts,
    rule_properties,
    run_properties,
)
from inwards_core.rules.selection import ActiveRule
from inwards_core.version import inwards_version

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SOURCE_ROOT = "%SRCROOT%"
# The name of our partial fingerprint; the version changes if its recipe ever does.
FINGERPRINT = "inwards/v1"
# Where people learn about inwards (the tool's `informationUri`, which GitHub's ingestion
# rules want) when INWARDS_DOCS_URL names no other place: the distribution's PyPI page.
INFORMATION_URI = DEFAULT_INFORMATION_URI

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

# -- rules ------------------------------------------------------------------------------


def _level(severity: Severity) -> str:
    return "error" if severity is Severity.ERROR else "warning"


def rule_descriptor(active: ActiveRule, docs: DocsLinks | None = None) -> om.ReportingDescriptor:
    rule = active.rule
    definition = rule.definition
    sections = doc_sections(rule)
    text, markdown = rule_help_texts(rule, sections)
    return om.ReportingDescriptor(
        id=definition.code,
        name=definition.name,
        short_description=om.MultiformatMessageString(text=clip(definition.summary)),
        full_description=om.MultiformatMessageString(
            text=clip(one_paragraph(full_description(rule, sections)))
        ),
        help=om.MultiformatMessageString(text=text, markdown=markdown),
        help_uri=(docs or DocsLinks()).rule_page(rule),
        default_configuration=om.ReportingConfiguration(
            enabled=definition.default == "on", level=_level(definition.severity)
        ),
        properties=rule_properties(rule),
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


def _region(span: Span) -> om.Region:
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
                    region=_region(finding.span),
                )
            )
        ],
        related_locations=_chain_locations(finding, prefix),
        partial_fingerprints={FINGERPRINT: fingerprint},
        suppressions=[entry.suppression] if entry.suppression is not None else None,
        baseline_state=baseline_state,
        properties=result_properties(finding),
    )


def _chain_locations(finding: Finding, prefix: str) -> list[om.Location] | None:
    """Each import of the chain a finding is about (SARIF 2.1.0, 3.27.22 relatedLocations),
    numbered from 1 in the chain's order, so a viewer can walk a cycle or a route."""
    if not finding.chain:
        return None
    return [
        om.Location(
            id=number,
            physical_location=om.PhysicalLocation(
                artifact_location=_artifact(step.file, prefix), region=_region(step.span)
            ),
            message=om.Message(text=f"{step.importer} imports {step.imported}"),
        )
        for number, step in enumerate(finding.chain, start=1)
    ]


def _results(report: Report, rules: Sequence[ActiveRule], prefix: str) -> list[om.Result]:
    """Every finding, suppressed or baselined ones too, in report order."""
    rule_index = {active.code: index for index, active in enumerate(rules)}
    entries = _entries(report)
    prints = fingerprints([entry.finding for entry in entries])
    baseline_in_use = report.baseline_file is not None
    return [
        _result(entry, fingerprint, rule_index, prefix, baseline_in_use)
        for entry, fingerprint in zip(entries, prints, strict=True)
    ]


# -- the log ----------------------------------------------------------------------------


def _notification(text: str, level: str, properties: Mapping[str, Any] | None = None) -> Any:
    return om.Notification(
        message=om.Message(text=text),
        level=level,
        properties=dict(properties) if properties else None,
    )


def _invocation(
    report: Report, rules: Sequence[ActiveRule], configuration_warnings: Sequence[str]
) -> om.Invocation:
    """How the run went: paths not checked, notes and configuration warnings, and where the
    configuration made a rule differ from its default."""
    execution = [
        _notification(item.message, "warning", {"path": item.path}) for item in report.not_checked
    ]
    execution += [_notification(note, "note") for note in report.notes]
    execution += [_notification(text, "note") for text in resolved_texts(report)]
    configuration = [_notification(text, "warning") for text in configuration_warnings]
    return om.Invocation(
        execution_successful=not report.nothing_checked,
        exit_code=report.exit_code(),
        tool_execution_notifications=execution or None,
        tool_configuration_notifications=configuration or None,
        rule_configuration_overrides=_configuration_overrides(rules) or None,
    )


def sarif_log(
    report: Report,
    rules: Sequence[ActiveRule],
    *,
    source_root_uri: str,
    path_prefix: str = "",
    configuration_warnings: Sequence[str] = (),
    docs: DocsLinks | None = None,
) -> Any:
    """The report as a sarif_om `SarifLog`.

    `source_root_uri` is the absolute `file:` URI of %SRCROOT% (ending with "/"): the project
    directory, or a folder above it (the repository a CI checked out), in which case
    `path_prefix` is the project directory relative to it ("backend/"): result URIs are
    `path_prefix` + the finding's project-relative file. `configuration_warnings` are the
    warnings about rule roots and definitions that the CLI prints on standard error.
    `docs` says where inwards' documentation is (the default: its PyPI page)."""
    links = docs or DocsLinks()
    driver = om.ToolComponent(
        name="inwards",
        version=inwards_version(),
        semantic_version=inwards_version(),
        information_uri=links.information_uri,
        rules=[rule_descriptor(active, links) for active in rules],
    )
    run = om.Run(
        tool=om.Tool(driver=driver),
        original_uri_base_ids={SOURCE_ROOT: om.ArtifactLocation(uri=source_root_uri)},
        column_kind="unicodeCodePoints",
        invocations=[_invocation(report, rules, configuration_warnings)],
        results=_results(report, rules, path_prefix),
        properties=run_properties(report),
    )
    return om.SarifLog(runs=[run], version=SARIF_VERSION, schema_uri=SCHEMA_URI)


def render_sarif(
    report: Report,
    rules: Sequence[ActiveRule],
    *,
    source_root_uri: str,
    path_prefix: str = "",
    configuration_warnings: Sequence[str] = (),
    docs: DocsLinks | None = None,
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
        docs=docs,
    )
    return _dumped(to_json_value(log), pretty=pretty)


def write_sarif(subject: ReportInput) -> str:
    """The `sarif` format (a `Reporter`). A workspace is one run with every part's results,
    naming every baseline read; its invocation says how the whole run ended (a configuration
    that could not be checked: not successful, exit 2)."""
    report = subject.report
    merged = subject.merged
    if merged is not None:
        baselines = [p.report.baseline_file for p in merged.parts if p.report is not None]
        named = ", ".join(file for file in baselines if file is not None)
        report = attrs.evolve(report, baseline_file=named or None)
    log = sarif_log(
        report,
        subject.rules,
        source_root_uri=subject.source_root_uri,
        path_prefix=subject.path_prefix,
        configuration_warnings=subject.rule_warnings,
        docs=DocsLinks(subject.docs_url),
    )
    if merged is not None:
        (invocation,) = log.runs[0].invocations
        invocation.exit_code = merged.exit_code()
        invocation.execution_successful = not merged.failed and not merged.report.nothing_checked
    return _dumped(to_json_value(log), pretty=subject.pretty)


def _dumped(data: Any, *, pretty: bool) -> str:
    """JSON text: keys sorted, UTF-8 (not escaped); indented when `pretty` (for people:
    several times slower on large logs, as Python encodes indented JSON without its C
    accelerator)."""
    if pretty:
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"
