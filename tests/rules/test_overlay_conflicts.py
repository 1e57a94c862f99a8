"""Overlay conflicts: an upstream change to a field an overlay sets or unsets, one test per
kind. "Upstream" is a user whole-file INW014 under a project overlay; the overlay records
the base it was written against (`[overlay]` sha256 and `[overlay.was]`)."""

from __future__ import annotations

import json
import textwrap

from inwards_core.rules.overlay_conflicts import CONFLICT_KINDS, OverlayConflict
from tests.rules.test_overlays import CORE_014, resolved, rule

OLD = CORE_014 + '\n[options]\nmodules = ["shop.ports"]\ncheck-tests = false\n'


def digest(base: str) -> str:
    return rule(resolved(user={"INW014.toml": base})).definition.table_sha256


def overlay(body: str, was: dict[str, object], absent: tuple[str, ...] = ()) -> str:
    was_lines = "".join(f'"{key}" = {json.dumps(value)}\n' for key, value in was.items())
    absent_line = f"was-absent = {json.dumps(list(absent))}\n" if absent else ""
    return (
        'overlays = "INW014"\n'
        + textwrap.dedent(body)
        + f'\n[overlay]\nroot = "user"\nsha256 = "{digest(OLD)}"\n{absent_line}'
        + f"\n[overlay.was]\n{was_lines}"
    )


def conflicts(new_base: str, overlay_text: str) -> tuple[OverlayConflict, ...]:
    rule_set = resolved(user={"INW014.toml": new_base}, project={"INW014.toml": overlay_text})
    rule(rule_set)  # no problems, INW014 in force
    return rule_set.conflicts


def test_no_conflict_while_the_base_is_unchanged() -> None:
    text = overlay('severity = "warning"\n', {"severity": "error"})
    assert conflicts(OLD, text) == ()


def test_changes_to_fields_left_alone_are_inherited_silently() -> None:
    text = overlay('severity = "warning"\n', {"severity": "error"})
    new = OLD.replace('default = "opt-in"', 'default = "on"')
    rule_set = resolved(user={"INW014.toml": new}, project={"INW014.toml": text})
    assert rule_set.conflicts == ()
    assert rule(rule_set).definition.default == "on"


def test_overridden_changed() -> None:
    text = overlay('severity = "warning"\n', {"severity": "error"})
    new = OLD.replace('severity = "error"', 'severity = "warning"')
    (found,) = conflicts(new, text)
    assert (found.kind, found.key, found.line) == ("overridden-changed", "severity", 2)
    assert (found.was, found.now, found.ours) == ("error", "warning", "warning")
    assert found.path == ".inwards/rules/INW014.toml"
    assert found.message == (
        'INW014 overlay conflict at severity: upstream changed "error" -> "warning"; '
        'this overlay sets "warning".'
    )
    rule_set = resolved(user={"INW014.toml": new}, project={"INW014.toml": text})
    assert ".inwards/rules/INW014.toml:2: " + found.message in rule_set.warnings()


def test_overridden_removed() -> None:
    text = overlay("[options]\ncheck-tests = true\n", {"options.check-tests": False})
    new = OLD.replace("check-tests = false\n", "")
    (found,) = conflicts(new, text)
    assert (found.kind, found.was, found.now, found.ours) == (
        "overridden-removed",
        False,
        None,
        True,
    )
    assert "upstream changed false -> (absent)" in found.message


def test_overridden_added() -> None:
    text = overlay('[options]\nallow-bases = ["shop.base"]\n', {}, ("options.allow-bases",))
    new = OLD + 'allow-bases = ["upstream.base"]\n'
    (found,) = conflicts(new, text)
    assert (found.kind, found.was, found.now, found.ours) == (
        "overridden-added",
        None,
        ["upstream.base"],
        ["shop.base"],
    )


def test_unset_changed() -> None:
    text = overlay('unset = ["options.modules"]\n', {"options.modules": ["shop.ports"]})
    new = OLD.replace('modules = ["shop.ports"]', 'modules = ["shop.ports", "shop.api"]')
    (found,) = conflicts(new, text)
    assert (found.kind, found.key, found.line) == ("unset-changed", "options.modules", 2)
    assert (found.was, found.now, found.ours) == (["shop.ports"], ["shop.ports", "shop.api"], None)
    assert found.message.endswith("this overlay unsets it.")


def test_unset_removed() -> None:
    text = overlay('unset = ["options.modules"]\n', {"options.modules": ["shop.ports"]})
    new = OLD.replace('modules = ["shop.ports"]\n', "")
    (found,) = conflicts(new, text)
    assert (found.kind, found.was, found.now) == ("unset-removed", ["shop.ports"], None)


def test_base_changed_unknown() -> None:
    text = overlay('severity = "warning"\n', {})
    new = OLD.replace('severity = "error"', 'severity = "warning"')
    (found,) = conflicts(new, text)
    assert found.kind == "base-changed-unknown"
    assert found.key == "overlay.sha256"
    assert "does not record what it had of severity" in found.message


def test_extended_arrays_inherit_upstream_changes() -> None:
    text = overlay('[options]\nextend-modules = ["shop.api"]\n', {})
    new = OLD.replace('modules = ["shop.ports"]', 'modules = ["shop.ports", "shop.adapters"]')
    rule_set = resolved(user={"INW014.toml": new}, project={"INW014.toml": text})
    assert rule_set.conflicts == ()
    assert rule(rule_set).definition.options["modules"] == [
        "shop.ports",
        "shop.adapters",
        "shop.api",
    ]


def test_an_overlay_without_a_recorded_base_has_no_conflicts() -> None:
    new = OLD.replace('severity = "error"', 'severity = "warning"')
    assert conflicts(new, 'overlays = "INW014"\nseverity = "error"\n') == ()


def test_every_kind_is_tested() -> None:
    tested = {name.removeprefix("test_").replace("_", "-") for name in globals()}
    assert set(CONFLICT_KINDS) <= tested
