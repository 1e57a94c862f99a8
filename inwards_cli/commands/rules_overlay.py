"""`inwards rules shadow CODE --overlay`: the text of an overlay over the definition in force
below a root, checked by resolving the rules with it before anything is written; and the
merged definition a whole-file shadow of an overlay is written from."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

import attrs
import tomlkit

from inwards_cli.commands.console import fail
from inwards_cli.commands.rules import RulesHere, document_bytes
from inwards_cli.config_file import shown_path
from inwards_cli.overlay_files import (
    BaseRecord,
    Setting,
    SettingError,
    overlay_text,
    parse_settings,
    parse_unsets,
    refreshed_text,
    touched_keys,
)
from inwards_core.api import load_rules
from inwards_core.config.problems import closest
from inwards_core.model.findings import RootKind
from inwards_core.ports import RootReport, RuleDocument, RuleSources
from inwards_core.rules.definitions import (
    DEFINITION_KEYS,
    GUIDANCE_KEYS,
    DefinitionProblem,
    RuleDefinition,
)
from inwards_core.rules.listing import shipped
from inwards_core.rules.options import known_options
from inwards_core.rules.reading import table_digest


def overlay_base(definition: RuleDefinition) -> BaseRecord:
    """What an overlay over `definition` (the definition in force below it) records."""
    by_distribution = shipped(definition)
    return BaseRecord(
        root=definition.origin.root.value,
        distribution=definition.family if by_distribution else "",
        version=definition.family_version if by_distribution else "",
        path=definition.origin.path,
        sha256=table_digest(definition.table),
        table=definition.table,
    )


def overlay_bytes(
    here: RulesHere,
    code: str,
    base: RuleDefinition,
    path: Path,
    *,
    to: RootKind,
    set_arguments: Sequence[str],
    unset_arguments: Sequence[str],
) -> bytes:
    """The overlay `--set`/`--unset` ask for, over `base`; a bad argument, or an overlay
    the rule set would refuse, is exit 2 naming the argument."""
    try:
        settings = parse_settings(set_arguments)
        unsets = parse_unsets(unset_arguments, settings)
    except SettingError as error:
        option = "--unset" if error.argument in unset_arguments else "--set"
        fail(error.render(option))
    options = _option_names(here, base.check)
    data = overlay_text(code, overlay_base(base), settings, unsets, to=to.value, options=options)
    problem = _problem_with(here, RuleDocument(to, shown_path(path), data, relative=path.name))
    if problem is not None:
        fail(_blame(problem, settings, unsets))
    return data


def refreshed_overlay(
    here: RulesHere, code: str, chain: Sequence[RuleDefinition], to: RootKind
) -> tuple[Path, bytes]:
    """The overlay of `code` in root `to` (its file, and its text with `[overlay]` recorded
    again against the definition in force below it now), after its conflicts were resolved
    by hand: the fields it sets stay as they are."""
    current = next((d for d in chain if d.origin.root is to), None)
    if current is None or current.overlay is None:
        fail(
            f"{code} has no overlay in the {to.value} root to refresh; write one with "
            f"`inwards rules shadow {code} --to {to.value} --overlay --set KEY=VALUE`."
        )
    below = chain[chain.index(current) + 1 :]
    if not below:
        fail(f"{code} is not defined in any root below {to.value}: the overlay has no base.")
    text = document_bytes(here.resolved, current).decode("utf-8")
    table = tomllib.loads(text)
    unsets = [key for key in table.get("unset", ()) if isinstance(key, str)]
    base = overlay_base(below[0])
    touched = touched_keys(table, unsets, base, _option_names(here, current.check))
    return Path(current.origin.path), refreshed_text(text, base, touched)


def _option_names(here: RulesHere, check: str) -> tuple[str, ...]:
    families = here.resolved.rule_set.families
    kind = next((k for f in families for k in f.kinds if k.id == check), None)
    return () if kind is None else known_options(kind.options_type)


@attrs.frozen
class _WithDocument:
    """The sources of this run, with `document` in place of its root's files for its code."""

    sources: RuleSources
    document: RuleDocument

    def documents(self) -> Sequence[RuleDocument]:
        code = Path(self.document.path).stem.upper()
        kept = [
            d
            for d in self.sources.documents()
            if d.root is not self.document.root or Path(d.path).stem.upper() != code
        ]
        return (*kept, self.document)

    def roots(self) -> Sequence[RootReport]:
        return self.sources.roots()


def _problem_with(here: RulesHere, document: RuleDocument) -> DefinitionProblem | None:
    """The first problem the rules would have with `document` among them."""
    rule_set = here.resolved.rule_set
    resolved = load_rules(
        rule_set.families,
        _WithDocument(here.resolved.sources, document),
        user_rules=rule_set.user_rules,
    )
    return next((p for p in resolved.problems if p.path == document.path), None)


def _blame(problem: DefinitionProblem, settings: Sequence[Setting], unsets: Sequence[str]) -> str:
    """The problem as the argument that caused it: `--set options.forbiden=...: ...`."""
    key = problem.key
    message = problem.message + _suggestion(key, problem.message)
    for setting in settings:
        written = setting.key.replace(".extend-", ".").removeprefix("extend-")
        if any(_covers(k, key) for k in (setting.key, written)):
            return f"--set {setting.argument}: {message}"
    for unset in unsets:
        if _covers(unset, key) or key.startswith("unset"):
            return f"--unset {unset}: {message}"
    return f"the overlay would not be used: {key or 'the file'}: {message}"


def _covers(written: str, key: str) -> bool:
    """Whether a problem at `key` is about the field written at `written` (or inside it)."""
    return (
        key == written
        or key.startswith((written + ".", written + "["))
        or written.startswith(key + ".")
    )


def _suggestion(key: str, message: str) -> str:
    if not key or "did you mean" in message.lower():
        return ""
    parts = key.split(".")
    known = DEFINITION_KEYS if len(parts) == 1 else GUIDANCE_KEYS if parts[0] == "guidance" else ()
    if len(parts) > 2 or not known:
        return ""
    close = closest(parts[-1], tuple(known))
    if not close or close == parts[-1]:
        return ""
    return f' Did you mean "{".".join([*parts[:-1], close])}"?'


def flattened_bytes(definition: RuleDefinition) -> bytes:
    """The merged definition of an overlay (`definition`) as one whole file, keys in the
    order a definition lists them, without the overlay's own keys: what a whole-file
    shadow of an overlay copies (a copy of the overlay's bytes would be a partial file)."""
    table = definition.table
    document = tomlkit.document()
    if definition.overlay is not None:
        document.add(tomlkit.comment("Flattened from the overlay chain, lowest root first:"))
        for link in definition.overlay.chain:
            document.add(tomlkit.comment(f"  {link.root.value} {link.path}"))
    order = [k for k in DEFINITION_KEYS if k in table] + sorted(
        k for k in table if k not in DEFINITION_KEYS and k not in ("overlays", "overlay", "unset")
    )
    scalars = [k for k in order if not isinstance(table[k], dict)]
    for key in scalars:
        document.add(key, table[key])
    for key in order:
        if key not in scalars and key != "shadow":
            document.add(tomlkit.nl())
            document.add(key, tomlkit.item(table[key]))
    return tomlkit.dumps(document).encode("utf-8")
