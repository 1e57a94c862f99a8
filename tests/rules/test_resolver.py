"""The one resolver, as a pure function over in-memory roots (THREE-ROOTS.md "Resolution")."""

from __future__ import annotations

import hashlib

import attrs
import pytest

from inwards_core.adapters.in_memory import InMemoryRuleSources
from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.api import load_config_text, load_rules
from inwards_core.config.values import NoPositions
from inwards_core.families.inw import family
from inwards_core.model.findings import RootKind
from inwards_core.ports import ListingProblem, RootReport, RootState, RuleDocument
from inwards_core.rules.digests import root_digests
from inwards_core.rules.resolver import MAX_USER_PROBLEMS, resolve
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import select, validate_rule_settings
from inwards_core.version import DISTRIBUTION

FAMILIES = (family(),)
CORE_011 = next(d for d in packaged_documents(FAMILIES) if d.path.endswith("INW011.toml"))
CORE_TEXT = CORE_011.data.decode()


def with_line(key: str, value: str, text: str = CORE_TEXT) -> str:
    lines = text.split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith(f"{key} = "))
    lines[index] = f"{key} = {value}"
    return "\n".join(lines)


def new_rule(code: str, name: str) -> str:
    return f'code = "{code}"\nname = "{name}"\nsummary = "s"\ncheck = "inw.pure-domain"\n'


def rules(
    *,
    user: dict[str, str] | None = None,
    project: dict[str, str] | None = None,
    policy: str = "on",
) -> RuleSet:
    sources = InMemoryRuleSources(FAMILIES, user=user, project=project)
    return load_rules(FAMILIES, sources, user_rules=policy)


def test_project_over_user_over_core_and_the_chain_is_kept() -> None:
    rule_set = rules(
        user={"INW011.toml": with_line("severity", '"warning"')},
        project={"INW011.toml": with_line("summary", '"project"')},
    )
    rule = rule_set.by_code("inw011")
    assert rule is not None
    assert rule.origin.root is RootKind.PROJECT
    assert [d.origin.root for d in rule.shadowed] == [RootKind.USER, RootKind.CORE]
    assert rule.definition.severity.value == "error"  # whole-file: nothing inherited
    assert rule_set.problems == ()


def test_a_broken_user_shadow_is_void_and_core_stays() -> None:
    rule_set = rules(user={"INW011.toml": 'code = "INW011\n'})
    rule = rule_set.by_code("INW011")
    assert rule is not None and rule.origin.root is RootKind.CORE
    (problem,) = rule_set.problems
    assert (problem.root, problem.blocking) == (RootKind.USER, False)
    assert rule_set.errors == ()
    assert "not valid TOML" in rule_set.warnings()[0]


def test_a_broken_project_definition_blocks() -> None:
    rule_set = rules(project={"INW011.toml": with_line("severity", '"fatal"')})
    (problem,) = rule_set.errors
    line = next(n for n, t in enumerate(CORE_TEXT.split("\n"), 1) if t.startswith("severity"))
    assert (problem.key, problem.line) == ("severity", line)


def test_two_files_for_one_code_in_one_root_void_both() -> None:
    text = with_line("severity", '"warning"')
    rule_set = rules(user={"INW011.toml": text, "inw011.toml": text})
    assert len(rule_set.problems) == 2
    assert all("defined twice" in p.message for p in rule_set.problems)
    rule = rule_set.by_code("INW011")
    assert rule is not None and rule.origin.root is RootKind.CORE


def test_a_renamed_shadow_is_a_half_collision_and_the_next_one_down_wins() -> None:
    rule_set = rules(
        user={"INW011.toml": with_line("name", '"other-name"')},
        project={"INW011.toml": with_line("summary", '"project"')},
    )
    (problem,) = rule_set.problems
    assert problem.root is RootKind.USER and "keeps the name" in problem.message
    rule = rule_set.by_code("INW011")
    assert rule is not None and rule.origin.root is RootKind.PROJECT
    assert [d.origin.root for d in rule.shadowed] == [RootKind.CORE]


def test_a_name_taken_by_another_code_is_a_half_collision() -> None:
    rule_set = rules(project={"ACME001.toml": new_rule("ACME001", "dynamic-import")})
    (problem,) = rule_set.problems
    assert problem.path.endswith("ACME001.toml") and "INW011" in problem.message
    assert rule_set.by_code("ACME001") is None
    assert rule_set.by_name("dynamic-import") == rule_set.by_code("INW011")


def test_a_new_rule_may_not_use_a_family_prefix() -> None:
    rule_set = rules(project={"INW777.toml": new_rule("INW777", "seven")})
    (problem,) = rule_set.errors
    assert "prefix INW" in problem.message and rule_set.by_code("INW777") is None


