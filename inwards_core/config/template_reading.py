"""`[tool.inwards.templates.<name>]` read into `Template` values, strictly.

A template is read whether or not an entry uses it, so a mistake in one shows at once. Its
shape keys (`allow`, `require`, `forbid`, `extra`, `hints`) are checked here only for their
type: the `[[tool.inwards.shape]]` reader checks their values once they are copied into a
shape, at the template's own keys (`inwards_core.config.templates` says where each copied
value came from).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from inwards_core.config.entries import any_string, dotted_name_problem
from inwards_core.config.problems import PREFIX, ProblemCollector, known_keys, sub_key, type_name

TEMPLATES_KEY = f"{PREFIX}.templates"
TEMPLATE_KEYS = ("roles", "public", "allow", "require", "forbid", "extra", "hints", "rules")
SHAPE_KEYS = ("allow", "require", "forbid", "extra", "hints")
_STRING_LISTS = ("allow", "require", "forbid")
RULE_LEVELS = ("error", "warning")
SIBLING_MARK = "|"


@attrs.frozen
class RoleRule:
    """One entry of a template's `rules`: `rule` turned on for the modules of `role`, with
    `True`, a severity or a table of options (`value`); `key` is the entry's dotted key."""

    role: str
    rule: str
    value: Any
    key: str


@attrs.frozen
class Template:
    """A template as written. `ranks` are its roles innermost first, each rank the sibling
    roles of one `"a | b"` entry, None when it has no valid `roles`; `public` None when it
    has no valid `public`; `given` the keys the template sets (valid or not)."""

    name: str
    key: str
    ranks: tuple[tuple[str, ...], ...] | None
    public: tuple[str, ...] | None
    shape: Mapping[str, Any]
    rules: tuple[RoleRule, ...]
    given: frozenset[str]

    @property
    def has_rules(self) -> bool:
        return bool(self.rules)

    def sub_key(self, name: str) -> str:
        return sub_key(self.key, name)


