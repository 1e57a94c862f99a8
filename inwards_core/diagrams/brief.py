"""The architecture brief: `[tool.inwards]` and the rules in force as a short Markdown text,
for the people and coding agents who change the code (`inwards context`, kept in
`AGENTS.md` between markers with `--write`).

Pure: the configuration and the active rules in, text out; the same inputs give the same
bytes. It says what the checks enforce, nothing they don't: layers innermost first with
their modules and what each may import, sibling groups, the libraries kept out of each
layer, where the ports are, the contexts, the opt-in rules that are on and the project's
own rules (`.inwards/rules`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from inwards_core.config.values import Config, Layer
from inwards_core.diagrams.writing import layer_ranks
from inwards_core.model.findings import RootKind
from inwards_core.rules.selection import ActiveRule

BEGIN_MARKER = "<!-- inwards-brief:begin -->"
END_MARKER = "<!-- inwards-brief:end -->"
HEADING = "## Architecture brief (inwards)"
PURE_DOMAIN = "INW005"
PORTS_ABSTRACT = "INW014"
# What INW005's default deny list holds, in words (the list itself: docs/rules/INW005.md).
DEFAULT_DENY_WORDS = (
    "web frameworks, databases and ORMs, network clients, the standard library's I/O "
    "(INW005's default list)"
)


def architecture_brief(config: Config, active: Sequence[ActiveRule]) -> str:
    """The brief of `config` with the rules `active` (as `select` gives them)."""
    on = {rule.code: rule for rule in active if rule.enabled}
    out = [
        HEADING,
        "",
        f"`inwards check` enforces this, from `[tool.inwards]` of `{config.file}`"
        f" (modules under `{config.root}`). Imports point inwards: a layer may import the "
        "layers listed before it, never one after it.",
        "",
        *_layer_lines(config, on),
        *_sibling_lines(config),
        *_port_lines(on.get(PORTS_ABSTRACT)),
        *_context_lines(config),
        *_rule_lines(on.values()),
        "",
        "Before committing, run `inwards check`; `inwards explain-module MODULE` says which "
        "layer owns a module and what it may import.",
    ]
    return "\n".join(out) + "\n"


def _code(items: Iterable[str]) -> str:
    return ", ".join(f"`{item}`" for item in items)


def _layer_lines(config: Config, on: dict[str, ActiveRule]) -> list[str]:
    out = ["Layers, innermost first:", ""]
    ranks = layer_ranks(config)
    for number, group in enumerate(ranks, start=1):
        inner = [layer.name for rank in ranks[: number - 1] for layer in rank]
        may = f"may import {', '.join(inner)}" if inner else "imports no other layer"
        names = " and ".join(f"**{layer.name}** ({_code(layer.modules)})" for layer in group)
        out.append(f"{number}. {names}: {may}.")
        if PURE_DOMAIN in on:
            out += [
                f"   {line}" for layer in group for line in _library_lines(config, layer, group)
            ]
        out += _deny_entry_lines(on.get(PURE_DOMAIN), group)
    return out


def _library_lines(config: Config, layer: Layer, group: Sequence[Layer]) -> list[str]:
    """What INW005 keeps out of the layer (the layer named when its group has several)."""
    of = f" of {layer.name}" if len(group) > 1 else ""
    out: list[str] = []
    if layer.deny_libraries is not None:
        if layer.deny_libraries:
            out.append(f"Libraries kept out{of}: {_code(layer.deny_libraries)}.")
    elif layer.rank == 0 and config.ranks >= 2:
        out.append(f"Libraries kept out{of}: {DEFAULT_DENY_WORDS}.")
    if layer.extend_deny_libraries:
        out.append(f"Also kept out{of}: {_code(layer.extend_deny_libraries)}.")
    if layer.allow_libraries is not None:
        allowed = _code(layer.allow_libraries) or "none"
        out.append(f"Third-party libraries{of}: only {allowed}.")
    return out


def _deny_entry_lines(rule: ActiveRule | None, group: Sequence[Layer]) -> list[str]:
    """INW005's `deny` entries are by module, not by layer: listed once, after rank 1."""
    if rule is None or group[0].rank != 0:
        return []
    entries: Sequence[Any] = getattr(rule.options, "deny", ())
    return [
        f"   In {_code(entry.modules)}, whatever the layer: no {_code(entry.libraries)}."
        for entry in entries
    ]


def _sibling_lines(config: Config) -> list[str]:
    groups = [group for group in layer_ranks(config) if len(group) > 1]
    if not groups:
        return []
    out = ["", "Siblings share a ring and may not import each other:"]
    out += [f"- {', '.join(layer.name for layer in group)}" for group in groups]
    return out


def _port_lines(rule: ActiveRule | None) -> list[str]:
    if rule is None:
        return []
    modules: Sequence[str] = getattr(rule.options, "modules", ())
    where = _code(modules) if modules else "every module with a `ports` segment in its name"
    return [
        "",
        f"Ports live in {where}: interfaces only (abstract classes, protocols, values), "
        "no working code (INW014).",
    ]


def _context_lines(config: Config) -> list[str]:
    if not config.contexts:
        return []
    out = ["", "Contexts (a context imports another only through its public modules):"]
    for context in config.contexts:
        parts = [f"- **{context.name}** ({_code(context.modules)})"]
        if context.public:
            public = (("=" if entry.exact else "") + entry.module for entry in context.public)
            parts.append(f"public {_code(public)}")
        depends = ", ".join(context.depends_on) if context.depends_on else "no other context"
        parts.append(f"may import {depends}")
        out.append("; ".join(parts) + ".")
    return out


def _rule_lines(rules: Iterable[ActiveRule]) -> list[str]:
    """The opt-in rules turned on and the project's own rules. A user's own rules are left
    out: they differ from one machine to the next, and the brief is committed."""
    shared = [rule for rule in rules if rule.rule.definition.origin.root is not RootKind.USER]
    out: list[str] = []
    opt_in = [rule for rule in shared if rule.rule.definition.default != "on"]
    project = [
        rule
        for rule in shared
        if rule.rule.definition.default == "on"
        and rule.rule.definition.origin.root is RootKind.PROJECT
    ]
    for title, chosen in (("Opt-in rules on:", opt_in), ("Project rules:", project)):
        if chosen:
            out += ["", title]
            out += [
                f"- {rule.code} {rule.rule.name}: {rule.rule.definition.summary}"
                for rule in sorted(chosen, key=lambda r: r.code)
            ]
    return out


class MarkerError(ValueError):
    """The file's markers can't be trusted to say what to replace; `line` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def with_brief(text: str, brief: str) -> str:
    """`text` (a Markdown file, "" for none) with `brief` between the markers: replaced
    there when the markers are present, else added at the end. Every byte outside the
    markers is kept; doing it twice gives the same text."""
    block = f"{BEGIN_MARKER}\n{brief}{END_MARKER}\n"
    lines = text.splitlines(keepends=True)
    begins = [n for n, line in enumerate(lines) if line.strip() == BEGIN_MARKER]
    ends = [n for n, line in enumerate(lines) if line.strip() == END_MARKER]
    if not begins and not ends:
        if not text:
            return block
        return text + ("" if text.endswith("\n") else "\n") + "\n" + block
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        where = min(begins + ends) + 1
        raise MarkerError(
            where,
            f"the brief's markers must stand once each, {BEGIN_MARKER} before {END_MARKER}, "
            "each on a line of its own",
        )
    start, end = begins[0], ends[0]
    newline = "\r\n" if lines[start].endswith("\r\n") else "\n"
    return "".join(lines[:start]) + block.replace("\n", newline) + "".join(lines[end + 1 :])
