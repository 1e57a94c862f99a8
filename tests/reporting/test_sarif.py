"""The SARIF reporter on reports built in memory: contents, fingerprints, suppressions,
baselines, notifications, determinism, and validity (schema always, multitool if present)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import attrs
import pytest
import sarif_om as om

from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.api import installed_families, load_rules
from inwards_core.config.values import RuleSettings
from inwards_core.model.findings import (
    BaselineEntry,
    ChainStep,
    Finding,
    Fix,
    NotChecked,
    Report,
    Severity,
    Span,
    SuppressedFinding,
    UserDefinitionInEffect,
)
from inwards_core.reporting.sarif import (
    FINGERPRINT,
    INFORMATION_URI,
    SCHEMA_URI,
    render_sarif,
    to_json_value,
)
from inwards_core.reporting.sarif_content import fingerprints, result_message
from inwards_core.rules.selection import ActiveRule, select
from tests.reporting.sarif_check import (
    multitool_problems,
    require_multitool,
    schema_errors,
    valid_sarif,
)

ROOT_URI = "file:///work/project/"


def rules(settings: RuleSettings | None = None) -> tuple[ActiveRule, ...]:
    return select(load_rules(), settings or RuleSettings())


def finding(
    line: int = 6,
    *,
    code: str = "INW001",
    rule: str = "layer-dependency",
    file: str = "src/shop/domain/discounts.py",
    module: str | None = "shop.domain.discounts",
    imported: str = "shop.adapters.outbound.sql_orders",
    severity: Severity = Severity.ERROR,
) -> Finding:
    stable = f'Layer "domain" imports "{imported}" from the outer layer "outbound".'
    return Finding(
        code=code,
        rule=rule,
        severity=severity,
        file=file,
        module=module,
        span=Span(line, 1, line, 47),
        message=f"{stable} Imports may only point inwards: domain <- outbound.",
        fix=Fix(
            'Invert the dependency: let "domain" own an interface.',
            (f"Delete `import {imported}`.", "Declare a typing.Protocol in the domain."),
        ),
        docs="docs/rules/INW001.md",
        stable_message=stable,
    )


def render(report: Report, **options: Any) -> dict[str, Any]:
    text = render_sarif(report, rules(), source_root_uri=ROOT_URI, **options)
    return valid_sarif(text)


def run_of(document: dict[str, Any]) -> dict[str, Any]:
    assert len(document["runs"]) == 1
    return document["runs"][0]  # type: ignore[no-any-return]


def test_log_header_tool_and_every_registered_rule() -> None:
    active = rules()
    document = render(Report(findings=(finding(),), files_checked=3))
    assert document["$schema"] == SCHEMA_URI
    assert document["version"] == "2.1.0"
    driver = run_of(document)["tool"]["driver"]
    assert driver["name"] == "inwards"
    assert driver["version"] == driver["semanticVersion"]
    assert driver["informationUri"] == INFORMATION_URI
    assert [rule["id"] for rule in driver["rules"]] == [a.code for a in active]
    assert {"INW000", "INW001", "INW006", "INW020"} <= {rule["id"] for rule in driver["rules"]}
    for rule, act in zip(driver["rules"], active, strict=True):
        definition = act.rule.definition
        assert rule["name"] == definition.name
        assert rule["shortDescription"]["text"] == definition.summary
        # GitHub requires these, non-empty; descriptions at most 1024 characters.
        for key in ("shortDescription", "fullDescription"):
            assert 0 < len(rule[key]["text"]) <= 1024, (rule["id"], key)
        assert rule["help"]["text"].startswith(definition.summary)
        assert rule["help"]["markdown"].startswith(f"**{definition.code} {definition.name}**")
        assert rule["defaultConfiguration"] == {
            "enabled": definition.default == "on",
            "level": definition.severity.value,
        }
        assert rule["properties"]["definition"] == {
            "root": definition.origin.root.value,
            "path": definition.origin.path,
            "sha256": definition.origin.sha256,
        }
        assert rule["properties"]["checkKind"] == act.rule.kind.id
        # Core docs are paths in the inwards repository, not absolute URIs.
        assert "helpUri" not in rule or rule["helpUri"].startswith("https://")


def test_the_rule_help_says_what_the_rule_does_and_how_to_fix_it() -> None:
    driver = run_of(render(Report(findings=(), files_checked=1)))["tool"]["driver"]
    inw001 = next(rule for rule in driver["rules"] if rule["id"] == "INW001")
    assert inw001["fullDescription"]["text"].startswith("Reports every import, in a module")
    assert "How to fix: Invert the dependency." in inw001["help"]["text"]
    assert "`inwards rule INW001`" in inw001["help"]["text"]
    markdown = inw001["help"]["markdown"]
    for heading in ("### What it does", "### Why is this bad?", "### Fix guidance"):
        assert heading in markdown
    assert "1. Delete `{statement}`." in markdown


def test_a_result_has_rule_level_message_location_and_region() -> None:
    active = rules()
    warning = finding(9, code="INW006", rule="unassigned-module", severity=Severity.WARNING)
    report = Report(findings=(finding(), warning), files_checked=3)
    run = run_of(render(report))
    first, second = run["results"]
    assert first["ruleId"] == "INW001"
    assert run["tool"]["driver"]["rules"][first["ruleIndex"]]["id"] == "INW001"
    assert active[second["ruleIndex"]].code == "INW006"
    assert (first["level"], second["level"]) == ("error", "warning")
    assert first["message"]["text"] == (
        'Layer "domain" imports "shop.adapters.outbound.sql_orders" from the outer layer '
        '"outbound". Imports may only point inwards: domain <- outbound.\n'
        'Fix: Invert the dependency: let "domain" own an interface.\n'
        "1. Delete `import shop.adapters.outbound.sql_orders`.\n"
        "2. Declare a typing.Protocol in the domain."
    )
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": "src/shop/domain/discounts.py",
        "uriBaseId": "%SRCROOT%",
    }
    # Span and SARIF agree: 1-based lines and columns, end column exclusive.
    assert location["region"] == {"startLine": 6, "startColumn": 1, "endLine": 6, "endColumn": 47}
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": ROOT_URI}}
    assert run["columnKind"] == "unicodeCodePoints"
    assert first["properties"]["fix"]["steps"][1] == "Declare a typing.Protocol in the domain."
    assert first["properties"]["module"] == "shop.domain.discounts"
    assert "suppressions" not in first and "baselineState" not in first


def test_a_chain_finding_lists_each_import_as_a_related_location() -> None:
    steps = (
        ChainStep("shop.a", "shop.b", "src/shop/a.py", Span(3, 20, 3, 23)),
        ChainStep("shop.b", "shop.a", "src/shop/b.py", Span(1, 15, 1, 16)),
    )
    cycle = attrs.evolve(finding(3, code="INW004", rule="import-cycles"), chain=steps)
    run = run_of(render(Report(findings=(cycle, finding()), files_checked=2)))
    first, second = run["results"]
    related = first["relatedLocations"]
    assert [(place["id"], place["message"]["text"]) for place in related] == [
        (1, "shop.a imports shop.b"),
        (2, "shop.b imports shop.a"),
    ]
    assert related[1]["physicalLocation"] == {
        "artifactLocation": {"uri": "src/shop/b.py", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1, "startColumn": 15, "endLine": 1, "endColumn": 16},
    }
    assert "relatedLocations" not in second  # a finding about one import has none


def test_uris_are_percent_encoded_and_may_carry_the_project_folder() -> None:
    report = Report(findings=(finding(file="src/my shop/ünï.py"),), files_checked=1)
    run = run_of(render(report, path_prefix="backend/"))
    uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "backend/src/my%20shop/%C3%BCn%C3%AF.py"


def test_a_file_outside_the_project_is_named_by_its_absolute_uri() -> None:
    # A problem in a user-root definition is reported in that file.
    report = Report(
        findings=(finding(file="/home/u/.config/inwards/rules/ACME001.toml"),), files_checked=1
    )
    location = run_of(render(report))["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {
        "uri": "file:///home/u/.config/inwards/rules/ACME001.toml"
    }


def test_fingerprint_survives_the_finding_moving_to_another_line() -> None:
    before = render(Report(findings=(finding(6),), files_checked=1))
    after = render(Report(findings=(finding(60),), files_checked=1))
    key = run_of(before)["results"][0]["partialFingerprints"][FINGERPRINT]
    assert run_of(after)["results"][0]["partialFingerprints"][FINGERPRINT] == key
    assert (
        run_of(after)["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 60
    )


def test_fingerprint_changes_when_the_finding_changes() -> None:
    base = finding()
    variants = [
        base,
        attrs.evolve(base, code="INW005"),
        attrs.evolve(base, file="src/shop/domain/other.py"),
        attrs.evolve(base, module="shop.domain.other"),
        finding(imported="shop.adapters.outbound.mailer"),
    ]
    values = [fingerprints([variant])[0] for variant in variants]
    assert len(set(values)) == len(values)
    # The unstable tail of a message (the allowed direction) is not part of it.
    assert fingerprints([attrs.evolve(base, message=base.stable_message + " Other tail.")]) == (
        fingerprints([base])
    )


def test_identical_findings_are_told_apart_by_their_occurrence() -> None:
    twice = (finding(6), finding(20))
    values = fingerprints(twice)
    assert values[0].split(":")[0] == values[1].split(":")[0]
    assert [value.split(":")[1] for value in values] == ["0", "1"]
    # Lines added above both keep both values.
    assert fingerprints((finding(16), finding(30))) == values


def test_inline_suppressed_findings_are_present_as_suppressed_in_source() -> None:
    hidden = finding(11, imported="shop.bootstrap")
    report = Report(
        findings=(finding(),),
        files_checked=1,
        suppressed=(SuppressedFinding(hidden, "kept until the move to ports"),),
    )
    results = run_of(render(report))["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results] == [
        6,
        11,
    ]
    assert results[1]["suppressions"] == [
        {"kind": "inSource", "justification": "kept until the move to ports"}
    ]
    assert "suppressions" not in results[0]
    assert results[0]["partialFingerprints"] != results[1]["partialFingerprints"]


def test_baselined_findings_are_external_suppressions_and_unchanged() -> None:
    accepted = finding(11, imported="shop.bootstrap")
    report = Report(
        findings=(finding(),),
        files_checked=1,
        baselined=(accepted,),
        baseline_resolved=(BaselineEntry("INW001", "shop.domain.gone", "An old import.", 2),),
        baseline_file="inwards-baseline.json",
    )
    run = run_of(render(report))
    new, old = run["results"]
    assert new["baselineState"] == "new" and "suppressions" not in new
    assert old["baselineState"] == "unchanged"
    assert old["suppressions"] == [
        {"kind": "external", "justification": "Accepted by the baseline inwards-baseline.json."}
    ]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert notes == [
        {
            "level": "note",
            "message": {
                "text": '2 findings of INW001 in shop.domain.gone that the baseline accepts ("An '
                'old import.") are no longer found: run `inwards baseline` to drop what was fixed.'
            },
        }
    ]


def test_without_a_baseline_no_result_has_a_baseline_state() -> None:
    run = run_of(render(Report(findings=(finding(),), files_checked=1)))
    assert "baselineState" not in run["results"][0]


def test_invocation_notifications_and_run_properties() -> None:
    report = Report(
        findings=(),
        files_checked=2,
        not_checked=(
            NotChecked("vendor", "vendor holds no Python module, so it was not checked."),
        ),
        whole_project=False,
        notes=("Whole-project checks were skipped: PATHS were named.",),
        rule_set_fingerprint="ab" * 32,
        user_definitions=(UserDefinitionInEffect("INW001", "/home/u/INW001.toml", "shadows core"),),
    )
    run = run_of(render(report, configuration_warnings=("user rules: X.toml is broken",)))
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is True
    assert invocation["exitCode"] == 0
    assert invocation["toolExecutionNotifications"] == [
        {
            "level": "warning",
            "message": {"text": "vendor holds no Python module, so it was not checked."},
            "properties": {"path": "vendor"},
        },
        {
            "level": "note",
            "message": {"text": "Whole-project checks were skipped: PATHS were named."},
        },
    ]
    assert invocation["toolConfigurationNotifications"] == [
        {"level": "warning", "message": {"text": "user rules: X.toml is broken"}}
    ]
    assert run["properties"] == {
        "filesChecked": 2,
        "wholeProject": False,
        "ruleSetFingerprint": "ab" * 32,
        "userDefinitions": [
            {"code": "INW001", "effect": "shadows core", "path": "/home/u/INW001.toml"}
        ],
    }
    assert run["results"] == []


def test_nothing_checked_is_an_unsuccessful_execution() -> None:
    report = Report(findings=(), files_checked=0, whole_project=False)
    invocation = run_of(render(report))["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["exitCode"] == 2


def test_the_run_configuration_is_recorded_where_it_differs_from_the_defaults() -> None:
    from inwards_core.model.findings import Severity as Level

    settings = RuleSettings(ignore=("INW010",), severity={"INW001": Level.WARNING})
    active = rules(settings)
    text = render_sarif(Report(findings=(), files_checked=1), active, source_root_uri=ROOT_URI)
    overrides = run_of(valid_sarif(text))["invocations"][0]["ruleConfigurationOverrides"]
    by_code = {item["descriptor"]["id"]: item for item in overrides}
    assert set(by_code) == {"INW001", "INW010"}
    codes = [a.code for a in active]
    assert by_code["INW010"]["descriptor"]["index"] == codes.index("INW010")
    assert by_code["INW010"]["configuration"] == {
        "enabled": False,
        "level": "error",
        "properties": {"enabledBy": "rules.ignore", "levelBy": "default"},
    }
    assert by_code["INW001"]["configuration"]["level"] == "warning"
    assert by_code["INW001"]["configuration"]["enabled"] is True


def test_a_shadowed_rule_names_its_origin_and_what_it_shadows() -> None:
    core = (
        resources.files("inwards_core.families.inw.definitions")
        .joinpath("INW001.toml")
        .read_text(encoding="utf-8")
    )
    # The core definition takes its kind's summary; the shadow says its own.
    shadow = core.replace(
        'name = "layer-dependency"\n',
        'name = "layer-dependency"\nsummary = "Our layers point inwards, and so must every import."\n',
    )
    assert shadow != core
    families = installed_families()
    rule_set = load_rules(families, InMemoryRuleSources(families, project={"INW001.toml": shadow}))
    text = render_sarif(
        Report(findings=(), files_checked=1),
        select(rule_set, RuleSettings()),
        source_root_uri=ROOT_URI,
    )
    rule = next(
        r for r in run_of(valid_sarif(text))["tool"]["driver"]["rules"] if r["id"] == "INW001"
    )
    assert rule["shortDescription"]["text"] == "Our layers point inwards, and so must every import."
    assert rule["properties"]["definition"]["root"] == "project"
    assert rule["properties"]["definition"]["path"] == ".inwards/rules/INW001.toml"
    assert [item["root"] for item in rule["properties"]["shadows"]] == ["core"]


def test_output_is_deterministic_and_holds_no_time() -> None:
    report = Report(
        findings=(finding(), finding(9, code="INW006", severity=Severity.WARNING)),
        files_checked=3,
        suppressed=(SuppressedFinding(finding(12, imported="x.y"), "why"),),
        duration_ms=12.5,
    )
    first = render_sarif(report, rules(), source_root_uri=ROOT_URI)
    second = render_sarif(attrs.evolve(report, duration_ms=99.0), rules(), source_root_uri=ROOT_URI)
    assert first == second
    # No invocation times (`startTimeUtc`, `endTimeUtc`); rule texts may say `DateTime`.
    assert "TimeUtc" not in first and "duration" not in first.lower()
    assert first.endswith("}\n")


def test_the_serialiser_writes_schema_names_and_leaves_out_nones_and_defaults() -> None:
    result = om.Result(
        message=om.Message(text="m"),
        rule_id="INW001",
        level="warning",
        partial_fingerprints={"inwards/v1": "x:0"},
    )
    # `level` is written even at its default; `kind`, `rank`, `ruleIndex` (defaults) are not.
    assert to_json_value(result) == {
        "message": {"text": "m"},
        "ruleId": "INW001",
        "level": "warning",
        "partialFingerprints": {"inwards/v1": "x:0"},
    }
    run = to_json_value(om.Run(tool=om.Tool(driver=om.ToolComponent(name="inwards"))))
    assert run == {"tool": {"driver": {"name": "inwards"}}}  # no default language or lists


def test_the_schema_check_is_real() -> None:
    document = json.loads(
        render_sarif(
            Report(findings=(finding(),), files_checked=1), rules(), source_root_uri=ROOT_URI
        )
    )
    document["runs"][0]["results"][0]["level"] = "fatal"
    del document["version"]
    problems = schema_errors(document)
    assert any("version" in problem for problem in problems)
    assert any("fatal" in problem for problem in problems)


def test_result_message_without_steps() -> None:
    bare = attrs.evolve(finding(), fix=Fix("Only a summary."))
    assert result_message(bare) == f"{bare.message}\nFix: Only a summary."


def test_github_ingestion_rules_accept_every_kind_of_result() -> None:
    tool = require_multitool()
    report = Report(
        findings=(
            finding(),
            attrs.evolve(
                finding(4, code="INW004", rule="import-cycles"),
                chain=(ChainStep("shop.a", "shop.b", "src/shop/a.py", Span(4, 1, 4, 9)),),
            ),
            finding(9, code="INW006", severity=Severity.WARNING),
            finding(1, file="/home/u/.config/inwards/rules/ACME001.toml"),
        ),
        files_checked=3,
        suppressed=(SuppressedFinding(finding(12, imported="x.y"), "why"),),
        baselined=(finding(20, imported="a.b"),),
        baseline_resolved=(BaselineEntry("INW001", "m", "gone", 1),),
        baseline_file="inwards-baseline.json",
        not_checked=(
            NotChecked("vendor", "vendor holds no Python module, so it was not checked."),
        ),
        notes=("A note.",),
    )
    text = render_sarif(
        report, rules(), source_root_uri=ROOT_URI, configuration_warnings=("A warning.",)
    )
    valid_sarif(text)
    # The same log without the rules' help, which GitHub requires: the check is real.
    broken = json.loads(text)
    for rule in broken["runs"][0]["tool"]["driver"]["rules"]:
        del rule["help"]
    problems = multitool_problems(tool, {"full": text, "no-help": json.dumps(broken)})
    assert problems["full"] == []
    assert problems["no-help"], problems
    assert all("GH2012" in problem for problem in problems["no-help"]), problems


@pytest.mark.parametrize("severity", list(Severity))
def test_levels_follow_the_finding_severity(severity: Severity) -> None:
    run = run_of(render(Report(findings=(finding(severity=severity),), files_checked=1)))
    assert run["results"][0]["level"] == severity.value


def test_pretty_output_is_the_same_log_indented() -> None:
    report = Report(findings=(finding(),), files_checked=1)
    compact = render_sarif(report, rules(), source_root_uri=ROOT_URI)
    pretty = render_sarif(report, rules(), source_root_uri=ROOT_URI, pretty=True)
    assert compact.count("\n") == 1 and pretty.startswith('{\n  "$schema": ')
    assert json.loads(pretty) == json.loads(compact)
