"""Selection: `[tool.inwards.rules]` (select, extend-select, ignore, severity and a table of
options per rule) applied, after resolution, to the active set. Disabling is not shadowing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from inwards_core.config.problems import closest
from inwards_core.config.values import ConfigProblem, RuleSettings
from inwards_core.model.findings import Severity
from inwards_core.model.quoting import quoted
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.options import (
    OptionsError,
    known_options,
    needed_when_on,
    parse_options,
)
from inwards_core.rules.rule_set import ResolvedRule, RuleSet

if TYPE_CHECKING:
    from inwards_core.config.feature_values import TemplateRule

# The option a template fills with the modules of the roles that turn a rule on: `modules`
# (where the rule reports), or `role` for a kind that has one (INW015 construct-only-in:
# the role's modules are what the rule keeps in the composition root's hands, not where it
# reports).
TEMPLATE_MODULES = "modules"
TEMPLATE_ROLE = "role"


def template_option(options_type: type[Any]) -> str | None:
    """The option a template fills for a kind with these options, or None when it has
    neither `role` nor `modules`."""
    known = known_options(options_type)
    for name in (TEMPLATE_ROLE, TEMPLATE_MODULES):
        if name in known:
            return name
    return None


@attrs.frozen
class ActiveRule:
    """A resolved rule after `[tool.inwards.rules]`: enabled or not, effective severity,
    effective options, and the key that decided each."""

    __repr__ = value_repr

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
        if code.upper() in codes:
            if key.startswith("tool.inwards.rules.ignore[") and code.upper() in always_on:
                add(key, f"can't list {code.upper()}: it is always on (its definition says so).")
        elif not covered_codes(_list_of(key), code, rule_set, settings):
            add(key, _unknown_code(code, rule_set))
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
            names = tuple(sorted(r.name for r in rule_set.rules))
            close = closest(name, names)
            hint = f' Did you mean "{close}"?' if close else ""
            add(
                key,
                f'"{name}" is not a rule name or a rules key.{hint} '
                f"Known rule names: {', '.join(names)}.",
            )
        elif rule.always_on:
            add(key, f"can't be set: {rule.code} is always on and can't be configured.")
        else:
            try:
                parse_options(rule.kind.options_type, {**rule.definition.options, **table}, key)
            except OptionsError as error:
                add(error.key, error.message)
    for template in settings.templates:
        for key, message in _template_rule_problems(template, rule_set):
            add(key, message)
    for key, message in _needed_options_missing(settings, rule_set):
        add(key, message)
    return tuple(problems)


def _needed_options_missing(settings: RuleSettings, rule_set: RuleSet) -> Iterable[tuple[str, str]]:
    """A rule that select or extend-select turns on without an option it needs (INW015's
    `role`): at the entry that turns it on. A template fills what its roles give."""
    for key, code in _listed_codes(settings):
        rule = rule_set.by_code(code.upper())
        if rule is None or key.startswith("tool.inwards.rules.ignore["):
            continue
        given = {**rule.definition.options, **settings.options.get(rule.name, {})}
        for name in needed_when_on(rule.kind.options_type):
            if not given.get(name):
                yield (
                    key,
                    f"turns on {rule.code} {rule.name}, which needs `{name}`: set it in "
                    f"[tool.inwards.rules.{rule.name}] (see `inwards rule {rule.code}`).",
                )


def _template_rule_problems(template: TemplateRule, rule_set: RuleSet) -> Iterable[tuple[str, str]]:
    """What is wrong with a rule the templates turn on, at the first key naming it."""
    key = template.keys[0]
    rule = rule_set.by_name(template.name)
    if rule is None:
        by_code = rule_set.by_code(template.name)
        if by_code is not None:
            yield key, f'names a rule by its code; write its name, "{by_code.name}".'
            return
        opt_in = ", ".join(sorted(r.name for r in rule_set.rules if _opt_in(r)))
        yield (
            key,
            (
                f'"{template.name}" is not a rule name. Rules a template can turn on (the ones off '
                f"by default): {opt_in or 'none'}."
            ),
        )
    elif not _opt_in(rule):
        yield (
            key,
            (
                f"names {rule.code} {rule.name}, which is on by default, everywhere it checks; a "
                "template turns on a rule that is off by default, for its roles' modules only. "
                f"To narrow {rule.name}, set its options in [tool.inwards.rules.{rule.name}]."
            ),
        )
    elif template_option(rule.kind.options_type) is None:
        yield (
            key,
            (
                f"names {rule.code} {rule.name}, whose check kind {rule.kind.id} has no "
                f"`{TEMPLATE_MODULES}` option, so a template can't limit it to a role's modules."
            ),
        )
    else:
        try:
            parse_options(rule.kind.options_type, _template_options(rule, template), key)
        except OptionsError as error:
            yield error.key, error.message


def _opt_in(rule: ResolvedRule) -> bool:
    return not rule.always_on and rule.definition.default != "on"


def _template_options(
    rule: ResolvedRule, template: TemplateRule, table: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The definition's options, then the templates', then the user's table, which wins;
    `modules` (or `role`, `template_option`) is the user's entries and then the roles'
    modules."""
    target = template_option(rule.kind.options_type) or TEMPLATE_MODULES
    options = {**rule.definition.options, **template.options}
    modules: tuple[str, ...] = template.modules
    if table is not None:
        options.update(table)
        listed = tuple(table.get(target, ()))
        modules = listed + tuple(m for m in template.modules if m not in listed)
    options[target] = modules
    return options


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