def read_templates(problems: ProblemCollector, value: Any) -> dict[str, Template]:
    """The templates of `[tool.inwards.templates]` by name, every problem added."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        problems.add(
            TEMPLATES_KEY,
            f"must be a table of templates, such as [tool.inwards.templates.slice], "
            f"not {type_name(value)}.",
        )
        return {}
    templates: dict[str, Template] = {}
    for name, table in value.items():
        key = sub_key(TEMPLATES_KEY, name)
        if not isinstance(table, Mapping):
            problems.add(
                key,
                f"must be a table of template keys (roles, public, ...), not {type_name(table)}.",
            )
            continue
        templates[name] = _template(problems, name, key, table)
    return templates


def _template(
    problems: ProblemCollector, name: str, key: str, table: Mapping[str, Any]
) -> Template:
    for unknown in table:
        if unknown not in TEMPLATE_KEYS:
            problems.add(
                sub_key(key, unknown),
                f"is not a template key. {known_keys(TEMPLATE_KEYS, unknown)}",
            )
    ranks = _roles(problems, table, key) if "roles" in table else None
    public = _public(problems, table, key) if "public" in table else None
    shape = {
        name: table[name]
        for name in SHAPE_KEYS
        if name in table and (name not in _STRING_LISTS or _strings(problems, table, name, key))
    }
    roles = {role for rank in ranks or () for role in rank}
    rules = (
        _rules(problems, table["rules"], f"{key}.rules", roles, ranks is not None)
        if ("rules" in table)
        else ()
    )
    return Template(name, key, ranks, public, shape, rules, frozenset(table))


def _strings(problems: ProblemCollector, table: Mapping[str, Any], name: str, key: str) -> bool:
    """Whether `table[name]` is an array of strings (the problems added when it isn't)."""
    before = len(problems.problems)
    problems.string_list(table, name, any_string, f"{key}.{name}")
    return len(problems.problems) == before


def _roles(
    problems: ProblemCollector, table: Mapping[str, Any], key: str
) -> tuple[tuple[str, ...], ...] | None:
    value = table["roles"]
    roles_key = f"{key}.roles"
    if not isinstance(value, list | tuple) or not value:
        shown = "an empty array" if isinstance(value, list | tuple) else type_name(value)
        problems.add(
            roles_key,
            "must be a non-empty array of roles, innermost first, such as "
            f'["domain", "application", "api | cli"], not {shown}.',
        )
        return None
    ranks: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for index, entry in enumerate(value):
        entry_key = f"{roles_key}[{index}]"
        rank = _rank(entry)
        if isinstance(rank, str):
            problems.add(entry_key, rank)
            return None
        repeated = next((role for role in rank if role in seen), None)
        if repeated is not None:
            problems.add(entry_key, f'names role "{repeated}" again; each role is one layer.')
            return None
        seen.update(rank)
        ranks.append(rank)
    return tuple(ranks)


def _rank(entry: Any) -> tuple[str, ...] | str:
    """The sibling roles of one `roles` entry, or why it is not one."""
    if not isinstance(entry, str):
        return f"must be a string, not {type_name(entry)}."
    roles = tuple(part.strip() for part in entry.split(SIBLING_MARK))
    for role in roles:
        if dotted_name_problem(role) is not None:
            return (
                f'"{entry}" must name a module below the layer\'s modules, such as "domain" '
                'or "adapters.db", or sibling roles joined by "|", such as "api | cli".'
            )
    if len(set(roles)) != len(roles):
        return f'"{entry}" names one sibling role twice.'
    return roles


def _public(
    problems: ProblemCollector, table: Mapping[str, Any], key: str
) -> tuple[str, ...] | None:
    def relative(text: str) -> str | None:
        if dotted_name_problem(text) is None:
            return None
        return (
            f'"{text}" must name a module below the context\'s modules, such as "api"; '
            "the template adds it to each of them."
        )

    before = len(problems.problems)
    public = problems.string_list(table, "public", relative, f"{key}.public")
    return public if len(problems.problems) == before else None


def _rules(
    problems: ProblemCollector, value: Any, key: str, roles: set[str], roles_valid: bool
) -> tuple[RoleRule, ...]:
    if not isinstance(value, Mapping):
        problems.add(
            key,
            'must be a table of roles, such as { api = { my-rule = "warning" } }, '
            f"not {type_name(value)}.",
        )
        return ()
    entries: list[RoleRule] = []
    for role, rules in value.items():
        role_key = sub_key(key, role)
        if not roles_valid:
            continue  # the template's roles are missing or wrong: said at `roles` or at use
        if role not in roles:
            listed = ", ".join(f'"{r}"' for r in sorted(roles))
            problems.add(role_key, f"is not a role of this template. Its roles: {listed}.")
            continue
        if not isinstance(rules, Mapping):
            problems.add(
                role_key,
                "must be a table of rule names, such as { my-rule = true }, "
                f"not {type_name(rules)}.",
            )
            continue
        for rule, setting in rules.items():
            rule_key = sub_key(role_key, rule)
            problem = _setting_problem(setting)
            if problem:
                problems.add(rule_key, problem)
            else:
                entries.append(RoleRule(role, rule, setting, rule_key))
    return tuple(entries)


def _setting_problem(setting: Any) -> str | None:
    if setting is True or setting in RULE_LEVELS:
        return None
    if isinstance(setting, Mapping):
        if "modules" in setting:
            return (
                "sets `modules`, which the template fills with the role's modules; list "
                "other modules in the rule's own [tool.inwards.rules.<name>] table."
            )
        return None
    shown = f'"{setting}"' if isinstance(setting, str) else type_name(setting)
    return (
        f'must be true, "error", "warning" or a table of the rule\'s options, not {shown}; '
        "a rule a template doesn't name stays as it is, so leave it out to keep it off."
    )
