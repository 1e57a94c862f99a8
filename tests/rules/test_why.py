"""`inwards_core.rules.why.explain_rule` on in-memory projects: the engine's trace (only
when asked), and the reasons it turns into. The CLI's part is tests/e2e/test_why.py."""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import pytest

from inwards_core.adapters.caches import NullExtractionCache
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import load_config_text, load_rules, prepare
from inwards_core.baseline import Baseline
from inwards_core.baseline.matching import apply_baseline
from inwards_core.engine import Ports, RunOptions, check_project
from inwards_core.model.findings import BaselineEntry, Report
from inwards_core.rules.why import REASONS, Explanation, WhyContext, explain_rule, unknown_code

CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""

SOURCES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": (
        "from shop.adapters import db\n"
        'from shop.adapters import db as d2  # inwards: ignore[INW001] reason="legacy"\n'
        'import json  # inwards: ignore[INW001] reason="nothing"\n'
    ),
    "shop/adapters/__init__.py": "",
    "shop/adapters/db.py": "import json\n",
    "shop/api.py": "import os\n",
}


def run(
    code: str,
    *,
    config: str = CONFIG,
    paths: list[str] | None = None,
    trace: bool = True,
    sources: Mapping[str, str] = SOURCES,
) -> tuple[Report, Explanation]:
    loaded = load_config_text(config)
    rule_set = load_rules()
    prepared = prepare(loaded, rule_set)
    report = check_project(
        prepared.config,
        prepared.rules,
        Ports(InMemoryProjectFiles(dict(sources)), NullExtractionCache(), StandardGrammars()),
        RunOptions(paths, trace_rule=code if trace else None),
    )
    context = WhyContext(paths=None if paths is None else tuple(paths))
    return report, explain_rule(code, rule_set, prepared.rules, report, prepared.config, context)


def kinds(explanation: Explanation) -> list[str]:
    return [reason.reason for reason in explanation.reasons]


def test_no_trace_unless_asked() -> None:
    report, _ = run("INW001", trace=False)
    assert report.trace is None
    traced, _ = run("INW001")
    assert traced.trace is not None and traced.trace.code == "INW001"
    # The trace is no part of the report's value.
    assert attrs.evolve(traced, duration_ms=0) == attrs.evolve(report, duration_ms=0)


def test_reasons_come_in_the_order_of_the_categories() -> None:
    _, explanation = run("INW001")
    order = [REASONS.index(kind) for kind in kinds(explanation)]
    assert order == sorted(order)
    assert {"not-read", "suppressed", "suppression-unused", "reported"} <= set(kinds(explanation))


def test_suppressed_points_at_the_comment() -> None:
    _, explanation = run("INW001")
    [hidden] = [r for r in explanation.reasons if r.reason == "suppressed"]
    assert (hidden.file, hidden.line) == ("shop/domain/order.py", 2)


def test_unused_comment_on_a_line_without_a_finding() -> None:
    _, explanation = run("INW001")
    [unused] = [r for r in explanation.reasons if r.reason == "suppression-unused"]
    assert (unused.file, unused.line) == ("shop/domain/order.py", 3)


def test_not_read_names_why() -> None:
    _, explanation = run("INW001")
    not_read = {r.file: r.message for r in explanation.reasons if r.reason == "not-read"}
    assert set(not_read) == {"shop/__init__.py", "shop/api.py"}
    assert "no layer owns it" in not_read["shop/api.py"]


def test_whole_project_rule_not_run_with_paths() -> None:
    report, explanation = run("INW004", paths=["shop/domain/order.py"])
    assert report.trace is not None and not report.trace.ran
    assert "not-run-with-paths" in kinds(explanation)
    assert "nothing-found" not in kinds(explanation)


def test_chains_skipped_recorded_as_codes() -> None:
    config = CONFIG.replace("[tool.inwards]\n", '[tool.inwards]\ncycles = ["modules"]\n')
    config += '\n[tool.inwards.rules]\nextend-select = ["INW011"]\n'
    report, explanation = run("INW004", config=config, paths=["shop"])
    # INW004 looks at the whole project: skipped for PATHS, by code as well as in a note.
    assert report.skipped_rules == ("INW004",)
    assert any("INW004" in note for note in report.notes)
    assert kinds(explanation) == ["not-run-with-paths"]
    # No enabled rule follows import chains (`indirect`), so none is named as cut short.
    assert report.chains_skipped == ()
    whole, _ = run("INW004", config=config)
    assert (whole.skipped_rules, whole.chains_skipped) == ((), ())


def test_off_by_ignore_located() -> None:
    config = CONFIG + '\n[tool.inwards.rules]\nignore = ["INW006"]\n'
    _, explanation = run("INW006", config=config)
    [off] = [r for r in explanation.reasons if r.reason == "off"]
    assert (off.file, off.line) == ("pyproject.toml", 8)
    assert explanation.enabled is False


def test_baselined_keeps_its_entry() -> None:
    report, _ = run("INW001")
    [finding] = [f for f in report.findings if f.code == "INW001"]
    entry = BaselineEntry(
        "INW001", "shop.domain.order", finding.stable_message or finding.message, 1
    )
    applied = apply_baseline(report, Baseline((entry,)), file="inwards-baseline.json")
    assert applied.baselined == (finding,)
    assert applied.baselined_by == (entry,)
    rule_set = load_rules()
    prepared = prepare(load_config_text(CONFIG), rule_set)
    explanation = explain_rule("INW001", rule_set, prepared.rules, applied, prepared.config)
    [accepted] = [r for r in explanation.reasons if r.reason == "baselined"]
    assert "count 1" in accepted.message and "inwards-baseline.json" in accepted.message


def test_unknown_suggests() -> None:
    explanation = unknown_code(load_rules(), "INW0O1")
    [unknown] = explanation.reasons
    assert unknown.reason == "unknown"
    assert 'Did you mean "INW001"?' in unknown.message
    assert not explanation.known


def test_json_document_names_its_schema() -> None:
    _, explanation = run("INW001")
    document = explanation.to_json()
    assert document["schema"] == "inwards/why@1"
    assert document["inForce"]["root"] == "core"
    assert [f["line"] for f in document["findings"]] == [1]


@pytest.mark.parametrize("code", ["INW005", "INW003"])
def test_a_rule_that_found_nothing_says_so(code: str) -> None:
    _, explanation = run(code)
    assert "nothing-found" in kinds(explanation)
