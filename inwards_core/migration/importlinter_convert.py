"""import-linter contracts to inwards: one project rule definition per contract (of the
kind a family's plugin names for the contract type, with `indirect = true` where
import-linter follows chains), and the `[tool.inwards]` table that turns on exactly those
rules.

Nothing is dropped silently: every option that has no exact counterpart is a note on its
contract's report, naming the contract and the option; a contract of a type inwards has no
kind for is reported as not converted.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from inwards_core.migration.importlinter_layers import LayeredContract, table_layers
from inwards_core.migration.importlinter_read import Contract, ImportLinterConfig, Value
from inwards_core.migration.importlinter_table import inwards_table, rule_name, table_comment

CODE_PREFIX = "IL"
MAX_DEFINITIONS = 999
"""Rule codes end in three digits: IL001 to IL999. `convert` stops past one more."""

# Options every built-in contract type takes, handled the same way for each.
_COMMON = ("ignore_imports", "unmatched_ignore_imports_alerting", "broken_contract_guidance")
_KNOWN: Mapping[str, tuple[str, ...]] = {
    "layers": ("layers", "containers", "exhaustive", "exhaustive_ignores", *_COMMON),
    "independence": ("modules", *_COMMON),
    "forbidden": (
        "source_modules",
        "forbidden_modules",
        "allow_indirect_imports",
        "as_packages",
        *_COMMON,
    ),
    "protected": ("protected_modules", "allowed_importers", "as_packages", *_COMMON),
    "acyclic_siblings": ("ancestors", "depth", "skip_descendants", *_COMMON),
}
_ALERTING = {"error": "error", "warn": "warning", "none": "none"}
_SESSION_HANDLED = ("include_external_packages", "exclude_type_checking_imports")
# import-linter's default for acyclic_siblings (contracts/acyclic_siblings.py).
DEFAULT_DEPTH = 10
MISSING_MODULES_NOTE = (
    "every converted rule sets missing-modules = false: an import of a module of the root "
    "packages that doesn't exist is left unchecked, as lint-imports never sees it (set it "
    "to true to check those imports)"
)


class Status(enum.StrEnum):
    EXACT = "converted exactly"
    NOTES = "converted with notes"
    SKIPPED = "not converted"


@attrs.frozen
class Definition:
    """A project rule definition to write as `.inwards/rules/<code>.toml`."""

    code: str
    name: str
    summary: str
    kind: str
    options: tuple[tuple[str, Any], ...]
    guidance: str
    contract: str  # the contract's label, for the file's header comment


@attrs.frozen
class ContractReport:
    contract: str
    name: str
    line: int
    status: Status
    code: str
    notes: tuple[str, ...]


@attrs.frozen
class Conversion:
    """`table` is `[tool.inwards]` as plain data (`comment` goes above it), `definitions`
    the rule files, `reports` one per contract, `notes` what the session options lost,
    `layers_from` the layers contract whose layers the table holds (None: one layer per
    root package)."""

    table: Mapping[str, Any]
    comment: str
    definitions: tuple[Definition, ...]
    reports: tuple[ContractReport, ...]
    notes: tuple[str, ...]
    layers_from: LayeredContract | None = None


def convert(
    config: ImportLinterConfig,
    *,
    root: str,
    kinds: Mapping[str, str],
    top_level: Sequence[str] = (),
    other_rules: Sequence[tuple[str, str]] = (),
) -> Conversion:
    """Convert `config`. `kinds` maps a contract type to the kind its rule is of (the
    families' `inwards_import_linter_kinds`; a type it lacks is not converted). `root` is the directory (relative to the project, "." or "src")
    holding the root packages; `top_level` the names of the directories and Python files
    directly under it (every one that is not a root package is ignored: import-linter's
    graph holds only the root packages); `other_rules` the (code, name) of the rules the
    converted configuration leaves off, for the comment that lists them."""
    session = _SessionFacts.of(config)
    definitions: list[Definition] = []
    reports: list[ContractReport] = []
    names = _Names()
    layered: list[LayeredContract] = []
    for contract in config.contracts:
        if len(definitions) > MAX_DEFINITIONS:
            break  # too many to convert, which the caller refuses: no need to go on
        code = f"{CODE_PREFIX}{len(definitions) + 1:03d}"
        definition, notes = _convert_contract(contract, session, code, names, kinds)
        if definition is not None:
            definitions.append(definition)
            if contract.type == "layers":
                options = dict(definition.options)
                layers, containers = options["layers"], options.get("containers", [])
                label = contract.name or contract.label
                layered.append(LayeredContract(code, label, tuple(layers), tuple(containers)))
        reports.append(_report(contract, definition, notes))
    chosen = table_layers(layered, root)
    codes = tuple(d.code for d in definitions)
    return Conversion(
        table=inwards_table(config, root, top_level, codes, chosen.layers),
        comment=table_comment(config, other_rules, chosen.source),
        definitions=tuple(definitions),
        reports=tuple(reports),
        notes=(
            session.notes + chosen.passed_over + ((MISSING_MODULES_NOTE,) if definitions else ())
        ),
        layers_from=chosen.source,
    )


@attrs.frozen
class _SessionFacts:
    roots: tuple[str, ...]
    external: bool
    type_checking: bool
    notes: tuple[str, ...]

    @classmethod
    def of(cls, config: ImportLinterConfig) -> _SessionFacts:
        notes = []
        for key, _value in config.session:
            if key == "contract_types":
                notes.append(
                    f"{config.file}: contract_types registers custom contract types; "
                    "their contracts are not converted"
                )
            elif key not in _SESSION_HANDLED:
                notes.append(f"{config.file}: session option {key} has no inwards counterpart")
        return cls(
            roots=config.root_packages,
            external=config.flag("include_external_packages"),
            type_checking=not config.flag("exclude_type_checking_imports"),
            notes=tuple(notes),
        )

    def is_first_party(self, module: str) -> bool:
        return any(module == r or module.startswith(r + ".") for r in self.roots)


class _Notes:
    """The notes of one contract, each naming the contract and the option."""

    def __init__(self, contract: Contract) -> None:
        self.contract = contract
        self.items: list[str] = []

    def add(self, option: str, text: str) -> None:
        self.items.append(f"contract {self.contract.label!r}, option {option}: {text}")


def _convert_contract(
    contract: Contract,
    session: _SessionFacts,
    code: str,
    taken: _Names,
    kinds: Mapping[str, str],
) -> tuple[Definition | None, tuple[str, ...]]:
    """The definition of `contract` (None when it is not converted) and the notes."""
    kind = kinds.get(contract.type)
    if kind is None or contract.type not in _BUILDERS:
        what = contract.type or "(no type)"
        return None, (f"contract {contract.label!r}: type {what} is not a built-in contract type",)
    notes = _Notes(contract)
    for key, _value in contract.options:
        if key not in _KNOWN[contract.type]:
            notes.add(key, "not an option of this contract type; not converted")
    options = _BUILDERS[contract.type](contract, session, notes)
    if options is None or not _names_are_python(contract, notes):
        return None, tuple(notes.items)
    options += _common_options(contract, session)
    definition = Definition(
        code=code,
        name=taken.unique(rule_name(contract)),
        summary=_summary(contract),
        kind=kind,
        options=tuple(options),
        guidance=_text(contract.get("broken_contract_guidance") or "").strip(),
        contract=contract.label,
    )
    return definition, tuple(notes.items)


def _report(
    contract: Contract, definition: Definition | None, notes: tuple[str, ...]
) -> ContractReport:
    if definition is None:
        status, code = Status.SKIPPED, ""
    else:
        status, code = (Status.NOTES if notes else Status.EXACT), definition.code
    return ContractReport(contract.label, contract.name, contract.line, status, code, notes)


def _common_options(contract: Contract, session: _SessionFacts) -> list[tuple[str, Any]]:
    options: list[tuple[str, Any]] = []
    ignores = _list(contract.get("ignore_imports"))
    if ignores:
        options.append(("ignore-imports", sorted(ignores)))
        alerting = _text(contract.get("unmatched_ignore_imports_alerting") or "error").lower()
        options.append(("unmatched-ignore", _ALERTING.get(alerting, "error")))
    if not session.type_checking:
        options.append(("type-checking", False))
    options.append(("dynamic", False))  # grimp never sees importlib.import_module("x")
    # grimp adds no edge for an import of a module that doesn't exist as a file.
    options.append(("missing-modules", False))
    return options


Options = list[tuple[str, Any]]


def _layers(contract: Contract, session: _SessionFacts, notes: _Notes) -> Options | None:
    raw = _list(contract.get("layers"))
    if not raw:
        notes.add("layers", "missing or empty; not converted")
        return None
    entries = [_layer_entry(entry) for entry in reversed(raw)]
    options: Options = [("layers", entries)]
    containers = _list(contract.get("containers"))
    if containers:
        options.append(("containers", containers))
        _note_wildcards(notes, "containers", containers)
    options.append(("indirect", True))
    options.append(("missing-layers", "error"))
    if _flag(contract.get("exhaustive")) and not containers:
        notes.add("exhaustive", "needs containers (lint-imports refuses it without); not written")
    elif _flag(contract.get("exhaustive")):
        options.append(("exhaustive", True))
        ignores = _list(contract.get("exhaustive_ignores"))
        if ignores:
            options.append(("exhaustive-ignores", sorted(ignores)))
    return options


def _layer_entry(raw: str) -> str:
    """One layer as inwards writes it: `a | b`, `a : b`, `(a)`, spaced the same way."""
    for delimiter in ("|", ":"):
        if delimiter in raw:
            return f" {delimiter} ".join(part.strip() for part in raw.split(delimiter))
    return raw.strip()


def _independence(contract: Contract, session: _SessionFacts, notes: _Notes) -> Options | None:
    modules = _list(contract.get("modules"))
    if not modules:
        notes.add("modules", "missing or empty; not converted")
        return None
    _note_wildcards(notes, "modules", modules)
    return [("modules", modules), ("indirect", True)]


def _forbidden(contract: Contract, session: _SessionFacts, notes: _Notes) -> Options | None:
    sources = _list(contract.get("source_modules"))
    forbidden = _list(contract.get("forbidden_modules"))
    if not sources or not forbidden:
        notes.add("source_modules/forbidden_modules", "missing or empty; not converted")
        return None
    _note_wildcards(notes, "source_modules", sources)
    _note_wildcards(notes, "forbidden_modules", forbidden)
    external = [m for m in forbidden if not session.is_first_party(m)]
    if external and not session.external:
        notes.add(
            "forbidden_modules",
            f"{', '.join(external)} outside the root packages needs include_external_packages "
            "= True, without which lint-imports stops with an error; converted as a library "
            "ban all the same",
        )
    options: Options = [("modules", sources), ("forbidden", forbidden)]
    options.append(("indirect", not _flag(contract.get("allow_indirect_imports"))))
    if not _flag(contract.get("as_packages"), default=True):
        options.append(("as-packages", False))
    return options


def _protected(contract: Contract, session: _SessionFacts, notes: _Notes) -> Options | None:
    protected = _list(contract.get("protected_modules"))
    if not protected:
        notes.add("protected_modules", "missing or empty; not converted")
        return None
    importers = _list(contract.get("allowed_importers"))
    _note_wildcards(notes, "protected_modules", protected)
    _note_wildcards(notes, "allowed_importers", importers)
    options: Options = [("modules", protected), ("importers", importers)]
    if not _flag(contract.get("as_packages"), default=True):
        options.append(("as-packages", False))
    return options


def _acyclic(contract: Contract, session: _SessionFacts, notes: _Notes) -> Options | None:
    ancestors = _list(contract.get("ancestors"))
    if not ancestors:
        notes.add("ancestors", "missing or empty; not converted")
        return None
    _note_wildcards(notes, "ancestors", ancestors)
    depth_text = _text(contract.get("depth") or str(DEFAULT_DEPTH))
    try:
        depth = int(depth_text)
    except ValueError:
        notes.add("depth", f"{depth_text!r} is not an integer; import-linter's 10 is written")
        depth = DEFAULT_DEPTH
    options: Options = [("packages", ancestors), ("depth", depth)]
    skipped = _list(contract.get("skip_descendants"))
    if skipped:
        options.append(("skip-descendants", skipped))
    return options


_BUILDERS = {
    "layers": _layers,
    "independence": _independence,
    "forbidden": _forbidden,
    "protected": _protected,
    "acyclic_siblings": _acyclic,
}


def _note_wildcards(notes: _Notes, option: str, modules: Iterable[str]) -> None:
    """`*` (one segment) and `**` (one or more) mean the same in import-linter's module
    expressions as in inwards' selectors, which must start with a literal package."""
    wild = [m for m in modules if m.split(".")[0] in ("*", "**")]
    if wild:
        notes.add(
            option,
            f"{', '.join(wild)}: an inwards selector starts with a package name, not a "
            "wildcard; written as is, the rule will not load until it is changed",
        )


# import-linter's options whose entries are module names (a layer may join several with
# `|` or `:` and wrap them in parentheses); the rule loader refuses a segment that isn't a
# Python name.
_MODULE_OPTIONS = (
    "layers", "containers", "exhaustive_ignores", "modules", "source_modules",
    "forbidden_modules", "protected_modules", "allowed_importers", "ancestors",
    "skip_descendants",
)  # fmt: skip
_LAYER_SEPARATORS = re.compile(r"[|:]")


def _names_are_python(contract: Contract, notes: _Notes) -> bool:
    """False, with a note, when an option names a module that isn't a dotted Python name
    (`shop.a-b`): written as is, the rule would not load and `inwards check` would stop."""
    fine = True
    for option in _MODULE_OPTIONS:
        for entry in _list(contract.get(option)):
            for part in _LAYER_SEPARATORS.split(entry):
                name = part.strip().strip("()").strip()
                bad = next((segment for segment in name.split(".") if _not_a_name(segment)), None)
                if bad is not None:
                    notes.add(
                        option,
                        f"{name}: {bad!r} is not a Python name, which inwards can't check; "
                        "not converted",
                    )
                    fine = False
    return fine


def _not_a_name(part: str) -> bool:
    # Wildcards (`*`, `**`, and a partial one) are noted or refused by the rule loader.
    return "*" not in part and not part.isidentifier()


class _Names:
    """The rule names given so far; a name given again gets the next free `-2`, `-3`, ...
    (each name remembers where its numbers stopped: a thousand contracts of one name
    took time quadratic in them)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.next_number: dict[str, int] = {}

    def unique(self, name: str) -> str:
        if name in self.taken:
            number = self.next_number.get(name, 2)
            while f"{name}-{number}" in self.taken:
                number += 1
            self.next_number[name] = number + 1
            name = f"{name}-{number}"
        self.taken.add(name)
        return name


def _summary(contract: Contract) -> str:
    return contract.name or f"import-linter contract {contract.label}"


def _list(value: Value | None) -> list[str]:
    if value is None:
        return []
    items = (value,) if isinstance(value, str) else value
    return [item.strip() for item in items if item.strip()]


def _text(value: Value) -> str:
    return value if isinstance(value, str) else "\n".join(value)


def _flag(value: Value | None, *, default: bool = False) -> bool:
    if value is None:
        return default
    return _text(value).strip().lower() == "true"
