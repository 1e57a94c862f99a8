"""The collision policy (`on-collision`): a project definition in force over a user
definition of the same code with another intent, as a pure function over in-memory roots
(issue 16, design note §2)."""

from __future__ import annotations

import pytest

from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import load_config_text, load_rules
from inwards_core.config.load import read_rule_settings
from inwards_core.config.values import NoPositions, RulePolicies
from inwards_core.families.inw import family
from inwards_core.model.findings import RootKind
from inwards_core.rules.rule_set import RuleSet

FAMILIES = (family(),)
CORE_011 = next(d for d in packaged_documents(FAMILIES) if d.path.endswith("INW011.toml"))
CORE_TEXT = CORE_011.data.decode()


def rule(
    code: str = "ACME001",
    name: str = "no-http",
    *,
    check: str = "inw.pure-domain",
    severity: str = "error",
    default: str = "on",
    summary: str = "A team rule",
) -> str:
    return (
        f'code = "{code}"\nname = "{name}"\nsummary = "{summary}"\ncheck = "{check}"\n'
        f'default = "{default}"\nseverity = "{severity}"\n'
    )


def core_011(**changes: str) -> str:
    """The core INW011 with top-level `key = value` lines replaced or added."""
    lines = CORE_TEXT.split("\n")
    for key, value in changes.items():
        index = next((i for i, line in enumerate(lines) if line.startswith(f"{key} = ")), None)
        if index is None:
            lines.insert(1, f"{key} = {value}")
        else:
            lines[index] = f"{key} = {value}"
    return "\n".join(lines)


def resolved(
    user: str | None,
    project: str,
    *,
    policy: str = "warn",
    user_rules: str = "on",
    file: str = "ACME001.toml",
) -> RuleSet:
    sources = InMemoryRuleSources(
        FAMILIES,
        user={file: user} if user is not None else None,
        project={file: project},
    )
    return load_rules(FAMILIES, sources, user_rules=user_rules, on_collision=policy)


def test_kind_differs() -> None:
    rule_set = resolved(rule(check="inw.pure-domain"), rule(check="inw.dynamic-import"))
    (collision,) = rule_set.collisions
    assert collision.reasons == ("check",)
    assert collision.details == ('check: user "inw.pure-domain", project "inw.dynamic-import"',)
    assert (collision.project.root, collision.user.root) == (RootKind.PROJECT, RootKind.USER)
    active = rule_set.by_code("ACME001")
    assert active is not None and active.origin.root is RootKind.PROJECT


def test_user_severity_stricter() -> None:
    rule_set = resolved(rule(severity="error"), rule(severity="warning"))
    (collision,) = rule_set.collisions
    assert collision.reasons == ("severity",)


def test_user_default_on_project_opt_in() -> None:
    rule_set = resolved(rule(default="on"), rule(default="opt-in"))
    (collision,) = rule_set.collisions
    assert collision.reasons == ("default",)


def test_every_reason_is_listed_in_key_order() -> None:
    user = rule(name="a", check="inw.pure-domain", severity="error", default="on")
    project = rule(name="b", check="inw.dynamic-import", severity="warning", default="opt-in")
    (collision,) = resolved(user, project).collisions
    assert collision.reasons == ("check", "severity", "default", "name")


def test_project_stricter_is_no_collision() -> None:
    user = rule(severity="warning", default="opt-in")
    rule_set = resolved(user, rule(severity="error", default="on"))
    assert rule_set.collisions == ()
    assert rule_set.warnings() == ()


def test_options_and_guidance_only_is_no_collision() -> None:
    user = rule(summary="mine") + '\n[guidance]\nsummary = "Mine."\n'
    project = rule(summary="ours") + '\n[guidance]\nsummary = "Ours."\n'
    assert resolved(user, project).collisions == ()


def test_a_core_shadow_pair_collides_too() -> None:
    """Codes of a family: the user's stricter INW011 replaced by the project's."""
    user = core_011(severity='"error"')
    project = core_011(severity='"warning"')
    rule_set = resolved(user, project, file="INW011.toml")
    (collision,) = rule_set.collisions
    assert (collision.code, collision.reasons) == ("INW011", ("severity",))


def test_policy_warn_is_one_warning_naming_both_files() -> None:
    rule_set = resolved(rule(severity="error"), rule(severity="warning"))
    (line,) = rule_set.warnings()
    assert line.startswith(".inwards/rules/ACME001.toml: ACME001 collides with the user ")
    assert "ACME001.toml" in line.split("user definition ", 1)[1]
    assert 'severity: user "error", project "warning"' in line
    assert "the project's definition is in force" in line
    assert rule_set.errors == ()
    assert rule_set.collisions[0].policy == "warn"


