"""Reports name each rule whose definition in force is an overlay once, with the files it
merges (lowest root first) and its conflicts: JSON `ruleSet.overlays`, SARIF run
properties, the text trailer, the workspace merge, and never the run memo."""

from __future__ import annotations

import json

import attrs
import jsonschema

from inwards_core.model.findings import (
    Finding,
    Fix,
    OverlayInEffect,
    Report,
    RootKind,
    Severity,
    Span,
)
from inwards_core.model.findings import Origin as O
from inwards_core.model.report_data import is_engine_report
from inwards_core.reporting.diagnostics_schema import diagnostics_schema
from inwards_core.reporting.json import render_json
from inwards_core.reporting.merge import ReportPart, merge_reports
from inwards_core.reporting.sarif_content import run_properties
from inwards_core.reporting.text import render_concise, render_text

CHAIN = (
    O(RootKind.CORE, "inwards_core/families/inw/definitions/INW005.toml", "a" * 64),
    O(RootKind.USER, "/home/u/.config/inwards/rules/INW005.toml", "b" * 64),
    O(RootKind.PROJECT, ".inwards/rules/INW005.toml", "c" * 64),
)
REPORT = Report(
    findings=(),
    files_checked=1,
    rule_set_fingerprint="f" * 64,
    overlays=(OverlayInEffect("INW005", CHAIN, 1),),
)
LINKS = [{"root": o.root.value, "path": o.path, "sha256": o.sha256} for o in CHAIN]


def test_json_names_each_overlay_once_under_the_rule_set() -> None:
    document = json.loads(render_json(REPORT))
    assert document["ruleSet"]["overlays"] == [{"code": "INW005", "chain": LINKS, "conflicts": 1}]
    jsonschema.validate(document, diagnostics_schema())
    plain = json.loads(
        render_json(Report(findings=(), files_checked=1, rule_set_fingerprint="f" * 64))
    )
    assert "overlays" not in plain["ruleSet"]  # only when there are some


def test_sarif_run_properties_carry_the_chains() -> None:
    assert run_properties(REPORT)["overlays"] == [
        {"code": "INW005", "chain": LINKS, "conflicts": 1}
    ]


def test_the_text_trailer_leaves_the_chains_to_status_and_rules_explain() -> None:
    text = render_text(REPORT)
    assert "Overlays in effect" not in text and "INW005.toml" not in text


def test_a_workspace_names_an_overlay_once_and_the_memo_never_holds_it() -> None:
    parts = [
        ReportPart("a/pyproject.toml", "a", REPORT),
        ReportPart("b/pyproject.toml", "b", REPORT),
    ]
    assert merge_reports(parts).report.overlays == REPORT.overlays
    assert not is_engine_report(REPORT)


def test_a_finding_of_an_overlaid_rule_names_its_roots_in_its_head() -> None:
    finding = Finding(
        code="INW005",
        rule="pure-domain",
        severity=Severity.WARNING,
        file="shop/domain/order.py",
        module="shop.domain.order",
        span=Span(1, 1, 1, 18),
        message="shop.domain imports sqlalchemy.",
        fix=Fix("Keep it out."),
        docs="",
        origin=RootKind.PROJECT,
    )
    report = attrs.evolve(REPORT, findings=(finding,))
    head = "shop/domain/order.py:1:1: INW005 (warning) [core < user < project overlay] shop"
    assert head in render_text(report)
    assert head in render_concise(report)
    plain = render_text(attrs.evolve(report, overlays=()))
    assert "INW005 (warning) [project rule] shop" in plain
