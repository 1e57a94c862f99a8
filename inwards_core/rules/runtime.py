"""Rule definitions (data), the one resolver, and selection.

`parse_definition` reads one definition document; `resolve` decides, for every code, the
active definition (precedence project > user > core, dedup by code) and keeps the
shadowed ones; `select` applies `[tool.inwards.rules]` to the active set. Every consumer
(engine, `rules`, reporters, cache keys) goes through these functions.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any

import attrs

from inwards_core.arguments import shown
from inwards_core.config.nesting import TomlTooDeepError, load_toml
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import ConfigProblem, RuleSettings
from inwards_core.model.findings import Origin, RootKind, Severity, UserDefinitionInEffect
from inwards_core.model.quoting import capped_message, quoted
from inwards_core.ports import RootReport, RuleDocument
from inwards_core.rules.kinds import CheckKind, Family, kinds_by_id
from inwards_core.rules.options import OptionsError, parse_options
from inwards_core.rules.templates import template_problem

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
SHADOW_KEYS = ("root", "distribution", "version", "sha256", "path")
USER_RULES_POLICIES = ("on", "guidance-only", "off")


@attrs.frozen
class Guidance:
    summary: str
    steps: tuple[str, ...]
    docs: str


@attrs.frozen
class ShadowBase:
    """The `[shadow]` table `inwards rules shadow` writes: what the copy was taken from."""

    root: str
    distribution: str
    version: str
    sha256: str
    path: str


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
    shadow: ShadowBase | None = None
    # Set when `user-rules = "guidance-only"` took this rule's guidance from a user file.
    guidance_origin: Origin | None = None
    # Lines of `code` and `name`, for messages about collisions found after parsing.
    key_lines: Mapping[str, int] = attrs.field(factory=dict, eq=False, repr=False)
    # `options` as the kind's options class, parsed once when the definition was read.
    parsed_options: Any = attrs.field(default=None, eq=False, repr=False)
    # `table_digest` of the parsed table the definition was built from (which may come from
    # the cache rather than the bytes): the rule-set fingerprint covers it.
    table_sha256: str = attrs.field(default="", eq=False, repr=False)


@attrs.frozen
class DefinitionProblem:
    """A definition file that can't be used. In the project root this is a config error;
    in the user root a warning (the lower definition stays in force). Key and message are
    capped (`inwards_core.model.quoting`): what they quote of the definition may be huge."""

    root: RootKind
    path: str
    line: int | None
    key: str = attrs.field(converter=quoted)
    message: str = attrs.field(converter=capped_message)

    @property
    def blocking(self) -> bool:
        """Project (and core) problems stop a run; user-root problems only warn."""
        return self.root is not RootKind.USER

    def render(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


@attrs.frozen
class StaleShadow:
    """A shadow whose recorded base no longer matches the definition below it."""

    code: str
    root: RootKind
    path: str
    message: str


@attrs.frozen
class ResolvedRule:
    """The definition in force for one code, the kind it names, its default options
    (parsed from the definition), and the lower definitions it shadows (highest first).

    With `user-rules = "guidance-only"`, `definition` is the lower definition carrying the
    user file's guidance, and `guidance_from` is that user definition."""

    definition: RuleDefinition
    kind: CheckKind
    options: Any
    shadowed: tuple[RuleDefinition, ...] = ()
    guidance_from: RuleDefinition | None = None

    @property
    def code(self) -> str:
        return self.definition.code

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def origin(self) -> Origin:
        return self.definition.origin


@attrs.frozen
class RuleSet:
    """What the resolver decided. `ignored` are user definitions the `user-rules` policy
    left out (new rules, or everything but guidance, under "guidance-only")."""

    rules: tuple[ResolvedRule, ...]
    problems: tuple[DefinitionProblem, ...] = ()
    stale: tuple[StaleShadow, ...] = ()
    ignored: tuple[RuleDefinition, ...] = ()
    families: tuple[Family, ...] = ()
    user_rules: str = "on"
    # Every usable definition of each code, highest root first (the active one leads,
    # except under "guidance-only", where a user definition leads but only lends guidance).
    chains: Mapping[str, tuple[RuleDefinition, ...]] = attrs.field(factory=dict)

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

    @property
    def errors(self) -> tuple[DefinitionProblem, ...]:
        return tuple(p for p in self.problems if p.blocking)

    def warnings(self) -> tuple[str, ...]:
        """User-root problems and stale shadows, as one line each."""
        lines = [
            f"{p.render()} (this user definition is not used)"
            for p in self.problems
            if not p.blocking
        ]
        lines += [f"{s.path}: {s.message}" for s in self.stale]
        return tuple(lines)

    def user_in_effect(self) -> tuple[UserDefinitionInEffect, ...]:
        found: list[UserDefinitionInEffect] = []
        for rule in self.rules:
            if rule.guidance_from is not None:
                found.append(
                    UserDefinitionInEffect(
                        rule.code, rule.guidance_from.origin.path, "guidance only"
                    )
                )
            elif rule.origin.root is RootKind.USER:
                effect = f"shadows {rule.shadowed[0].origin.root.value}" if rule.shadowed else "new"
                found.append(UserDefinitionInEffect(rule.code, rule.origin.path, effect))
        return tuple(found)

    def fingerprint(self, inwards_version: str) -> str:
        """Active definitions' bytes and the parsed tables actually used (a table may come
        from the cache) + kind versions + inwards version."""
        digest = hashlib.sha256(inwards_version.encode())
        for rule in self.rules:
            guidance = rule.definition.guidance_origin
            lender = rule.guidance_from
            digest.update(
                f"\0{rule.code}\0{rule.definition.origin.sha256}"
                f"\0{rule.definition.table_sha256}\0{rule.kind.id}@{rule.kind.version}"
                f"\0{guidance.sha256 if guidance else ''}"
                f"\0{lender.table_sha256 if lender else ''}".encode()
            )
        return digest.hexdigest()