def _list_of(key: str) -> str:
    """`select`, `extend-select` or `ignore`, from a key such as `tool.inwards.rules.ignore[2]`."""
    return key.removeprefix("tool.inwards.rules.").partition("[")[0]


def _unknown_code(code: str, rule_set: RuleSet) -> str:
    prefix = " or the start of one (a prefix such as INW0)" if code.isalnum() else ""
    return (
        f'"{quoted(code)}" is not a rule code{prefix}. '
        f"Known codes: {', '.join(sorted(rule_set.codes))}."
    )


def covered_codes(
    list_name: str, item: str, rule_set: RuleSet, settings: RuleSettings
) -> tuple[str, ...]:
    """The codes one entry of `select`, `extend-select` or `ignore` stands for, in the
    configuration and on the command line alike: a rule's code names that rule; a code
    prefix (`INW`, `FAPI0`: letters and digits only, so a mistyped name never matches) names
    every rule whose code starts so, as ruff takes them. A prefix names a group, not each
    rule in it: ignored, it leaves out the always-on rules (they can't be turned off);
    selected, the rules that can't run without an option the configuration doesn't give
    (INW015's `role`). Empty when the entry names no rule."""
    wanted = item.strip().upper()
    if rule_set.by_code(wanted) is not None:
        return (wanted,)
    if not wanted.isalnum():
        return ()
    if list_name == "ignore":
        covered = [r for r in rule_set.rules if r.code.startswith(wanted) and not r.always_on]
    else:
        covered = [
            r for r in rule_set.rules if r.code.startswith(wanted) and _runnable(r, settings)
        ]
    return tuple(sorted(rule.code for rule in covered))


def _covered_set(
    list_name: str, items: Iterable[str], rule_set: RuleSet, settings: RuleSettings
) -> set[str]:
    return {code for item in items for code in covered_codes(list_name, item, rule_set, settings)}


