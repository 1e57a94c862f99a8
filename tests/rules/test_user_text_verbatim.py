"""No text from the checked project is ever a template.

inwards 0.1 crashed (`TypeError: string indices must be integers`) on a dynamic import such
as `importlib.import_module(f"shop.{parts[-1]}")` in an inner layer: the kind wrote the
statement into its fix and the engine formatted that fix again, reading `{parts[-1]}` as a
field. Now only a definition's own `summary` and `steps` are templates, filled once with the
violation's parameters as values; a kind's fallback is finished text and is never filled.
Module names, statements, comments, file names and option entries come out as written, with
their braces, brackets and `%`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import inwards_core.engine as engine
from inwards_core import Fix, Span, Violation
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.model.findings import Finding
from inwards_core.rules.selection import ActiveRule
from inwards_core.rules.templates import fill_template

FAMILIES = installed_families()
# Every way a value could be read again: fields, escaped braces, item access (the 0.1
# crash), a format spec, a positional field, printf conversions, regex replacement escapes.
HOSTILE = "{module} {{x}} {parts[-1]} {cfg['mod']} {statement:>9} {} {0} %s %(a)s \\1 \\g<0>"

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "app", modules = ["shop.app"] },
]
"""
FORBIDDEN = """\
code = "ACME001"
name = "no-infra"
summary = "The domain imports the infrastructure."
check = "inw.forbidden"

[options]
modules = ["shop.domain"]
forbidden = ["shop.infra"]
"""
GUIDED = (
    FORBIDDEN
    + """
[guidance]
summary = "Keep {{ {forbidden} }} out of {{module}} {module}."
steps = ["Delete `{statement}` ({{statement}}).", "{file}: 100% {{}}"]
"""
)


def _check(files: dict[str, str], definitions: dict[str, str]) -> list[Finding]:
    rules = load_rules(FAMILIES, InMemoryRuleSources(FAMILIES, project=definitions))
    assert rules.problems == ()
    report = check(load_config_text(PYPROJECT), InMemoryProjectFiles(files), rule_set=rules)
    return list(report.findings)


def _fix_texts(finding: Finding) -> str:
    return "\n".join((finding.fix.summary, *finding.fix.steps))


# -- filling: one pass over the template, values inserted as they are -------------------


@pytest.mark.parametrize("value", [HOSTILE, "{", "}", "{{", "}}", "%", "\\", "[x]"])
def test_a_value_is_inserted_as_written_and_never_read_again(value: str) -> None:
    params = {"statement": value, "module": value}
    assert fill_template("a {statement} b {module} c", params) == f"a {value} b {value} c"
    assert fill_template("{{statement}} {statement}", params) == "{statement} " + value


# -- the engine: a fallback is finished text, a definition's text is the only template ----


def _active_rule(definitions: dict[str, str], code: str) -> ActiveRule:
    """The rule as the engine holds it during a run (taken from a real one)."""
    held: list[ActiveRule] = []
    original = engine.to_finding

    def recording(rule: ActiveRule, violation: Violation, **options: bool) -> Finding:
        held.append(rule)
        return original(rule, violation, **options)

    files = {"shop/domain/order.py": "from shop.infra import db\n", "shop/infra/db.py": ""}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "to_finding", recording)
        _check(files, definitions)
    return next(rule for rule in held if rule.code == code)


def _violation(**fields: object) -> Violation:
    base: dict[str, object] = {
        "file": "shop/domain/order.py",
        "module": "shop.domain.order",
        "span": Span(1, 1, 1, 2),
        "message": f"A message with {HOSTILE}.",
        "params": {"statement": HOSTILE, "forbidden": "shop.infra"},
    }
    return Violation(**{**base, **fields})  # type: ignore[arg-type]


def test_a_kinds_fallback_is_never_filled() -> None:
    rule = _active_rule({"ACME001.toml": FORBIDDEN}, "ACME001")
    fallback = Fix(f"Summary {HOSTILE}", (f"Step {HOSTILE}", "{file} {module}"))
    finding = engine.to_finding(rule, _violation(fallback=fallback), whole_project=True)
    assert finding.fix == fallback
    assert finding.message == f"A message with {HOSTILE}."


def test_a_fallback_about_the_rules_own_options_is_never_filled() -> None:
    rule = _active_rule({"ACME001.toml": GUIDED}, "ACME001")
    fallback = Fix(f"Fix {HOSTILE} in `options.modules[0]`.", (HOSTILE,))
    violation = _violation(fallback=fallback, in_definition=True, variant="dead-entry")
    assert engine.to_finding(rule, violation, whole_project=True).fix == fallback


def test_a_definitions_template_is_filled_once_with_the_values_as_written() -> None:
    rule = _active_rule({"ACME001.toml": GUIDED}, "ACME001")
    fix = engine.to_finding(rule, _violation(), whole_project=True).fix
    assert fix == Fix(
        "Keep { shop.infra } out of {module} shop.domain.order.",
        (f"Delete `{HOSTILE}` ({{statement}}).", "shop/domain/order.py: 100% {}"),
    )


# -- through the kinds: project text in statements, imported names and comments -----------


def _unreadable_imports() -> Iterator[str]:
    yield 'importlib.import_module(f"shop.{parts[-1]}")'
    yield "importlib.import_module(f\"{cfg['mod']}.{{x}}\")"
    yield 'importlib.import_module("shop.%s" % name)'
    yield 'importlib.import_module("shop.{module}".format(module=name))'


def test_unreadable_dynamic_imports_are_quoted_as_written() -> None:
    """The 0.1 crash: INW011 quotes the call, whose f-string fields index with strings."""
    calls = list(_unreadable_imports())
    body = "".join(f"def f{n}(parts, cfg, name):\n    {call}\n" for n, call in enumerate(calls))
    files = {"shop/domain/loader.py": "import importlib\n\n" + body, "shop/app/run.py": ""}
    findings = [f for f in _check(files, {}) if f.code == "INW011"]
    assert len(findings) == len(calls)
    for finding, call in zip(findings, calls, strict=True):
        assert f"`{call}`" in _fix_texts(finding), finding.fix


def test_a_generic_kinds_fallback_quotes_the_statement_as_written() -> None:
    """Before, `{module}` in a statement quoted by a fallback became the module's name."""
    statement = "__import__('shop.infra.db', {}, {}, ['{module}', '{x[-1]}', '%s', '{{'])"
    files = {"shop/domain/order.py": statement + "  # {layer} [x] %s\n", "shop/infra/db.py": ""}
    (finding,) = [f for f in _check(files, {"ACME001.toml": FORBIDDEN}) if f.code == "ACME001"]
    assert finding.fix == Fix(
        'Keep "shop.infra" out of "shop.domain".', (f"Delete `{statement}`.",)
    )


def test_a_project_definitions_guidance_fills_braces_and_params() -> None:
    statement = "__import__('shop.infra.db', {}, {}, ['{module}', '%s'])"
    files = {"shop/domain/order.py": statement + "\n", "shop/infra/db.py": ""}
    (finding,) = [f for f in _check(files, {"ACME001.toml": GUIDED}) if f.code == "ACME001"]
    assert finding.fix == Fix(
        "Keep { shop.infra } out of {module} shop.domain.order.",
        (f"Delete `{statement}` ({{statement}}).", "shop/domain/order.py: 100% {}"),
    )
