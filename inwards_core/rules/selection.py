"""Selection: `[tool.inwards.rules]` (select, extend-select, ignore, severity and a table of
options per rule) applied, after resolution, to the active set. Disabling is not shadowing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from inwards_core.config.values import ConfigProblem, RuleSettings
from inwards_core.model.findings import Severity
from inwards_core.rules.options import OptionsError, parse_options
from inwards_core.rules.rule_set import ResolvedRule, RuleSet


@attrs.frozen
class ActiveRule:
    """A resolved rule after `[tool.inwards.rules]`: enabled or not, effective severity,
    effective options, and the key that decided each."""

    rule: ResolvedRule
    enabled: bool
    severity: Severity
    options: Any
    decided_by: str
    severity_decided_by: str

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def name(self) -> str:
        return self.rule.name


def validate_rule_settings(
    settings: RuleSettings, rule_set: RuleSet, config_file: str, positions: Any
) -> tuple[ConfigProblem, ...]:
    """Unknown codes and names, always-on rules where they can't go, option tables the
    kind rejects."""
    problems: list[ConfigProblem] = []
    codes = set(rule_set.codes)
    always_on = {rule.code for rule in rule_set.rules if rule.always_on}

    def add(key: str, message: str) -> None:
        where = positions.locate(key)
        problems.append(
            ConfigProblem(
                config_file, where[0] if where else None, where[1] if where else None, key, message
            )
        )

    for key, code in _listed_codes(settings):
        if code.upper() not in codes:
            add(key, _unknown_code(code, rule_set))
        elif key.startswith("tool.inwards.rules.ignore[") and code.upper() in always_on:
            add(key, f"can't list {code.upper()}: it is always on (its definition says so).")
    for code in settings.severity:
        key = f"tool.inwards.rules.severity.{code}"
        if code.upper() not in codes:
            add(key, _unknown_code(code, rule_set))
        elif code.upper() in always_on:
            add(key, f"can't change the severity of {code.upper()}.")
    for name, table in settings.options.items():
        key = f"tool.inwards.rules.{name}"
        rule = rule_set.by_name(name)
        if rule is None:
            known = ", ".join(sorted(r.name for r in rule_set.rules))
            add(key, f'"{name}" is not a rule name or a rules key. Known rule names: {known}.')
        elif rule.always_on:
            add(key, f"can't be set: {rule.code} is always on and can't be configured.")
        else:
            try:
                parse_options(rule.kind.options_type, {**rule.definition.options, **table}, key)
            except OptionsError as error:
                add(error.key, error.message)
    return tuple(problems)


def _listed_codes(settings: RuleSettings) -> Iterable[tuple[str, str]]:
    """(key, code) for every code of select, extend-select and ignore."""
    lists: Iterable[tuple[str, tuple[str, ...]]] = (
        ("select", settings.select or ()),
        ("extend-select", settings.extend_select),
        ("ignore", settings.ignore),
    )
    for list_name, items in lists:
        for index, code in enumerate(items):
            yield f"tool.inwards.rules.{list_name}[{index}]", code


def _unknown_code(code: str, rule_set: RuleSet) -> str:
    return f'"{code}" is not a rule code. Known codes: {", ".join(sorted(rule_set.codes))}.'


def select(rule_set: RuleSet, settings: RuleSettings) -> tuple[ActiveRule, ...]:
    """Apply select / extend-select / ignore / severity / option tables to the active set.

    Assumes `validate_rule_settings` found nothing."""
    select_codes = None if settings.select is None else {c.upper() for c in settings.select}
    extend = {c.upper() for c in settings.extend_select}
    ignore = {c.upper() for c in settings.ignore}
    severity = {c.upper(): s for c, s in settings.severity.items()}
    active: list[ActiveRule] = []
    for rule in rule_set.rules:
        code = rule.code
        enabled, decided = _enabled(rule, select_codes, extend, ignore)
        if code in severity:
            level, level_by = severity[code], "rules.severity"
        else:
            level, level_by = rule.definition.severity, "default"
        table = settings.options.get(rule.name)
        options = rule.options
        if table is not None:
            options = parse_options(
                rule.kind.options_type,
                {**rule.definition.options, **table},
                f"tool.inwards.rules.{rule.name}",
            )
        active.append(ActiveRule(rule, enabled, level, options, decided, level_by))
    return tuple(active)


def _enabled(
    rule: ResolvedRule, select_codes: set[str] | None, extend: set[str], ignore: set[str]
) -> tuple[bool, str]:
    """Whether the rule runs, and the key that decided it."""
    code = rule.code
    if rule.always_on:
        return True, "always on"
    if code in ignore:
        return False, "rules.ignore"
    if select_codes is not None:
        if code in select_codes:
            return True, "rules.select"
        if code in extend:
            return True, "rules.extend-select"
        return False, "not in rules.select"
    if code in extend:
        return True, "rules.extend-select"
    enabled = rule.definition.default == "on"
    return enabled, "default" if enabled else "opt-in"
