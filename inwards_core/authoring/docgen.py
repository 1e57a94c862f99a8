"""Docs pages, rendered from rule definitions and the fields of their check kinds.

A rule page (`docs/rules/<CODE>.md`) comes from the rule's definition and its check kind
(`docs`, options, `examples`); a kind page (`docs/kinds/<kind id>.md`) documents a generic
kind that user and project definitions name. The same text is committed (a test fails when
it is stale) and printed offline by the CLI. Examples are run to show their real output, so
a page can't drift from the behaviour.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from inwards_core.authoring.examples import run_example
from inwards_core.authoring.rule_page_schema import RULE_PAGE_SCHEMA
from inwards_core.reporting.escaping import printable
from inwards_core.reporting.text import render_text
from inwards_core.rules.definitions import RuleDefinition
from inwards_core.rules.kind_docs import DEFAULT_EXAMPLE_CONFIG, Example
from inwards_core.rules.kinds import COMMON_GUIDANCE_PARAMS, CheckKind, Scope
from inwards_core.rules.listing import family_prefix, origin_data
from inwards_core.rules.options import is_required, option_name, options_to_data, table_type
from inwards_core.rules.rule_set import ResolvedRule, RuleSet

GENERATED_NOTE = (
    "<!-- Generated from the rule's definition and its check kind's module by "
    "`INWARDS_REGENERATE=1 pytest tests/rules/test_docs.py`. Edit those, not this file. -->"
)
KIND_GENERATED_NOTE = (
    "<!-- Generated from the check kind's module by "
    "`INWARDS_REGENERATE=1 pytest tests/rules/test_kinds.py`. Edit that, not this file. -->"
)
# What the engine adds to every finding's guidance parameters.
COMMON_PARAMS = COMMON_GUIDANCE_PARAMS


def _type_name(tp: Any) -> str:
    text = getattr(tp, "__name__", None) or str(tp)
    return str(text).replace("typing.", "")


def options_table(options_type: type[Any], values: Mapping[str, Any] | None = None) -> list[str]:
    """The options as pyproject.toml and a definition's `[options]` take them (TOML types
    and values), with their defaults; `values` (a definition's own options, by TOML name)
    replace the kind's defaults, since they are what the rule runs with."""
    fields = attrs.fields(options_type)
    if not fields:
        return ["This rule takes no options."]
    values = values or {}
    lines = ["| Option | Type | Default |", "|---|---|---|"]
    for field in fields:
        name = option_name(field.name)
        type_text = _TOML_TYPES.get(str(field.type)) or _table_text(options_type, field.name)
        if name in values:
            value = values[name]
            shown = f"`{_toml_value(tuple(value) if isinstance(value, list) else value)}`"
        elif is_required(field):
            shown = "required"
        else:
            shown = f"`{_toml_value(field.default)}`"
        lines.append(f"| `{name}` | {type_text} | {shown} |")
    return lines


def _table_text(options_type: type[Any], field_name: str) -> str:
    """`list of tables { modules, libraries }` for an array-of-tables option."""
    tp = typing.get_type_hints(options_type)[field_name]
    item_type = table_type(tp)
    if item_type is None:
        return _type_name(tp)
    keys = ", ".join(option_name(field.name) for field in attrs.fields(item_type))
    return f"list of tables `{{ {keys} }}`"


_TOML_TYPES = {
    "str": "string",
    "bool": "boolean",
    "int": "integer",
    "tuple[str, ...]": "list of strings",
    "int | Literal[False]": "integer or `false` (off)",
    "str | Literal[False]": "string or `false` (off)",
}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{item}"' for item in value) + "]"
    return f'"{value}"' if isinstance(value, str) else str(value)


# The fence language of an example file, by suffix (Python for the rest).
_LANGUAGES = {
    ".md": "markdown",
    ".mmd": "mermaid",
    ".puml": "plantuml",
    ".toml": "toml",
    ".txt": "text",
}


