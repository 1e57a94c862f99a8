"""The `rules` of templates gathered into `TemplateRule`s: for each rule a template names,
the modules of every role that names it (over every layer that uses the template), the
keys that turn it on, its severity and its options.

Two role entries that give one rule different severities, or one option different values,
contradict each other: that is a problem naming both keys. A value the user sets in the
rule's own `[tool.inwards.rules.<name>]` table wins over every template, so there a
disagreement is no problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.config.feature_values import TemplateRule
from inwards_core.config.problems import PREFIX, ProblemCollector, sub_key
from inwards_core.config.template_reading import RULE_LEVELS, RoleRule
from inwards_core.model.findings import Severity


@attrs.define
class _Gathered:
    modules: dict[str, None] = attrs.field(factory=dict)  # ordered, without repeats
    keys: dict[str, None] = attrs.field(factory=dict)
    severity: tuple[str, str] | None = None  # (level, key)
    options: dict[str, tuple[Any, str]] = attrs.field(factory=dict)  # name: (value, key)


class RuleGatherer:
    """Collects the role entries of every layer that uses a template with `rules`."""

    def __init__(self, problems: ProblemCollector, user_rules: Any) -> None:
        self._problems = problems
        self._user_rules = user_rules if isinstance(user_rules, Mapping) else {}
        self._rules: dict[str, _Gathered] = {}

    def add(self, entry: RoleRule, modules: list[str]) -> None:
        gathered = self._rules.setdefault(entry.rule, _Gathered())
        gathered.modules.update(dict.fromkeys(modules))
        gathered.keys[entry.key] = None
        if entry.value in RULE_LEVELS:
            self._severity(gathered, entry)
        elif isinstance(entry.value, Mapping):
            for name, value in entry.value.items():
                self._option(gathered, entry, name, value)

    def rules(self) -> tuple[TemplateRule, ...]:
        return tuple(
            TemplateRule(
                name=name,
                modules=tuple(gathered.modules),
                keys=tuple(gathered.keys),
                severity=Severity(gathered.severity[0]) if gathered.severity else None,
                severity_key=gathered.severity[1] if gathered.severity else None,
                options={option: value for option, (value, _) in gathered.options.items()},
            )
            for name, gathered in self._rules.items()
        )

    def _severity(self, gathered: _Gathered, entry: RoleRule) -> None:
        if gathered.severity is None:
            gathered.severity = (entry.value, entry.key)
        elif gathered.severity[0] != entry.value:
            level, first = gathered.severity
            self._problems.add(
                entry.key,
                f'makes {entry.rule} "{entry.value}", but {first} makes it "{level}"; a rule '
                "has one severity. Write the same level in both, or true in one of them.",
            )

    def _option(self, gathered: _Gathered, entry: RoleRule, name: str, value: Any) -> None:
        key = sub_key(entry.key, name)
        first = gathered.options.setdefault(name, (value, key))
        if first[0] == value or self._user_sets(entry.rule, name):
            return
        self._problems.add(
            key,
            f"disagrees with {first[1]}: a rule has one value per option. Give both the "
            f"same value, or set it once in [{sub_key(PREFIX + '.rules', entry.rule)}], which wins over "
            "every template.",
        )

    def _user_sets(self, rule: str, option: str) -> bool:
        table = self._user_rules.get(rule)
        return isinstance(table, Mapping) and option in table
