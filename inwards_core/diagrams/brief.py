"""The architecture brief: `[tool.inwards]` and the rules in force as a short Markdown text,
for the people and coding agents who change the code (`inwards context`, kept in
`AGENTS.md` between markers with `--write`).

Pure: the configuration and the active rules in, text out; the same inputs give the same
bytes. It says what the checks enforce, nothing they don't: layers innermost first with
their modules and what each may import, sibling groups, the libraries kept out of each
layer, where the ports are, the contexts, the opt-in rules that are on and the project's
own rules (`.inwards/rules`). What a family's rules add (INW's libraries and ports) comes
from its plugin (`BriefLines`, which `inwards_core.plugins.PluginHost` is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from inwards_core.config.values import Config, Layer
from inwards_core.diagrams.writing import layer_ranks, one_line
from inwards_core.model.findings import RootKind
from inwards_core.rules.layering import RuleLayering
from inwards_core.rules.selection import ActiveRule

BEGIN_MARKER = "<!-- inwards-brief:begin -->"
END_MARKER = "<!-- inwards-brief:end -->"
HEADING = "## Architecture brief (inwards)"
MAX_NAMED_INNER_LAYERS = 50
"""A layer's line names the layers it may import up to this many; past it, it counts them."""
MAX_BRIEF_CHARACTERS = 100_000
"""The brief's length before its closing line; past it, the rest is counted, not written."""


class BriefLines(Protocol):
    """The families' part of the brief (`inwards_core.plugins.PluginHost` answers)."""

    def brief_layer_lines(
        self, config: Config, group: Sequence[Layer], rules: Mapping[str, ActiveRule]
    ) -> list[str]: ...
    def brief_lines(self, config: Config, rules: Mapping[str, ActiveRule]) -> list[str]: ...
    def rule_layering(self, rule: ActiveRule) -> RuleLayering | None: ...


def architecture_brief(config: Config, active: Sequence[ActiveRule], families: BriefLines) -> str:
    """The brief of `config` with the rules `active` (as `select` gives them), and the
    lines the `families` add for them."""
    on = {rule.code: rule for rule in active if rule.enabled}
    body = [
        HEADING,
        "",
        f"`inwards check` enforces this, from `[tool.inwards]` of `{one_line(config.file)}`"
        f" (modules under `{one_line(config.root)}`). Imports point inwards: a layer may import the "
        "layers listed before it, never one after it.",
        "",
        *_layer_lines(config, on, families),
        *_sibling_lines(config),
        *_rule_layering_lines(config, on, families),
        *families.brief_lines(config, on),
        *_context_lines(config),
        *_rule_lines(on.values()),
    ]
    out = [
        *_within_budget(body, config.file),
        "",
        "Before committing, run `inwards check`; `inwards explain-module MODULE` says which "
        "layer owns a module and what it may import.",
    ]
    return "\n".join(out) + "\n"


def _within_budget(lines: list[str], file: str) -> list[str]:
    """`lines`, or as many as fit in `MAX_BRIEF_CHARACTERS` and a line saying how many
    more there are: the brief goes into an agent's context, which a configuration of
    thousands of layers would flood."""
    used = 0
    for kept, line in enumerate(lines):
        used += len(line) + 1
        if used > MAX_BRIEF_CHARACTERS:
            left_out = len(lines) - kept
            return [
                *lines[:kept],
                "",
                f"(The brief stops here, at {MAX_BRIEF_CHARACTERS:,} characters: {left_out:,} "
                f"more lines are left out. `[tool.inwards]` of `{one_line(file)}` has them all.)",
            ]
    return lines


def _code(items: Iterable[str]) -> str:
    return ", ".join(f"`{item}`" for item in items)


def _layer_lines(config: Config, on: dict[str, ActiveRule], families: BriefLines) -> list[str]:
    out = ["Layers, innermost first:", ""]
    inner: list[str] = []  # the names of the layers before this ring, up to one past the cap
    inner_count = 0
    for number, group in enumerate(layer_ranks(config), start=1):
        if not inner_count:
            may = "imports no other layer"
        elif inner_count <= MAX_NAMED_INNER_LAYERS:
            may = f"may import {', '.join(inner)}"
        else:  # naming them all made the brief quadratic in the layers
            may = f"may import the {inner_count:,} layers listed before it"
        inner += [layer.name for layer in group][: MAX_NAMED_INNER_LAYERS + 1 - len(inner)]
        inner_count += len(group)
        names = " and ".join(f"**{layer.name}** ({_code(layer.modules)})" for layer in group)
        out.append(f"{number}. {names}: {may}.")
        out += families.brief_layer_lines(config, group, on)
    return out


def _sibling_lines(config: Config) -> list[str]:
    groups = [group for group in layer_ranks(config) if len(group) > 1]
    if not groups:
        return []
    out = ["", "Siblings share a ring and may not import each other:"]
    out += [f"- {', '.join(layer.name for layer in group)}" for group in groups]
    return out


def _rule_layering_lines(
    config: Config, on: dict[str, ActiveRule], families: BriefLines
) -> list[str]:
    """The layerings the enabled rules check (`inw.layers`, the layers contracts
    `inwards import-config` converts), each on a line; one that is the table's own layers
    says so instead of listing them again. A user's own rules are left out, as below."""
    shared = [rule for code, rule in sorted(on.items()) if not _users(rule)]
    found = [(rule, families.rule_layering(rule)) for rule in shared]
    layerings = [(rule, layering) for rule, layering in found if layering is not None]
    if not layerings:
        return []
    out = [
        "",
        "Layers that rules check, each on its own, innermost first (`a | b`: siblings that "
        "may not import each other; `a : b`: siblings that may):",
    ]
    for rule, layering in layerings:
        where = f" (in {_code(layering.containers)})" if layering.containers else ""
        if layering.same_layers(config.layers):
            flow = "the layers above"
        else:
            flow = " <- ".join(
                " | ".join(one_line(layer.name) for layer in group) for group in layering.ranks()
            )
        chains = "; chains of imports through other modules count too" if layering.chains else ""
        out.append(f"- {rule.code} {one_line(rule.rule.name)}{where}: {flow}{chains}.")
    return out


def _users(rule: ActiveRule) -> bool:
    return rule.rule.definition.origin.root is RootKind.USER


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
    shared = [rule for rule in rules if not _users(rule)]
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
                # A project rule's name and summary are the project's text: one line each.
                f"- {rule.code} {one_line(rule.rule.name)}: "
                f"{one_line(rule.rule.definition.summary)}"
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
