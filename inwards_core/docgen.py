"""Rule docs pages, rendered from the rule's definition and its check kind's module.

The same text is committed as `docs/rules/<CODE>.md` (a test fails when it is stale) and
printed offline by the CLI. Examples are run to show their real output, so the page can't
drift from the behaviour.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType
from typing import Any

import attrs

from inwards_core.examples import DEFAULT_EXAMPLE_CONFIG, Example, run_example
from inwards_core.reporting.text import render_text
from inwards_core.rules.options import option_name
from inwards_core.rules.runtime import ResolvedRule, RuleSet

GENERATED_NOTE = (
    "<!-- Generated from the rule's definition and its check kind's module by "
    "`INWARDS_REGENERATE=1 pytest tests/rules/test_docs.py`. Edit those, not this file. -->"
)


def kind_module(rule: ResolvedRule) -> ModuleType:
    # The kind's own module, which its family has already imported.
    name = rule.kind.check.__module__
    return importlib.import_module(name)  # inwards: ignore[INW011] reason="a kind's module"


def kind_examples(rule: ResolvedRule) -> tuple[Example, ...]:
    examples = getattr(kind_module(rule), "EXAMPLES", ())
    return tuple(e for e in examples if isinstance(e, Example))


def _sections(doc: str) -> str:
    """The docstring from its first `## ` heading on."""
    start = doc.find("## ")
    return doc[start:].strip() if start >= 0 else ""


def _type_name(tp: Any) -> str:
    text = getattr(tp, "__name__", None) or str(tp)
    return str(text).replace("typing.", "")


def _options_table(options_type: type[Any]) -> list[str]:
    fields = attrs.fields(options_type)
    if not fields:
        return ["This rule takes no options."]
    lines = ["| Option | Type | Default |", "|---|---|---|"]
    for field in fields:
        default = field.default
        shown = list(default) if isinstance(default, tuple) else default
        lines.append(
            f"| `{option_name(field.name)}` | {_type_name(field.type)} | `{shown!r}` |".replace(
                "'", '"'
            )
        )
    return lines


def render_rule_page(rule: ResolvedRule, rule_set: RuleSet | None = None) -> str:
    definition = rule.definition
    module = kind_module(rule)
    out = [
        GENERATED_NOTE,
        "",
        f"# {definition.code} {definition.name}",
        "",
        definition.summary,
        "",
        "| | |",
        "|---|---|",
        f"| Check kind | `{rule.kind.id}` |",
        f"| Default | {definition.default} |",
        f"| Severity | {definition.severity.value} |",
        f"| Suppressible inline | {'yes' if definition.suppressible else 'no'} |",
        f"| Runs on | {'the whole project only' if rule.kind.scope.value == 'project' else 'every checked file'} |",
        f"| Definition | `{definition.origin.path}` ({definition.origin.root.value} root) |",
        "",
        _sections(module.__doc__ or ""),
        "",
        "## Options",
        "",
        f"Set in `[tool.inwards.rules.{definition.name}]` of pyproject.toml.",
        "",
        *_options_table(rule.kind.options_type),
        "",
        "## Fix guidance",
        "",
        "Printed under each finding; `{...}` are filled in from the finding. Shadow the "
        "definition to rewrite it for your team.",
        "",
        f"- Summary: {definition.guidance.summary}",
        *(f"{n}. {step}" for n, step in enumerate(definition.guidance.steps, 1)),
        "",
        "## Examples",
        "",
        "Unless an example shows its own, the configuration is:",
        "",
        "```toml",
        DEFAULT_EXAMPLE_CONFIG.rstrip(),
        "```",
    ]
    for example in kind_examples(rule):
        verdict = "passes" if example.good else "reported"
        out += ["", f"### {example.title} ({verdict})", ""]
        if example.config != DEFAULT_EXAMPLE_CONFIG:
            out += ["```toml", example.config.rstrip(), "```", ""]
        for path, text in sorted(example.sources().items()):
            out += [f"`{path}`:", "", "```python", text.rstrip(), "```", ""]
        report = run_example(example, rule_set)
        output = render_text(report)
        # Durations differ between runs; the page must be byte-stable.
        output = re.sub(r" \(\d+(\.\d+)? ms\)", "", output)
        out += ["`inwards check` says:", "", "```text", output.rstrip(), "```"]
    return "\n".join(out).rstrip() + "\n"
