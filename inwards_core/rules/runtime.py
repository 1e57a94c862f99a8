"""Rule definitions (data), the one resolver, and selection.

`parse_definition` reads one definition document; `resolve` decides, for every code, the
active definition (precedence project > user > core, dedup by code) and keeps the
shadowed ones; `select` applies `[tool.inwards.rules]` to the active set. Every consumer
(engine, `rules`, reporters, cache keys) goes through these functions.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from inwards_core.config.model import ConfigProblem, RuleSettings
from inwards_core.config.positions import TomlPositions
from inwards_core.model import Origin, RootKind, Severity
from inwards_core.ports import RuleDocument
from inwards_core.rules.kinds import CheckKind, Family, kinds_by_id
from inwards_core.rules.options import OptionsError, parse_options

CODE_PATTERN = re.compile(r"^[A-Z]{2,6}[0-9]{3}$")
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
ROOT_PRECEDENCE = {RootKind.CORE: 0, RootKind.USER: 1, RootKind.PROJECT: 2}

DEFINITION_KEYS = (
    "code",
    "name",
    "summary",
    "check",
    "default",
    "severity",
    "suppressible",
    "options",
    "guidance",
    "description",
    "shadow",
)
GUIDANCE_KEYS = ("summary", "steps", "docs")


@attrs.frozen
class Guidance:
    summary: str
    steps: tuple[str, ...]
    docs: str


@attrs.frozen
class RuleDefinition:
    code: str
    name: str
    summary: str
    check: str
    default: str  # "on" | "opt-in"
    severity: Severity
    suppressible: bool
    options: Mapping[str, Any]
    guidance: Guidance
    origin: Origin
    description: str = ""
    family: str = ""
    family_version: str = ""


@attrs.frozen
class DefinitionProblem:
    """A definition file that can't be used. In the project root this is a config error;
    in the user root a warning (the lower definition stays in force)."""

    root: RootKind
    path: str
    line: int | None
    key: str
    message: str

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


@attrs.frozen
class ResolvedRule:
    """The definition in force for one code, the kind it names, its default options
    (parsed from the definition), and the lower definitions it shadows (highest first)."""

    definition: RuleDefinition
    kind: CheckKind
    options: Any
    shadowed: tuple[RuleDefinition, ...] = ()

    @property
    def code(self) -> str:
        return self.definition.code

    @property
    def name(self) -> str:
        return self.definition.name


@attrs.frozen
class RuleSet:
    rules: tuple[ResolvedRule, ...]
    problems: tuple[DefinitionProblem, ...] = ()

    def by_code(self, code: str) -> ResolvedRule | None:
        code = code.upper()
        return next((r for r in self.rules if r.code == code), None)

    def by_name(self, name: str) -> ResolvedRule | None:
        return next((r for r in self.rules if r.name == name), None)

    def lookup(self, code_or_name: str) -> ResolvedRule | None:
        return self.by_code(code_or_name) or self.by_name(code_or_name.lower())

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.rules)

    def fingerprint(self, inwards_version: str) -> str:
        """Active definitions' bytes + kind versions + inwards version."""
        digest = hashlib.sha256(inwards_version.encode())
        for rule in self.rules:
            digest.update(
                f"\0{rule.code}\0{rule.definition.origin.sha256}\0{rule.kind.id}"
                f"@{rule.kind.version}".encode()
            )
        return digest.hexdigest()