def test_guidance_only_takes_the_guidance_table_and_nothing_else() -> None:
    shadow = (
        'code = "INW011"\nname = "dynamic-import"\nsummary = "x"\ncheck = "inw.dynamic-import"\n'
        'severity = "warning"\n\n[guidance]\nsummary = "mine"\n'
    )
    rule_set = rules(
        user={"INW011.toml": shadow, "ACME001.toml": new_rule("ACME001", "a")},
        policy="guidance-only",
    )
    rule = rule_set.by_code("INW011")
    assert rule is not None
    assert rule.origin.root is RootKind.CORE
    assert rule.definition.severity.value == "error"
    assert rule.definition.guidance.summary == "mine"
    assert rule.guidance_from is not None and rule.guidance_from.origin.root is RootKind.USER
    assert [d.code for d in rule_set.ignored] == ["ACME001"]
    assert [(u.code, u.effect) for u in rule_set.user_in_effect()] == [("INW011", "guidance only")]


def test_policy_off_ignores_every_user_definition() -> None:
    rule_set = rules(user={"ACME001.toml": new_rule("ACME001", "a")}, policy="off")
    assert rule_set.by_code("ACME001") is None
    assert [d.code for d in rule_set.ignored] == ["ACME001"]


def test_a_shadow_is_stale_when_its_base_changed() -> None:
    base_sha = hashlib.sha256(CORE_011.data).hexdigest()
    table = (
        '\n[shadow]\nroot = "core"\ndistribution = "inwards"\nversion = "0.0.1"\n'
        f'sha256 = "{base_sha}"\npath = "x"\n'
    )
    fresh = rules(project={"INW011.toml": CORE_TEXT + table})
    assert fresh.stale == ()
    old = rules(project={"INW011.toml": CORE_TEXT + table.replace(base_sha, "0" * 64)})
    (stale,) = old.stale
    assert stale.code == "INW011" and "stale shadow" in stale.message
    assert "inwards 0.0.1" in stale.message


def test_unreadable_roots_become_problems_of_their_root() -> None:
    reports = [
        RootReport(RootKind.USER, "/u", RootState.UNREADABLE, (ListingProblem("/u", "nope."),)),
        RootReport(RootKind.PROJECT, "/p", RootState.FOUND, (ListingProblem("/p/x", "loop."),)),
    ]
    rule_set = resolve(packaged_documents(FAMILIES), FAMILIES, roots=reports)
    assert [(p.root, p.blocking) for p in rule_set.problems] == [
        (RootKind.USER, False),
        (RootKind.PROJECT, True),
    ]


def test_user_problems_past_the_cap_are_counted_in_one_more() -> None:
    # A user root that is a link to `/` meets every TOML file of the disk.
    broken = {f"not-a-rule-{n:02}.toml": "tool = 1\n" for n in range(30)}
    found = rules(user=broken).problems
    assert len(found) == MAX_USER_PROBLEMS + 1
    assert found[0].path == "<user>/not-a-rule-00.toml"
    assert found[-1].path == "<user>" and found[-1].message == (
        "has 10 more definitions that can't be used."
    )
    # The listing's own problems come first and share the allowance.
    listing = tuple(ListingProblem(f"/u/{n}", "loop.") for n in range(5))
    reports = [RootReport(RootKind.USER, "/u", RootState.FOUND, listing)]
    sources = InMemoryRuleSources(FAMILIES, user=broken)
    rule_set = resolve(sources.documents(), FAMILIES, roots=reports)
    assert [p.message for p in rule_set.problems[:5]] == ["loop."] * 5
    assert rule_set.problems[-1].message == "has 15 more definitions that can't be used."
    assert len(rule_set.problems) == MAX_USER_PROBLEMS + 1
    # Project problems are errors: every one is named.
    assert len(rules(project=broken).errors) == 30


def test_root_digests_see_deletion_rename_and_same_size_edits() -> None:
    def digest(files: dict[str, bytes]) -> str:
        documents = [
            RuleDocument(RootKind.USER, f"/u/{n}", d, relative=n) for n, d in files.items()
        ]
        return root_digests(documents, FAMILIES)[RootKind.USER]

    base = digest({"A.toml": b"abc", "B.toml": b"x"})
    assert digest({"B.toml": b"x", "A.toml": b"abc"}) == base  # order-free
    assert digest({"A.toml": b"abd", "B.toml": b"x"}) != base  # same size
    assert digest({"C.toml": b"abc", "B.toml": b"x"}) != base  # renamed
    assert digest({"A.toml": b"abc"}) != base  # deleted
    bumped = (attrs.evolve(FAMILIES[0], version="9.9.9"),)
    assert root_digests((), bumped)[RootKind.CORE] != root_digests((), FAMILIES)[RootKind.CORE]


@pytest.mark.parametrize("extra", ["", "\n# a comment\n"])
def test_the_fingerprint_follows_active_definitions_only(extra: str) -> None:
    core = rules().fingerprint("1")
    shadowed = rules(project={"INW011.toml": CORE_TEXT + extra}).fingerprint("1")
    assert (shadowed == core) == (extra == "")
    hidden_user = rules(
        user={"INW011.toml": with_line("severity", '"warning"')},
        project={"INW011.toml": CORE_TEXT + extra},
    ).fingerprint("1")
    assert hidden_user == shadowed
    assert rules().fingerprint("2") != core