def _language(path: str) -> str:
    suffix = path[path.rfind(".") :] if "." in path.rpartition("/")[2] else ""
    return _LANGUAGES.get(suffix, "python")


def _fence_for(text: str) -> str:
    """A backtick fence longer than any run of backticks in `text` (a Markdown example
    file holds fences of its own)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _example_blocks(
    example: Example, rule_set: RuleSet | None, *, name_files: bool = False
) -> list[str]:
    """One example as Markdown: its configuration (when not the default), its rule
    definitions, its files, and what `inwards check` really says about them."""
    verdict = "passes" if example.good else "reported"
    out = ["", f"### {example.title} ({verdict})", ""]
    if example.config != DEFAULT_EXAMPLE_CONFIG:
        label = ["`pyproject.toml`:", ""] if name_files else []
        out += [*label, "```toml", example.config.rstrip(), "```", ""]
    for path, text in example.definition_sources().items():
        out += [f"`{path}`:", "", "```toml", text.rstrip(), "```", ""]
    for path, text in sorted(example.sources().items()):
        fence = _fence_for(text)
        out += [f"`{path}`:", "", fence + _language(path), text.rstrip(), fence, ""]
    report = run_example(example, rule_set)
    output = render_text(report)
    # Durations differ between runs; the page must be byte-stable.
    output = re.sub(r" \(\d+(\.\d+)? ms\)", "", output)
    return [*out, "`inwards check` says:", "", "```text", output.rstrip(), "```"]


def _origin_cell(definition: RuleDefinition) -> str:
    family = family_prefix(definition)
    root = definition.origin.root.value + (f" root, family {family.lower()}" if family else " root")
    return f"`{definition.origin.path}` ({root})"


def _rule_head(rule: ResolvedRule) -> list[str]:
    """Title, summary, description, and the table of facts about the rule: its kind,
    defaults, where its definition comes from and, for a shadow, what it replaces."""
    definition = rule.definition
    runs_on = "the whole project only" if rule.kind.scope is Scope.PROJECT else "every checked file"
    # A user or project definition's text may hold anything: shown escaped (`printable`).
    out = [f"# {definition.code} {definition.name}", "", printable(definition.summary), ""]
    if definition.description.strip():
        out += [definition.description.strip(), ""]
    out += [
        "| | |",
        "|---|---|",
        f"| Check kind | `{rule.kind.id}` |",
        f"| Default | {definition.default} |",
        f"| Severity | {definition.severity.value} |",
        f"| Suppressible inline | {'yes' if definition.suppressible else 'no'} |",
        f"| Runs on | {runs_on} |",
        f"| Definition | {_origin_cell(definition)} |",
    ]
    if rule.shadowed:
        out.append(f"| Shadows | {', '.join(_origin_cell(d) for d in rule.shadowed)} |")
    if rule.guidance_from is not None:
        out.append(f"| Guidance from | {_origin_cell(rule.guidance_from)} |")
    return out


def render_rule_page(rule: ResolvedRule, rule_set: RuleSet | None = None) -> str:
    """The whole page (`docs/rules/<CODE>.md`, `inwards rule CODE --full`): the facts about
    the rule, then `rule_sections(full=True)`, the one list of what a rule page holds."""
    out = [GENERATED_NOTE, "", *_rule_head(rule)]
    for section in rule_sections(rule, rule_set, full=True):
        out += ["", f"## {section.title}", "", section.markdown]
    return "\n".join(out).rstrip() + "\n"


def _runs_on(kind: CheckKind) -> str:
    if kind.scope is Scope.PROJECT:
        return "the whole project only (skipped with `inwards check PATHS`)"
    names = {option_name(field.name) for field in attrs.fields(kind.options_type)}
    if "indirect" in names:
        return "every checked file; import chains (`indirect = true`) on whole-project runs only"
    return "every checked file"


def render_kind_page(kind: CheckKind) -> str:
    """The page of a generic check kind: what it does, its options, the parameters its
    findings give guidance templates, and its examples (each with the rule definition that
    uses the kind) with their real output."""
    params: Mapping[str, str] = {**COMMON_PARAMS, **kind.guidance_params}
    out = [
        KIND_GENERATED_NOTE,
        "",
        f"# {kind.id}",
        "",
        kind.summary,
        "",
        "No rule ships with this kind: it is for your own rules. Name it in `check` of a "
        "definition in `.inwards/rules/<CODE>.toml` (the project root) or in "
        "`~/.config/inwards/rules/<CODE>.toml` (your user root), under a code prefix no "
        "installed family owns (`ACME001`).",
        "",
        "| | |",
        "|---|---|",
        f"| Check kind | `{kind.id}` |",
        f"| Runs on | {_runs_on(kind)} |",
        "",
        kind.docs.markdown() if kind.docs else "",
        "",
        "## Options",
        "",
        "Set in the `[options]` table of the definition; unknown options, wrong types and "
        "missing required ones stop the run with the file, line and key. Module entries are "
        "prefixes (`shop.domain`) or selectors (`shop.*.domain`, `shop.**.api`).",
        "",
        *options_table(kind.options_type),
        "",
        "## Parameters for guidance",
        "",
        "`{name}` in the `summary` and `steps` of the definition's `[guidance]` is filled in "
        "from each finding; these are the only names it may use (`{{` and `}}` write a brace; "
        "any other field is an error when the definition is read). Without a `[guidance]` "
        "table, the kind's own short fix is shown.",
        "",
        "| Parameter | Value |",
        "|---|---|",
        *(f"| `{{{name}}}` | {text} |" for name, text in params.items()),
        "",
        "## Examples",
        "",
        "Unless an example shows its own `pyproject.toml`, the configuration is:",
        "",
        "```toml",
        DEFAULT_EXAMPLE_CONFIG.rstrip(),
        "```",
    ]
    for example in kind.examples():
        out += _example_blocks(example, None, name_files=True)
    return "\n".join(out).rstrip() + "\n"


def render_kinds_index(kinds: Sequence[CheckKind]) -> str:
    """`docs/kinds/index.md`: every generic kind with its summary."""
    out = [
        KIND_GENERATED_NOTE,
        "",
        "# Check kinds for your own rules",
        "",
        "A rule is a definition (data) that names a check kind (code). Besides the kinds of "
        "the shipped rules, inwards has generic kinds that no shipped rule uses: write a "
        "definition that names one, with your own code, options and guidance, in the "
        "project root (`.inwards/rules/ACME001.toml`, committed) or in your user root "
        "(`~/.config/inwards/rules/`).",
        "",
        "| Kind | What it reports |",
        "|---|---|",
    ]
    for kind in kinds:
        out.append(f"| [{kind.id}]({kind.id}.md) | {kind.summary} |")
    first = kinds[0] if kinds else None
    example = next((e for e in first.examples() if e.definitions), None) if first else None
    if first is not None and example is not None:
        path, text = next(iter(example.definition_sources().items()))
        out += ["", f"A definition that uses `{first.id}`, in `{path}`:", ""]
        out += ["```toml", text.rstrip(), "```"]
    out += [
        "",
        "Each kind's page lists its options, the parameters its findings give the guidance "
        "templates, and examples with their real output. A project definition with an "
        "option the kind rejects stops the run with the file, line and key.",
    ]
    return "\n".join(out).rstrip() + "\n"


# -- the rule page as sections: `inwards rule CODE` (short and --full) and its JSON ---------


@attrs.frozen
class PageSection:
    """One `## ` section of a rule page; `id` is a stable slug of its title."""

    id: str
    title: str
    markdown: str


# The sections of a kind's docs the short page keeps (the reasons and the remedy).
SHORT_PAGE_SECTIONS = ("why-is-this-bad", "how-to-fix")


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def kind_sections(kind: CheckKind) -> tuple[PageSection, ...]:
    """The sections of a check kind's `docs`, in order."""
    sections = kind.docs.sections() if kind.docs else ()
    return tuple(PageSection(_slug(title), title, text) for title, text in sections)


