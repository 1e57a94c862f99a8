"""A finding quotes bounded pieces of the code and the configuration, however long they
are: a report repeats what each finding quotes, so one long statement naming thousands of
modules, or one long layer name, made reports quadratic (a 149 KB file: MemoryError)."""

from __future__ import annotations

import time

import attrs

from inwards_core.api import check_sources, load_config_text, load_rules, prepare
from inwards_core.model.findings import Finding, RootKind, Span
from inwards_core.model.quoting import MESSAGE_LIMIT, QUOTE_LIMIT
from inwards_core.rules.definitions import DefinitionProblem, GuidanceVariant
from inwards_core.rules.kinds import Violation
from inwards_core.rules.violations import to_finding

LONG = "l" * 100_000


def pyproject(inner: str = "domain", outer: str = "adapters") -> str:
    return f"""\
[tool.inwards]
root = "src"
layers = [
  {{ name = "{inner}", modules = ["shop.domain"] }},
  {{ name = "{outer}", modules = ["shop.adapters"] }},
]
"""


def project(module: str) -> dict[str, str]:
    return {
        "src/shop/__init__.py": "",
        "src/shop/domain/__init__.py": "",
        "src/shop/adapters/__init__.py": "",
        "src/shop/domain/m.py": module,
    }


def texts(finding: Finding) -> list[str]:
    return [finding.message, finding.stable_message, finding.fix.summary, *finding.fix.steps]


def test_a_statement_naming_twenty_thousand_modules_is_quoted_cut() -> None:
    statement = "from shop.adapters import " + ", ".join(f"n{i}" for i in range(20_000))
    started = time.process_time()
    report = check_sources(project(statement + "\n"), pyproject=pyproject())
    assert time.process_time() - started < 10
    assert len(report.findings) == 20_000
    for finding in report.findings:
        assert all(len(text) < 3 * QUOTE_LIMIT for text in texts(finding)), texts(finding)
    step = report.findings[0].fix.steps[0]
    assert "`from shop.adapters import n0, n1, n2, " in step and "n19999`" in step
    assert "…" in step


def test_long_layer_and_module_names_are_quoted_cut() -> None:
    module = "import shop.adapters." + "x" * 100_000 + "\n"
    report = check_sources(project(module), pyproject=pyproject(LONG, LONG + "o"))
    [finding] = [f for f in report.findings if f.code == "INW001"]
    assert all(len(text) < MESSAGE_LIMIT for text in texts(finding))
    assert finding.message.startswith('Layer "llll')
    assert "…" in finding.message


def test_a_kind_that_quotes_whole_is_capped_by_the_engine() -> None:
    """The backstop for third-party kinds: every text of a finding is capped as a whole,
    and so is each guidance parameter before it fills a template."""
    config = load_config_text(pyproject())
    [rule] = [rule for rule in prepare(config, load_rules()).rules if rule.code == "INW001"]
    definition = rule.rule.definition
    long = GuidanceVariant("{statement}", ("{statement} " * 3,))
    guidance = attrs.evolve(definition.guidance, variants={"long": long})
    definition = attrs.evolve(definition, guidance=guidance)
    rule = attrs.evolve(rule, rule=attrs.evolve(rule.rule, definition=definition))
    violation = Violation(
        file="src/shop/domain/m.py",
        module="shop.domain.m",
        span=Span.start_of_file(),
        message="x" * 1_000_000,
        params={"statement": "y" * 1_000_000},
        variant="long",
    )
    made = to_finding(rule, violation, whole_project=False)
    assert all(len(text) <= MESSAGE_LIMIT for text in texts(made))
    assert made.message.startswith("xxx") and "…" in made.message


def test_definition_problems_quote_a_bounded_piece() -> None:
    problem = DefinitionProblem(
        RootKind.PROJECT, ".inwards/rules/X.toml", 3, "k" * 10**6, "m" * 10**6
    )
    assert len(problem.key) == QUOTE_LIMIT and len(problem.message) == MESSAGE_LIMIT
    assert len(problem.render()) < QUOTE_LIMIT + MESSAGE_LIMIT + 100
