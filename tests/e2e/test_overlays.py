"""Overlays on the command line and in every report, through the installed CLI with a real
XDG_CONFIG_HOME and project directory: `rules shadow --overlay --set/--unset`, `rules
explain` (who set each field, the chain, conflicts), the `rules` table, JSON and SARIF, and
a whole-file shadow of an overlay."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from tests.e2e.test_rule_roots import Roots, core_text, edited, findings, roots, rule_row
from tests.reporting.sarif_check import valid_sarif

__all__ = ["roots"]  # the fixture, imported for the tests below


def shadow_overlay(roots: Roots, code: str, to: str, *arguments: str) -> str:
    done = roots.run("rules", "shadow", code, "--to", to, "--overlay", *arguments)
    assert done.code == 0, done.stderr
    return done.stdout.strip()


def test_shadow_overlay_set_writes_a_minimal_file_that_takes_effect(roots: Roots) -> None:
    path = shadow_overlay(
        roots,
        "INW011",
        "project",
        "--set",
        "severity=warning",
        "--set",
        'guidance.steps=["Ask the architect first."]',
        "--unset",
        "guidance.variants",
    )
    assert path == str(roots.project_rules / "INW011.toml")
    text = (roots.project_rules / "INW011.toml").read_text()
    assert text.startswith("# Overlay of INW011, made by `inwards rules shadow INW011 --to")
    table = tomllib.loads(text)
    assert set(table) == {"overlays", "severity", "unset", "guidance", "overlay"}
    assert table["overlays"] == "INW011"
    assert table["unset"] == ["guidance.variants"]
    recorded = table["overlay"]
    assert recorded["root"] == "core" and recorded["distribution"] == "inwards-lint"
    assert recorded["path"].endswith("INW011.toml") and len(recorded["sha256"]) == 64
    assert recorded["was"]["severity"] == "error"
    assert recorded["was"]["guidance.steps"][0].startswith("Delete `{statement}`")
    assert set(recorded["was"]["guidance.variants"]) == {"unreadable-target", "unreadable-code"}
    # It takes effect: a warning now, with the overlay's step and core's summary.
    report = roots.check_json()
    (finding,) = findings(report, "INW011")
    assert finding["severity"] == "warning" and finding["origin"] == "project"
    assert finding["fix"]["steps"] == ["Ask the architect first."]
    assert finding["fix"]["summary"].startswith("Invert the dependency")
    row = rule_row(roots.rules_json(), "INW011")
    assert [link["root"] for link in row["overlayChain"]] == ["core", "project"]
    assert rule_row(roots.rules_json(), "INW005")["overlayChain"] == []
    table_text = roots.run("rules").stdout
    assert "project, overlays core (inw)" in table_text
    assert roots.run("check", "--no-cache").stderr == ""


def test_a_bad_set_exits_2_naming_the_argument(roots: Roots) -> None:
    done = roots.run("rules", "shadow", "INW005", "--to", "project", "--overlay", "--set", "x")
    assert done.code == 2 and "--set x: is not KEY=VALUE" in done.stderr
    done = roots.run(
        "rules", "shadow", "INW005", "--to", "project", "--overlay", "--set", "severty=warning"
    )
    assert done.code == 2, done.stderr
    assert "--set severty=warning:" in done.stderr and '"severity"' in done.stderr
    done = roots.run(
        "rules", "shadow", "INW005", "--to", "project", "--overlay", "--set", "severity=fatal"
    )
    assert done.code == 2 and "--set severity=fatal:" in done.stderr
    done = roots.run("rules", "shadow", "INW005", "--to", "project", "--set", "severity=warning")
    assert done.code == 2 and "add --overlay" in done.stderr
    assert not roots.project_rules.exists()  # nothing was written


def test_extend_keys_and_print(roots: Roots) -> None:
    done = roots.run(
        "rules",
        "shadow",
        "INW005",
        "--to",
        "project",
        "--overlay",
        "--print",
        "--set",
        'options.extend-modules=["shop.application"]',
    )
    assert done.code == 0, done.stderr
    assert not roots.project_rules.exists()  # --print writes nothing
    table = tomllib.loads(done.stdout)
    assert table["options"] == {"extend-modules": ["shop.application"]}
    # An upstream change to an extended array is inherited: nothing is recorded for it.
    assert "was" not in table["overlay"] and "was-absent" not in table["overlay"]


def test_explain_shows_who_set_each_field(roots: Roots) -> None:
    user = shadow_overlay(roots, "INW011", "user", "--set", "severity=warning")
    project = shadow_overlay(roots, "INW011", "project", "--set", 'guidance.summary="Ours."')
    done = roots.run("rules", "explain", "INW011")
    assert done.code == 0, done.stderr
    out = done.stdout
    assert "in force: the project overlay" in out
    severity = next(line for line in out.splitlines() if line.strip().startswith("severity ="))
    assert '"warning"' in severity and f"# user {user}" in severity
    summary = next(line for line in out.splitlines() if "guidance.summary =" in line)
    assert '"Ours."' in summary and "# project .inwards/rules/INW011.toml" in summary
    check = next(line for line in out.splitlines() if line.strip().startswith("check ="))
    assert "# core " in check
    chain = out.split("Overlay chain, lowest root first:")[1]
    assert chain.index("core") < chain.index(user) < chain.index(".inwards/rules/INW011.toml")
    document = json.loads(roots.run("rules", "explain", "INW011", "--json").stdout)
    assert [link["root"] for link in document["overlayChain"]] == ["core", "user", "project"]
    assert document["overlayChain"][0]["base"] is None
    assert document["overlayChain"][2]["base"]["root"] == "user"
    assert document["fields"]["severity"]["root"] == "user"
    assert document["fields"]["guidance.summary"]["path"].endswith(project.rsplit("/", 1)[-1])
    assert document["conflicts"] == []


def test_a_conflict_shows_in_check_status_and_explain(roots: Roots) -> None:
    # A user whole file stands for upstream: the project overlay is written over it...
    roots.add_user("INW011.toml", edited("INW011", summary='"First summary"'))
    shadow_overlay(roots, "INW011", "project", "--set", 'summary="Project summary"')
    assert roots.run("check", "--no-cache").stderr == ""
    # ...then upstream changes the field the overlay sets.
    roots.add_user("INW011.toml", edited("INW011", summary='"Second summary"'))
    check = roots.run("check", "--no-cache")
    assert check.code == 1  # the findings, not the conflict: it is a warning
    assert "warning:" in check.stderr and "summary" in check.stderr
    assert "First summary" in check.stderr and "Second summary" in check.stderr
    status = roots.run("status")
    assert status.code == 0, status.stderr
    assert "Overlay conflicts (1; `inwards rules explain CODE` shows each):" in status.stdout
    assert "INW011 overlay conflict at summary" in status.stdout
    (listed,) = roots.status_json()["overlayConflicts"]
    assert (listed["key"], listed["was"], listed["now"], listed["ours"]) == (
        "summary",
        "First summary",
        "Second summary",
        "Project summary",
    )
    explain = roots.run("rules", "explain", "INW011").stdout
    conflicts = explain.split("Conflicts")[1]
    assert 'upstream was   "First summary"' in conflicts
    assert 'upstream now   "Second summary"' in conflicts
    assert 'this overlay   sets "Project summary"' in conflicts
    document = json.loads(roots.run("rules", "explain", "INW011", "--json").stdout)
    (conflict,) = document["conflicts"]
    assert (conflict["key"], conflict["was"], conflict["now"], conflict["ours"]) == (
        "summary",
        "First summary",
        "Second summary",
        "Project summary",
    )
    report = roots.check_json()
    (overlay,) = report["ruleSet"]["overlays"]
    assert overlay["conflicts"] == 1


def _sarif(roots: Roots) -> dict[str, Any]:
    done = roots.run("check", "--format", "sarif", "--no-cache")
    assert done.code == 1, done.stderr
    document: dict[str, Any] = valid_sarif(done.stdout)
    return document


def test_json_and_sarif_carry_the_overlay_chain(roots: Roots) -> None:
    shadow_overlay(roots, "INW005", "user", "--set", "severity=warning")
    shadow_overlay(roots, "INW005", "project", "--set", 'guidance.summary="Ours."')
    report = roots.check_json()
    (overlay,) = report["ruleSet"]["overlays"]
    assert overlay["code"] == "INW005" and overlay["conflicts"] == 0
    assert [link["root"] for link in overlay["chain"]] == ["core", "user", "project"]
    assert overlay["chain"][2]["path"] == ".inwards/rules/INW005.toml"
    # Per rule, not per finding: a diagnostic keeps its one origin.
    assert all(set(d) >= {"origin"} and "overlayChain" not in d for d in report["diagnostics"])
    sarif = _sarif(roots)
    run = sarif["runs"][0]
    rule = next(r for r in run["tool"]["driver"]["rules"] if r["id"] == "INW005")
    assert [link["root"] for link in rule["properties"]["overlayChain"]] == [
        "core",
        "user",
        "project",
    ]
    assert run["properties"]["overlays"][0]["code"] == "INW005"
    text = roots.run("check", "--no-cache").stdout
    assert "INW005 (warning) [core < user < project overlay]" in text
    # The chain itself is for status and rules explain, not the end of every report.
    assert "Overlays in effect" not in text
    assert "1 overlaying a core rule (INW005)" in roots.run("status").stdout
    explained = roots.run("rules", "explain", "INW005").stdout
    assert "Overlay chain, lowest root first:" in explained


def test_a_whole_file_shadow_of_an_overlay_flattens_it(roots: Roots) -> None:
    shadow_overlay(roots, "INW011", "user", "--set", "severity=warning", "--unset", "guidance")
    done = roots.run("rules", "shadow", "INW011", "--to", "project")
    assert done.code == 0, done.stderr
    text = (roots.project_rules / "INW011.toml").read_text()
    table = tomllib.loads(text)
    assert "overlays" not in table and "overlay" not in table and "guidance" not in table
    assert (table["code"], table["name"], table["check"]) == (
        "INW011",
        "dynamic-import",
        "inw.dynamic-import",
    )
    assert table["severity"] == "warning"  # the user overlay's, merged in
    assert table["shadow"]["root"] == "user"
    assert "overlay" in text.split("code =")[0]  # the header names what was flattened
    row = rule_row(roots.rules_json(), "INW011")
    assert row["origin"]["root"] == "project" and row["stale"] is None
    (finding,) = findings(roots.check_json(), "INW011")
    assert finding["severity"] == "warning" and finding["fix"]["steps"] == []
    assert core_text("INW011")  # the core file is untouched


def test_refresh_records_the_base_again_after_a_conflict(roots: Roots) -> None:
    roots.add_user("INW011.toml", edited("INW011", summary='"First summary"'))
    path = shadow_overlay(roots, "INW011", "project", "--set", 'summary="Project summary"')
    written = Path(path).read_text(encoding="utf-8")
    ours = 'summary = "Project summary"\n'
    Path(path).write_text(
        written.replace(ours, ours + "# a comment of ours, kept by --refresh\n"), encoding="utf-8"
    )
    roots.add_user("INW011.toml", edited("INW011", summary='"Second summary"'))
    assert "overlay conflict" in roots.run("check", "--no-cache").stderr
    refused = roots.run("rules", "shadow", "INW011", "--to", "project", "--refresh")
    assert refused.code == 2 and "add --overlay" in refused.stderr
    done = roots.run("rules", "shadow", "INW011", "--to", "project", "--overlay", "--refresh")
    assert done.code == 0, done.stderr
    text = (roots.project_rules / "INW011.toml").read_text()
    assert "# a comment of ours, kept by --refresh" in text
    table = tomllib.loads(text)
    assert table["summary"] == "Project summary"  # the overlay's own fields stay
    assert table["overlay"]["was"] == {"summary": "Second summary"}
    assert roots.run("check", "--no-cache").stderr == ""
    missing = roots.run("rules", "shadow", "INW005", "--to", "project", "--overlay", "--refresh")
    assert missing.code == 2 and "no overlay in the project root" in missing.stderr


def test_a_flattened_copy_goes_stale_when_a_definition_below_the_overlay_changes(
    roots: Roots, tmp_path: Path
) -> None:
    # An org whole file under a user overlay: the project copy flattens both. Upstream
    # then edits the org file; the user overlay's own bytes don't change, the merge does.
    org = tmp_path / "org"
    org.mkdir()
    (org / "INW011.toml").write_text(edited("INW011", summary='"Org summary"'))
    env = {"INWARDS_ORG_RULES_DIR": str(org)}
    done = roots.run(
        "rules",
        "shadow",
        "INW011",
        "--to",
        "user",
        "--overlay",
        "--set",
        "severity=warning",
        env=env,
    )
    assert done.code == 0, done.stderr
    done = roots.run("rules", "shadow", "INW011", "--to", "project", env=env)
    assert done.code == 0, done.stderr
    assert rule_row(roots.rules_json(env=env), "INW011")["stale"] is None
    (org / "INW011.toml").write_text(edited("INW011", summary='"New org summary"'))
    stale = rule_row(roots.rules_json(env=env), "INW011")["stale"]
    assert stale is not None, "the copy no longer matches the merged definition below it"


def test_status_counts_overlays_apart_from_shadows(roots: Roots) -> None:
    shadow_overlay(roots, "INW011", "project", "--set", "severity=warning")
    roots.run("rules", "shadow", "INW005", "--to", "project")
    done = roots.run("status")
    assert done.code == 0, done.stderr
    assert (
        "2 rules: 1 shadowing a core rule (INW005), 1 overlaying a core rule (INW011)"
        in done.stdout
    )
    (project,) = [r for r in roots.status_json()["roots"] if r["root"] == "project"]
    assert (project["shadowing"], project["overlaying"]) == (
        {"core": ["INW005"]},
        {"core": ["INW011"]},
    )