def _guidance_markdown(rule: ResolvedRule) -> str:
    guidance = rule.definition.guidance
    lines = [
        "Printed under each finding; `{...}` are filled in from the finding. Shadow the "
        "definition to rewrite it for your team.",
        "",
        f"- Summary: {printable(guidance.summary) or '(none: the kind prints its own short fix)'}",
        *(f"{n}. {printable(step)}" for n, step in enumerate(guidance.steps, 1)),
    ]
    if guidance.docs:
        lines += ["", f"Docs: {printable(guidance.docs)}"]
    return "\n".join(lines)


def rule_sections(
    rule: ResolvedRule, rule_set: RuleSet | None = None, *, full: bool
) -> tuple[PageSection, ...]:
    """The page of `rule` as sections. Short: why and how to fix (the kind's first section
    when it has neither), the options and the fix guidance. Full: every section of the
    kind's docs, the options, the guidance and the examples with their real output."""
    definition = rule.definition
    from_doc = kind_sections(rule.kind)
    if not full:
        kept = tuple(s for s in from_doc if s.id in SHORT_PAGE_SECTIONS)
        from_doc = kept or from_doc[:1]
    options = "\n".join(
        [
            f"Set in `[tool.inwards.rules.{definition.name}]` of pyproject.toml.",
            "",
            *options_table(rule.kind.options_type, definition.options),
        ]
    )
    sections = [
        *from_doc,
        PageSection("options", "Options", options),
        PageSection("guidance", "Fix guidance", _guidance_markdown(rule)),
    ]
    if full:
        examples = [
            "Unless an example shows its own, the configuration is:",
            "",
            "```toml",
            DEFAULT_EXAMPLE_CONFIG.rstrip(),
            "```",
        ]
        for example in rule.kind.examples():
            examples += _example_blocks(example, rule_set)
        sections.append(PageSection("examples", "Examples", "\n".join(examples).strip()))
    return tuple(sections)