def test_the_definition_in_the_roots_page_resolves() -> None:
    """The example definition in docs/rules-roots-and-shadowing.md is a working rule."""
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "rules-roots-and-shadowing.md"
    blocks = page.read_text(encoding="utf-8").split("```toml\n")[1:]
    (example,) = [b.split("```")[0] for b in blocks if b.startswith('code = "ACME001"')]
    rule_set = rules(project={"ACME001.toml": example})
    assert rule_set.problems == ()
    rule = rule_set.by_code("ACME001")
    assert rule is not None and rule.kind.id == "inw.forbidden"


def test_two_families_shipping_one_code_is_an_error_naming_both() -> None:
    other = attrs.evolve(FAMILIES[0], prefix="OTH", kinds=(), distribution="inwards-other")
    documents = [*packaged_documents(FAMILIES), attrs.evolve(CORE_011, family="inwards-other")]
    rule_set = resolve(documents, (*FAMILIES, other))
    assert len(rule_set.errors) == 2
    message = rule_set.errors[0].message
    assert f"{DISTRIBUTION} {FAMILIES[0].version}" in message and "inwards-other" in message


# -- always on: a key of the definition, not a code the engine knows ----------------------

CORE_000 = next(d for d in packaged_documents(FAMILIES) if d.path.endswith("INW000.toml"))


def core_000(extra: str = "") -> str:
    text = CORE_000.data.decode()
    return text.replace("always-on = true\n", extra)


def test_always_on_comes_from_the_shipped_definition() -> None:
    rule_set = rules()
    assert [r.code for r in rule_set.rules if r.always_on] == ["INW000"]
    assert rule_set.by_code("INW000").definition.always_on  # type: ignore[union-attr]


@pytest.mark.parametrize("root", ["user", "project"])
def test_a_shadow_of_an_always_on_rule_stays_always_on(root: str) -> None:
    """A shadow written before the key existed (or that leaves it out) may reword and
    re-level the rule in its file, but not turn it off."""
    shadow = with_line("severity", '"warning"', core_000())
    rule_set = rules(**{root: {"INW000.toml": shadow}})  # type: ignore[arg-type]
    rule = rule_set.by_code("INW000")
    assert rule is not None and rule.origin.root.value == root
    assert not rule.definition.always_on and rule.always_on
    assert rule.definition.severity.value == "warning"
    assert rule_set.problems == ()


def test_a_shadow_may_not_turn_an_always_on_rule_off() -> None:
    off = core_000("always-on = false\n")
    rule_set = rules(project={"INW000.toml": off}, user={"INW000.toml": off})
    assert [(p.root, p.key) for p in rule_set.problems] == [
        (RootKind.USER, "always-on"),
        (RootKind.PROJECT, "always-on"),
    ]
    line = next(n for n, t in enumerate(off.split("\n"), 1) if t.startswith("always-on"))
    assert {p.line for p in rule_set.problems} == {line}
    assert "can reword or re-level it, not turn it off" in rule_set.problems[0].message
    rule = rule_set.by_code("INW000")
    assert rule is not None and rule.origin.root is RootKind.CORE and rule.always_on


def test_a_rule_of_ones_own_may_be_always_on() -> None:
    text = new_rule("ACME001", "acme") + "always-on = true\n"
    rule_set = rules(project={"ACME001.toml": text})
    rule = rule_set.by_code("ACME001")
    assert rule is not None and rule.always_on
    config = load_config_text(
        '[tool.inwards]\nlayers = [{ name = "a", modules = ["a"] }]\n'
        '[tool.inwards.rules]\nignore = ["ACME001"]\nseverity = { ACME001 = "warning" }\n'
        "[tool.inwards.rules.acme]\n"
    )
    problems = validate_rule_settings(config.rules, rule_set, "pyproject.toml", NoPositions())
    assert [p.key for p in problems] == [
        "tool.inwards.rules.ignore[0]",
        "tool.inwards.rules.severity.ACME001",
        "tool.inwards.rules.acme",
    ]
    assert "always on" in problems[0].message
    active = {a.code: a for a in select(rule_set, attrs.evolve(config.rules, ignore=("ACME001",)))}
    assert (active["ACME001"].enabled, active["ACME001"].decided_by) == (True, "always on")


def test_without_the_key_a_rule_can_be_turned_off() -> None:
    plain = resolve([attrs.evolve(CORE_000, data=core_000().encode())], FAMILIES)
    rule = plain.by_code("INW000")
    assert rule is not None and not rule.always_on
    config = load_config_text(
        '[tool.inwards]\nlayers = [{ name = "a", modules = ["a"] }]\n'
        '[tool.inwards.rules]\nignore = ["INW000"]\n'
    )
    assert validate_rule_settings(config.rules, plain, "pyproject.toml", NoPositions()) == ()
    (active,) = [a for a in select(plain, config.rules) if a.code == "INW000"]
    assert (active.enabled, active.decided_by) == (False, "rules.ignore")