def test_policy_error_is_a_blocking_problem_at_the_key_line() -> None:
    project = rule(severity="warning")
    rule_set = resolved(rule(severity="error"), project, policy="error")
    (problem,) = rule_set.errors
    line = next(n for n, t in enumerate(project.split("\n"), 1) if t.startswith("severity"))
    assert (problem.root, problem.key, problem.line) == (RootKind.PROJECT, "severity", line)
    assert problem.path == rule_set.collisions[0].project.path
    assert 'on-collision is "error"' in problem.message
    assert rule_set.warnings() == ()


def test_policy_ignore_is_silent_but_listed() -> None:
    rule_set = resolved(rule(severity="error"), rule(severity="warning"), policy="ignore")
    assert rule_set.warnings() == () and rule_set.errors == ()
    (collision,) = rule_set.collisions
    assert collision.policy == "ignore"


def test_unowned_code_names_differ_is_collision() -> None:
    """A team prefix no family owns: the project's other name wins under the policy,
    and the user's definition is shadowed (no more half-collision)."""
    rule_set = resolved(rule(name="acme-b"), rule(name="acme-a"))
    (collision,) = rule_set.collisions
    assert collision.reasons == ("name",)
    assert rule_set.problems == ()
    active = rule_set.by_code("ACME001")
    assert active is not None and active.name == "acme-a"
    assert [d.origin.root for d in active.shadowed] == [RootKind.USER]


def test_unowned_code_names_differ_under_error_stops_at_the_name_line() -> None:
    rule_set = resolved(rule(name="acme-b"), rule(name="acme-a"), policy="error")
    (problem,) = rule_set.errors
    assert (problem.key, problem.line) == ("name", 2)


def test_owned_code_names_differ_is_half_collision() -> None:
    """Codes under a family prefix keep the rule: a shadow keeps the name."""
    user = core_011(severity='"warning"')
    project = core_011(name='"other-name"')
    rule_set = resolved(user, project, file="INW011.toml")
    assert rule_set.collisions == ()
    (problem,) = rule_set.errors
    assert problem.key == "name" and "keeps the name" in problem.message


def test_a_user_definition_over_a_project_one_is_not_a_collision_pair() -> None:
    """Only project over user counts: with no project file there is nothing to collide."""
    sources = InMemoryRuleSources(FAMILIES, user={"ACME001.toml": rule(severity="warning")})
    assert load_rules(FAMILIES, sources, on_collision="error").collisions == ()


@pytest.mark.parametrize("user_rules", ["off"])
def test_user_ignored_by_policy_no_collision(user_rules: str) -> None:
    rule_set = resolved(rule(severity="error"), rule(severity="warning"), user_rules=user_rules)
    assert rule_set.collisions == ()


def test_guidance_only_counts_the_name_alone() -> None:
    """Under guidance-only the user's kind, severity and default never apply: no
    collision on them; another name for an unowned code still is one."""
    stricter = resolved(
        rule(severity="error"), rule(severity="warning"), user_rules="guidance-only"
    )
    assert stricter.collisions == ()
    renamed = resolved(rule(name="acme-b"), rule(name="acme-a"), user_rules="guidance-only")
    assert [c.reasons for c in renamed.collisions] == [("name",)]


def test_a_void_user_definition_leaves_nothing_to_collide_with() -> None:
    rule_set = resolved('code = "ACME001\n', rule(severity="warning"))
    assert rule_set.collisions == ()


def test_an_unknown_policy_is_refused() -> None:
    sources = InMemoryRuleSources(FAMILIES)
    with pytest.raises(ValueError, match="on_collision must be one of warn, error, ignore"):
        load_rules(FAMILIES, sources, on_collision="loud")


def test_the_config_key_and_the_fallback_reader() -> None:
    text = '[tool.inwards]\non-collision = "error"\nlayers = [{ name = "d", modules = ["d"] }]\n'
    assert load_config_text(text).on_collision == "error"
    assert load_config_text(text.replace('"error"', '"ignore"')).on_collision == "ignore"
    default = '[tool.inwards]\nlayers = [{ name = "d", modules = ["d"] }]\n'
    assert load_config_text(default).on_collision == "warn"

    def policies(table: dict[str, object]) -> RulePolicies:
        return read_rule_settings(table, file="pyproject.toml", positions=NoPositions())[1]

    assert policies({"on-collision": "error", "user-rules": "off"}) == RulePolicies("off", "error")
    assert policies({"on-collision": "loud"}) == RulePolicies("on", "warn")
    assert policies({}) == RulePolicies()