def _string_list(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def parse_definition(
    document: RuleDocument, kinds: Mapping[str, tuple[Family, CheckKind]]
) -> RuleDefinition | DefinitionProblem:
    """Read one definition document. The file name (`<CODE>.toml`) is its identity."""
    path = document.path

    def problem(key: str, message: str) -> DefinitionProblem:
        line = positions.locate(key) if key else None
        return DefinitionProblem(document.root, path, line[0] if line else None, key, message)

    positions = TomlPositions("")
    try:
        text = document.data.decode("utf-8")
    except UnicodeDecodeError as error:
        return DefinitionProblem(document.root, path, None, "", f"is not UTF-8 text ({error}).")
    positions = TomlPositions(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line_match = re.search(r"line (\d+)", str(error))
        return DefinitionProblem(
            document.root,
            path,
            int(line_match.group(1)) if line_match else None,
            "",
            f"is not valid TOML: {error}.",
        )
    for key in data:
        if key not in DEFINITION_KEYS:
            return problem(
                key, f"is not a definition key. Known keys: {', '.join(DEFINITION_KEYS)}."
            )
    stem = path.rsplit("/", 1)[-1]
    stem = stem[: -len(".toml")] if stem.endswith(".toml") else stem
    for required in ("code", "name", "summary", "check"):
        if required not in data:
            return problem("", f"has no `{required}`.")
        if not isinstance(data[required], str) or not data[required].strip():
            return problem(required, "must be a non-empty string.")
    code = data["code"].upper()
    if not CODE_PATTERN.match(code):
        return problem(
            "code", f'"{data["code"]}" is not a rule code (2-6 capital letters and 3 digits).'
        )
    if code != stem.upper():
        return problem("code", f'is "{code}" but the file is named {stem}.toml; they must agree.')
    name = data["name"]
    if not NAME_PATTERN.match(name):
        return problem("name", f'"{name}" must be kebab-case (lower-case words joined by "-").')
    check = data["check"]
    if check not in kinds:
        known = ", ".join(sorted(kinds))
        return problem(
            "check", f'"{check}" is not a check kind of any installed family. Known kinds: {known}.'
        )
    default = data.get("default", "on")
    if default not in ("on", "opt-in"):
        return problem("default", 'must be "on" or "opt-in".')
    severity_text = data.get("severity", "error")
    if severity_text not in ("error", "warning"):
        return problem("severity", 'must be "error" or "warning".')
    suppressible = data.get("suppressible", True)
    if not isinstance(suppressible, bool):
        return problem("suppressible", "must be true or false.")
    description = data.get("description", "")
    if not isinstance(description, str):
        return problem("description", "must be a string.")
    options = data.get("options", {})
    if not isinstance(options, dict):
        return problem("options", "must be a table.")
    family, kind = kinds[check]
    try:
        parse_options(kind.options_type, options, "options")
    except OptionsError as error:
        return problem(error.key, error.message)
    guidance_data = data.get("guidance", {})
    if not isinstance(guidance_data, dict):
        return problem("guidance", "must be a table.")
    for key in guidance_data:
        if key not in GUIDANCE_KEYS:
            return problem(
                f"guidance.{key}", f"is not a guidance key. Known keys: {', '.join(GUIDANCE_KEYS)}."
            )
    g_summary = guidance_data.get("summary", "")
    g_docs = guidance_data.get("docs", "")
    g_steps = _string_list(guidance_data.get("steps", []))
    if not isinstance(g_summary, str):
        return problem("guidance.summary", "must be a string.")
    if not isinstance(g_docs, str):
        return problem("guidance.docs", "must be a string.")
    if g_steps is None:
        return problem("guidance.steps", "must be a list of strings.")
    shadow = data.get("shadow", {})
    if not isinstance(shadow, dict):
        return problem("shadow", "must be a table.")
    return RuleDefinition(
        code=code,
        name=name,
        summary=data["summary"],
        check=check,
        default=default,
        severity=Severity(severity_text),
        suppressible=suppressible,
        options=options,
        guidance=Guidance(g_summary, g_steps, g_docs),
        origin=Origin(document.root, path, hashlib.sha256(document.data).hexdigest()),
        description=description,
        family=document.family or family.distribution,
        family_version=document.family_version or family.version,
    )


def resolve(documents: Sequence[RuleDocument], families: Sequence[Family]) -> RuleSet:
    """The one resolver: project > user > core, dedup by code, whole-file shadowing.

    Broken documents, half-collisions (same code, other name; or same name, other code)
    and two files for one code in one root become problems; the rest still resolves.
    """
    kinds = kinds_by_id(families)
    problems: list[DefinitionProblem] = []
    by_code: dict[str, list[RuleDefinition]] = {}
    seen_in_root: dict[tuple[RootKind, str], str] = {}
    for document in documents:
        parsed = parse_definition(document, kinds)
        if isinstance(parsed, DefinitionProblem):
            problems.append(parsed)
            continue
        slot = (parsed.origin.root, parsed.code)
        if slot in seen_in_root:
            problems.append(
                DefinitionProblem(
                    parsed.origin.root,
                    document.path,
                    None,
                    "",
                    f"defines {parsed.code}, which {seen_in_root[slot]} already defines in the "
                    f"same root; keep one file per code.",
                )
            )
            continue
        seen_in_root[slot] = document.path
        by_code.setdefault(parsed.code, []).append(parsed)

    rules: list[ResolvedRule] = []
    for code in sorted(by_code):
        chain = sorted(by_code[code], key=lambda d: -ROOT_PRECEDENCE[d.origin.root])
        active, lower = chain[0], chain[1:]
        valid_lower: list[RuleDefinition] = []
        for below in lower:
            if below.name != active.name:
                problems.append(
                    DefinitionProblem(
                        active.origin.root,
                        active.origin.path,
                        None,
                        "name",
                        f'is "{active.name}" but the {below.origin.root.value} definition of '
                        f'{code} ({below.origin.path}) is named "{below.name}": a shadow keeps '
                        f"the name of what it shadows.",
                    )
                )
            valid_lower.append(below)
        _family, kind = kinds[active.check]
        options = parse_options(kind.options_type, active.options, "options")
        rules.append(ResolvedRule(active, kind, options, tuple(valid_lower)))

    names: dict[str, ResolvedRule] = {}
    for rule in rules:
        other = names.get(rule.name)
        if other is not None:
            problems.append(
                DefinitionProblem(
                    rule.definition.origin.root,
                    rule.definition.origin.path,
                    None,
                    "name",
                    f'"{rule.name}" is already the name of {other.code} '
                    f"({other.definition.origin.path}); rule names are unique.",
                )
            )
        names[rule.name] = rule
    return RuleSet(tuple(rules), tuple(problems))


# -- selection -------------------------------------------------------------------------


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


ALWAYS_ON = frozenset({"INW000"})


def validate_rule_settings(
    settings: RuleSettings, rule_set: RuleSet, config_file: str, positions: Any
) -> tuple[ConfigProblem, ...]:
    """Unknown codes, INW000 where it can't go, option tables the kind rejects."""
    problems: list[ConfigProblem] = []
    codes = set(rule_set.codes)

    def add(key: str, message: str) -> None:
        where = positions.locate(key)
        problems.append(
            ConfigProblem(
                config_file, where[0] if where else None, where[1] if where else None, key, message
            )
        )

    lists: Iterable[tuple[str, tuple[str, ...]]] = (
        ("select", settings.select or ()),
        ("extend-select", settings.extend_select),
        ("ignore", settings.ignore),
    )
    for list_name, items in lists:
        for index, code in enumerate(items):
            key = f"tool.inwards.rules.{list_name}[{index}]"
            if code.upper() not in codes:
                add(key, f'"{code}" is not a rule code. Known codes: {", ".join(sorted(codes))}.')
            elif list_name == "ignore" and code.upper() in ALWAYS_ON:
                add(
                    key,
                    f"can't list {code.upper()}: a file inwards can't read is never left unchecked.",
                )
    for code in settings.severity:
        key = f"tool.inwards.rules.severity.{code}"
        if code.upper() not in codes:
            add(key, f'"{code}" is not a rule code. Known codes: {", ".join(sorted(codes))}.')
        elif code.upper() in ALWAYS_ON:
            add(key, f"can't change the severity of {code.upper()}.")
    for name, table in settings.options.items():
        key = f"tool.inwards.rules.{name}"
        rule = rule_set.by_name(name)
        if rule is None:
            known = ", ".join(sorted(r.name for r in rule_set.rules))
            add(key, f'"{name}" is not a rule name or a rules key. Known rule names: {known}.')
            continue
        if rule.code in ALWAYS_ON:
            add(key, f"can't be set: {rule.code} has no options.")
            continue
        try:
            parse_options(rule.kind.options_type, {**rule.definition.options, **table}, key)
        except OptionsError as error:
            add(error.key, error.message)
    return tuple(problems)


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
        if code in ALWAYS_ON:
            enabled, decided = True, "always on"
        elif code in ignore:
            enabled, decided = False, "rules.ignore"
        elif select_codes is not None:
            if code in select_codes:
                enabled, decided = True, "rules.select"
            elif code in extend:
                enabled, decided = True, "rules.extend-select"
            else:
                enabled, decided = False, "not in rules.select"
        elif code in extend:
            enabled, decided = True, "rules.extend-select"
        else:
            enabled = rule.definition.default == "on"
            decided = "default" if enabled else "opt-in"
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