def select(rule_set: RuleSet, settings: RuleSettings) -> tuple[ActiveRule, ...]:
    """Apply select / extend-select / ignore / severity / option tables to the active set.

    Assumes `validate_rule_settings` found nothing."""
    select_codes = (
        None
        if settings.select is None
        else _covered_set("select", settings.select, rule_set, settings)
    )
    extend = _covered_set("extend-select", settings.extend_select, rule_set, settings)
    ignore = _covered_set("ignore", settings.ignore, rule_set, settings)
    severity = {c.upper(): s for c, s in settings.severity.items()}
    active: list[ActiveRule] = []
    templates = {template.name: template for template in settings.templates}
    for rule in rule_set.rules:
        code = rule.code
        template = templates.get(rule.name)
        enabled, decided = _enabled(rule, select_codes, extend, ignore)
        if template is not None and not enabled and decided != "rules.ignore":
            enabled, decided = True, ", ".join(_short(key) for key in template.keys)
        if code in severity:
            level, level_by = severity[code], "rules.severity"
        elif template is not None and template.severity is not None:
            level, level_by = template.severity, _short(template.severity_key or "")
        else:
            level, level_by = rule.definition.severity, "default"
        table = settings.options.get(rule.name)
        options = rule.options
        key = f"tool.inwards.rules.{rule.name}"
        if template is not None:
            options = parse_options(
                rule.kind.options_type, _template_options(rule, template, table), key
            )
        elif table is not None:
            options = parse_options(
                rule.kind.options_type, {**rule.definition.options, **table}, key
            )
        active.append(ActiveRule(rule, enabled, level, options, decided, level_by))
    return tuple(active)


def _short(key: str) -> str:
    """A key as `rules` and `status` name the keys that decide: below [tool.inwards]."""
    return key.removeprefix("tool.inwards.")


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


class SelectionError(Exception):
    """A rule the command line names that the run can't select; `option` is the option
    that named it (`--select`, `--extend-select`, `--ignore`)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(f"{option}: {message}")
        self.option = option
        self.message = message


def _codes_of(
    option: str, values: Iterable[str], rule_set: RuleSet, settings: RuleSettings
) -> tuple[str, ...]:
    """The codes an option names: each value a comma-separated list of codes, names or
    code prefixes (`INW`, `FAPI0`: every rule whose code starts so, as ruff takes them)."""
    codes: list[str] = []
    for value in values:
        for item in value.split(","):
            wanted = item.strip()
            rule = rule_set.lookup(wanted) if wanted else None
            named = (
                (rule.code,)
                if rule is not None
                else covered_codes(option.removeprefix("--"), wanted, rule_set, settings)
            )
            if not named:
                from inwards_core.rules.lookup import did_you_mean  # only to say what's wrong

                shown = quoted(wanted)
                raise SelectionError(
                    option,
                    f'"{shown}" is not the code or name of a rule of this project.'
                    f"{did_you_mean(rule_set, wanted) if wanted else ''} "
                    "`inwards rules` lists them.",
                )
            codes.extend(code for code in named if code not in codes)
    return tuple(codes)


def _runnable(rule: ResolvedRule, settings: RuleSettings) -> bool:
    given = {**rule.definition.options, **settings.options.get(rule.name, {})}
    return all(given.get(name) for name in needed_when_on(rule.kind.options_type))


def override_selection(
    settings: RuleSettings,
    rule_set: RuleSet,
    *,
    select: Iterable[str] | None = None,
    extend_select: Iterable[str] = (),
    ignore: Iterable[str] = (),
) -> RuleSettings:
    """`[tool.inwards.rules]` with the command line's selection for one run: `select`
    replaces the configuration's select, extend-select and ignore (these rules and no
    others); `extend_select` adds rules, even ones the configuration ignores; `ignore`
    turns rules off, whatever selects them. Severities, option tables and templates stay.
    Raises SelectionError for a code or name no rule has, or an always-on rule ignored."""
    chosen = None if select is None else _codes_of("--select", select, rule_set, settings)
    extend = _codes_of("--extend-select", extend_select, rule_set, settings)
    ignored = _codes_of("--ignore", ignore, rule_set, settings)
    for code in ignored:
        rule = rule_set.by_code(code)
        if rule is not None and rule.always_on:
            raise SelectionError("--ignore", f"{code} is always on; it can't be turned off.")
    if chosen is not None:
        base_extend: tuple[str, ...] = ()
        base_ignore: tuple[str, ...] = ()
    else:
        chosen = settings.select
        base_extend = settings.extend_select
        # The configuration's entries as codes, so a prefix it ignores loses the rules the
        # command line turns on.
        base_ignore = tuple(
            sorted(_covered_set("ignore", settings.ignore, rule_set, settings) - set(extend))
        )
    return attrs.evolve(
        settings,
        select=chosen,
        extend_select=base_extend + extend,
        ignore=base_ignore + ignored,
    )