def render_rule_summary(rule: ResolvedRule) -> str:
    """The short page `inwards rule CODE` prints: what the rule is, where its definition
    comes from (and what it shadows), why it matters, how to fix, its options and guidance."""
    out = _rule_head(rule)
    for section in rule_sections(rule, full=False):
        out += ["", f"## {section.title}", "", section.markdown]
    out += [
        "",
        f"`inwards rule {rule.code} --full` shows the whole page: what the rule reports "
        "exactly, its limitations, and examples with their real output.",
    ]
    return "\n".join(out).rstrip() + "\n"


def rule_page_document(
    rule: ResolvedRule, rule_set: RuleSet | None = None, *, full: bool
) -> dict[str, Any]:
    """`inwards rule CODE --json`: the versioned `inwards/rule@1` document."""
    definition = rule.definition
    guidance = definition.guidance
    return {
        "schema": RULE_PAGE_SCHEMA,
        "code": definition.code,
        "name": definition.name,
        "summary": definition.summary,
        "description": definition.description,
        "kind": rule.kind.id,
        "default": definition.default,
        "severity": definition.severity.value,
        "suppressible": definition.suppressible,
        "scope": rule.kind.scope.value,
        "origin": origin_data(definition),
        "shadows": [origin_data(d) for d in rule.shadowed],
        "guidanceFrom": None if rule.guidance_from is None else origin_data(rule.guidance_from),
        "options": options_to_data(rule.options),
        "guidance": {
            "summary": guidance.summary,
            "steps": list(guidance.steps),
            "docs": guidance.docs,
        },
        "full": full,
        "sections": [
            {"id": s.id, "title": s.title, "markdown": s.markdown}
            for s in rule_sections(rule, rule_set, full=full)
        ],
    }
