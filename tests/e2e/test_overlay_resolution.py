"""Overlays through the installed CLI (docs/rules-roots-and-shadowing.md, "Overlay a
shipped rule" and "When upstream changes a field you overlay"): real project and user
roots under a temporary directory, real exit codes."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from inwards_core.rules.reading import table_digest
from tests.e2e.test_rule_roots import Roots, core_text, findings

OVERLAY_005 = """\
overlays = "INW005"
severity = "warning"

[[options.deny]]
modules = ["shop.application"]
libraries = ["importlib"]
"""


def test_a_project_overlay_changes_one_option_and_the_severity(tmp_path: Path) -> None:
    roots = Roots(tmp_path)
    (shipped,) = findings(roots.check_json(), "INW005")
    roots.add_project("INW005.toml", OVERLAY_005)
    report = roots.check_json()
    found = findings(report, "INW005")
    assert {(d["file"], d["severity"], d["origin"]) for d in found} == {
        ("shop/domain/order.py", "warning", "project"),
        ("shop/application/service.py", "warning", "project"),
    }
    # What the overlay leaves alone still comes from core: the guidance.
    order = next(d for d in found if d["file"] == "shop/domain/order.py")
    assert order["fix"] == shipped["fix"]
    text = roots.run("check", "--no-cache")
    assert text.code == 1, text.stderr  # INW011 stays an error
    assert "shop/application/service.py" in text.stdout
    assert "INW005" in text.stdout


def test_an_overlay_stacks_over_a_user_overlay(tmp_path: Path) -> None:
    roots = Roots(tmp_path)
    roots.add_user("INW005.toml", 'overlays = "INW005"\nseverity = "warning"\n')
    roots.add_project(
        "INW005.toml",
        'overlays = "INW005"\n[[options.deny]]\nmodules = ["shop.application"]\n'
        'libraries = ["importlib"]\n',
    )
    found = findings(roots.check_json(), "INW005")
    assert {(d["file"], d["severity"]) for d in found} == {
        ("shop/domain/order.py", "warning"),
        ("shop/application/service.py", "warning"),
    }


def test_a_broken_overlay_is_a_config_error_at_its_file_line_and_key(tmp_path: Path) -> None:
    roots = Roots(tmp_path)
    roots.add_project("INW005.toml", 'overlays = "INW005"\n\n[options]\ndenny = []\n')
    done = roots.run("check", "--no-cache")
    assert done.code == 2
    assert ".inwards/rules/INW005.toml:4" in done.stderr
    assert "options.denny" in done.stderr


def test_a_user_overlay_problem_only_warns(tmp_path: Path) -> None:
    roots = Roots(tmp_path)
    roots.add_user("INW005.toml", 'overlays = "INW005"\nseverity = "loud"\n')
    done = roots.run("check", "--no-cache", "--format", "json")
    assert done.code == 1, done.stderr  # the core findings, errors as shipped
    found = findings(json.loads(done.stdout), "INW005")
    assert {d["severity"] for d in found} == {"error"}


def test_check_warns_when_upstream_changed_a_field_the_overlay_sets(tmp_path: Path) -> None:
    roots = Roots(tmp_path)
    old = core_text("INW005")
    roots.add_user("INW005.toml", old)  # the "upstream" base, a whole file
    recorded = table_digest(tomllib.loads(old))  # what `rules shadow --overlay` records
    roots.add_project(
        "INW005.toml",
        'overlays = "INW005"\nseverity = "warning"\n\n'
        f'[overlay]\nroot = "user"\nsha256 = "{recorded}"\n\n'
        '[overlay.was]\nseverity = "error"\n',
    )
    quiet = roots.run("check", "--no-cache")
    assert "overlay conflict" not in quiet.stdout + quiet.stderr
    roots.add_user("INW005.toml", old.replace('severity = "error"', 'severity = "warning"'))
    done = roots.run("check", "--no-cache")
    assert done.code == 1, done.stderr
    output = done.stdout + done.stderr
    assert (
        ".inwards/rules/INW005.toml:2: INW005 overlay conflict at severity: upstream changed "
        '"error" -> "warning"; this overlay sets "warning".'
    ) in output