def _toml_value(value: Any) -> Any:
    """Dates and times, the TOML values JSON has no form for, as tagged ISO text."""
    if isinstance(value, datetime.date | datetime.time):
        return {"\0toml": [type(value).__name__, value.isoformat()]}
    raise TypeError(f"{type(value).__name__} is not a TOML value")


def table_digest(table: Mapping[str, Any]) -> str:
    """sha256 of a parsed TOML table in a canonical form (keys sorted, 1, 1.0 and true
    distinct, NaN as NaN). Raises RecursionError for a table nested deeper than a TOML
    parser goes."""
    canonical = json.dumps(
        table, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=_toml_value
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def _string_list(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def parse_definition(
    document: RuleDocument,
    kinds: Mapping[str, tuple[Family, CheckKind]],
    parsed_tables: MutableMapping[str, Any] | None = None,
) -> RuleDefinition | DefinitionProblem:
    """Read one definition document. The file name (`<CODE>.toml`) is its identity.

    `parsed_tables` maps the sha256 of a document's bytes to its parsed TOML table: a
    cache a caller may keep between runs (parsing TOML is most of the cost of resolving);
    tables parsed here are added to it."""
    path = document.path
    sha256 = hashlib.sha256(document.data).hexdigest()

    def problem(key: str, message: str) -> DefinitionProblem:
        # Key positions are only needed for a message, so the text is scanned only then.
        line = TomlPositions(text).locate(key) if key else None
        return DefinitionProblem(document.root, path, line[0] if line else None, key, message)

    try:
        text = document.data.decode("utf-8")
    except UnicodeDecodeError as error:
        return DefinitionProblem(document.root, path, None, "", f"is not UTF-8 text ({error}).")
    known = None if parsed_tables is None else parsed_tables.get(sha256)
    if isinstance(known, dict):
        data = known
    else:
        try:
            data = load_toml(text)
        except TomlTooDeepError as error:
            return DefinitionProblem(document.root, path, None, "", f"{error}.")
        except tomllib.TOMLDecodeError as error:
            line_match = re.search(r"line (\d+)", str(error))
            return DefinitionProblem(
                document.root,
                path,
                int(line_match.group(1)) if line_match else None,
                "",
                f"is not valid TOML: {error}.",
            )
        if parsed_tables is not None:
            parsed_tables[sha256] = data
    try:
        table_sha256 = table_digest(data)
    except RecursionError:
        if data is known and parsed_tables is not None:
            del parsed_tables[sha256]  # a forged cached table: read the bytes instead
            return parse_definition(document, kinds, parsed_tables)
        return problem("", "nests tables or arrays too deeply.")
    for key in data:
        if key not in DEFINITION_KEYS:
            return problem(
                key, f"is not a definition key. Known keys: {', '.join(DEFINITION_KEYS)}."
            )
    stem = path.rsplit("/", 1)[-1]
    stem = stem[: -len(".toml")] if stem.endswith(".toml") else stem
    for required in ("code", "name", "summary", "check"):
        if required not in data:
            if required == "summary":  # optional: the kind's summary stands in
                continue
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
        parsed_options = parse_options(kind.options_type, options, "options")
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
    names = kind.guidance_names()
    templates = [("guidance.summary", g_summary)]
    templates += [(f"guidance.steps[{index}]", step) for index, step in enumerate(g_steps)]
    for key, template in templates:
        why = template_problem(template, names, kind.id)
        if why is not None:
            return problem(key, why)
    shadow_data = data.get("shadow")
    shadow: ShadowBase | None = None
    if shadow_data is not None:
        if not isinstance(shadow_data, dict):
            return problem("shadow", "must be a table.")
        for key in shadow_data:
            if key not in SHADOW_KEYS:
                return problem(
                    f"shadow.{key}",
                    f"is not a shadow key. Known keys: {', '.join(SHADOW_KEYS)}.",
                )
        for key in SHADOW_KEYS:
            if not isinstance(shadow_data.get(key, ""), str):
                return problem(f"shadow.{key}", "must be a string.")
        if not shadow_data.get("sha256"):
            return problem("shadow", "has no `sha256`: the base a shadow was copied from.")
        shadow = ShadowBase(
            root=shadow_data.get("root", ""),
            distribution=shadow_data.get("distribution", ""),
            version=shadow_data.get("version", ""),
            sha256=shadow_data["sha256"],
            path=shadow_data.get("path", ""),
        )
    return RuleDefinition(
        code=code,
        name=name,
        summary=data.get("summary", kind.summary),
        check=check,
        default=default,
        severity=Severity(severity_text),
        suppressible=suppressible,
        options=options,
        guidance=Guidance(g_summary, g_steps, g_docs),
        origin=Origin(document.root, path, sha256),
        description=description,
        family=document.family or family.distribution,
        family_version=document.family_version or family.version,
        shadow=shadow,
        key_lines=_top_level_lines(text, ("code", "name")),
        parsed_options=parsed_options,
        table_sha256=table_sha256,
    )


_ASCENDING = (RootKind.CORE, RootKind.USER, RootKind.PROJECT)


def _top_level_lines(text: str, keys: Sequence[str]) -> dict[str, int]:
    """The line of each `key = ...` before the first table header (cheap: no TOML scan)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        if stripped.startswith("["):
            break
        name = stripped.partition("=")[0].strip().strip('"')
        if name in keys and name not in found:
            found[name] = number
    return found


def resolve(
    documents: Sequence[RuleDocument],
    families: Sequence[Family],
    *,
    user_rules: str = "on",
    roots: Sequence[RootReport] = (),
    parsed_tables: MutableMapping[str, Any] | None = None,
) -> RuleSet:
    """The one resolver: project > user > core, dedup by code, whole-file shadowing.

    A definition that can't be used is void and becomes a problem naming its file: one
    that doesn't parse or validate, two files for one code in one root (any letter case),
    a half-collision (same code and another name than the definition below it, or the same
    name as another rule's code), or a new rule whose code prefix an installed family owns.
    The lower definition stays in force. Whether a problem stops the run depends on its
    root (`DefinitionProblem.blocking`). `user_rules` is the project's policy over the user
    root: "on", "guidance-only" (only the `[guidance]` of user shadows is used) or "off".
    A root the sources could not read (wholly or in part, per `roots`) is a problem too.
    `parsed_tables` is an optional cache of parsed TOML (see `parse_definition`).
    """
    if user_rules not in USER_RULES_POLICIES:
        raise ValueError(
            f"user_rules must be one of {', '.join(USER_RULES_POLICIES)}, not {shown(user_rules)}"
        )
    kinds = kinds_by_id(families)
    problems: list[DefinitionProblem] = [
        DefinitionProblem(report.root, problem.path, None, "", problem.message)
        for report in roots
        for problem in report.problems
    ]
    per_root: dict[tuple[RootKind, str], list[RuleDefinition]] = {}
    ignored: list[RuleDefinition] = []
    for document in documents:
        parsed = parse_definition(document, kinds, parsed_tables)
        if isinstance(parsed, DefinitionProblem):
            problems.append(parsed)
            continue
        if parsed.origin.root is RootKind.USER and user_rules == "off":
            ignored.append(parsed)
            continue
        per_root.setdefault((parsed.origin.root, parsed.code), []).append(parsed)

    candidates: dict[str, dict[RootKind, RuleDefinition]] = {}
    for (root, code), found in sorted(per_root.items(), key=lambda item: item[0][1]):
        if len(found) > 1:
            paths = " and ".join(
                sorted(
                    f"{d.origin.path} of {d.family} {d.family_version}"
                    if root is RootKind.CORE
                    else d.origin.path
                    for d in found
                )
            )
            for definition in found:
                problems.append(
                    DefinitionProblem(
                        root,
                        definition.origin.path,
                        None,
                        "code",
                        f"{code} is defined twice in the {root.value} root ({paths}); "
                        "keep one file per code.",
                    )
                )
            continue
        candidates.setdefault(code, {})[root] = found[0]

    void: set[tuple[RootKind, str]] = set()

    def discard(definition: RuleDefinition, key: str, message: str) -> None:
        void.add((definition.origin.root, definition.code))
        line = _line_of(definition, key)
        problems.append(
            DefinitionProblem(definition.origin.root, definition.origin.path, line, key, message)
        )

    for code, by_root in candidates.items():
        owner = owning_family(code, families)
        if owner is not None and RootKind.CORE not in by_root:
            for definition in by_root.values():
                discard(
                    definition,
                    "code",
                    f"{code} uses the prefix {owner.prefix}, which the installed family "
                    f"{owner.distribution} {owner.version} owns, but no rule {code} exists "
                    f"there to shadow. Give a new rule a prefix of your own.",
                )
        # A shadow keeps the name of what it shadows; the higher file is the odd one out.
        below: RuleDefinition | None = None
        for root in _ASCENDING:
            if root not in by_root or (root, code) in void:
                continue
            definition = by_root[root]
            if below is not None and definition.name != below.name:
                discard(
                    definition,
                    "name",
                    f'is "{definition.name}" but the {below.origin.root.value} definition of '
                    f'{code} ({below.origin.path}) is named "{below.name}": a shadow keeps '
                    "the name of what it shadows.",
                )
                continue
            below = definition

    def chain(code: str) -> list[RuleDefinition]:
        by_root = candidates[code]
        return [
            by_root[root]
            for root in reversed(_ASCENDING)
            if root in by_root and (root, code) not in void
        ]

    # The same name for two codes: the definition from the higher root (or, within one
    # root, the later code) is void, which may uncover another clash below it.
    while True:
        by_name: dict[str, list[RuleDefinition]] = {}
        for code in sorted(candidates):
            found_chain = chain(code)
            if found_chain:
                by_name.setdefault(found_chain[0].name, []).append(found_chain[0])
        clashes = [group for group in by_name.values() if len(group) > 1]
        if not clashes:
            break
        for group in clashes:
            group.sort(key=lambda d: (ROOT_PRECEDENCE[d.origin.root], d.code))
            first = group[0]
            for other in group[1:]:
                discard(
                    other,
                    "name",
                    f'"{other.name}" is already the name of {first.code} '
                    f"({first.origin.path}); a rule with another code needs another name.",
                )

    rules: list[ResolvedRule] = []
    stale: list[StaleShadow] = []
    chains: dict[str, tuple[RuleDefinition, ...]] = {}
    for code in sorted(candidates):
        found_chain = chain(code)
        if not found_chain:
            continue
        chains[code] = tuple(found_chain)
        for index, definition in enumerate(found_chain):
            base = found_chain[index + 1] if index + 1 < len(found_chain) else None
            message = _staleness(definition, base)
            if message:
                stale.append(
                    StaleShadow(code, definition.origin.root, definition.origin.path, message)
                )
        active, lower = found_chain[0], tuple(found_chain[1:])
        guidance_from: RuleDefinition | None = None
        if active.origin.root is RootKind.USER and user_rules == "guidance-only":
            if not lower:
                ignored.append(active)  # a new rule: only guidance may come from the user
                continue
            guidance_from = active
            active = attrs.evolve(lower[0], guidance=active.guidance, guidance_origin=active.origin)
            lower = lower[1:]
        _family, kind = kinds[active.check]
        options = active.parsed_options
        if options is None:  # a definition built by hand, not by parse_definition
            options = parse_options(kind.options_type, active.options, "options")
        rules.append(ResolvedRule(active, kind, options, lower, guidance_from))
    return RuleSet(
        tuple(rules),
        tuple(problems),
        tuple(stale),
        tuple(ignored),
        tuple(families),
        user_rules,
        chains,
    )


def owning_family(code: str, families: Iterable[Family]) -> Family | None:
    """The installed family whose code prefix `code` uses (`INW` for INW012), if any."""
    prefix = code.upper().rstrip("0123456789")
    return next((family for family in families if family.prefix == prefix), None)


def _line_of(definition: RuleDefinition, key: str) -> int | None:
    # Positions are only needed for messages, so they are looked up only then.
    return None if not key else definition.key_lines.get(key)


def _staleness(definition: RuleDefinition, base: RuleDefinition | None) -> str:
    recorded = definition.shadow
    if recorded is None:
        return ""
    copied = f"{recorded.distribution} {recorded.version}".strip() or "an earlier definition"
    if base is None:
        return (
            f"shadows {definition.code} as copied from {copied}, but no lower root defines "
            f"{definition.code} any more; the copy now stands alone."
        )
    if base.origin.sha256 == recorded.sha256:
        return ""
    now = f"{base.family} {base.family_version}".strip() if base.family else base.origin.path
    return (
        f"is a stale shadow of {definition.code}: it was copied from {copied}, and the "
        f"{base.origin.root.value} definition has changed since (now {now}). Compare them "
        f"with `inwards rules explain {definition.code}`, then update the copy and its "
        "[shadow] sha256."
    )


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
