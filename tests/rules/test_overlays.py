"""Field-level overlays through the resolver: one test per merge rule, stacking and the
cut, the location of errors in the overlay file (docs/rules-roots-and-shadowing.md,
"Overlay a shipped rule")."""

from __future__ import annotations

import textwrap

from inwards_core.adapters.packaged_rules import packaged_documents
from inwards_core.families.inw import family
from inwards_core.model.findings import RootKind
from inwards_core.ports import RuleDocument
from inwards_core.rules.definitions import DefinitionProblem
from inwards_core.rules.resolver import resolve
from inwards_core.rules.rule_set import ResolvedRule, RuleSet

FAMILIES = (family(),)
CORE = tuple(packaged_documents(FAMILIES))
CORE_014 = next(d for d in CORE if d.path.endswith("INW014.toml")).data.decode()
LOCATIONS = {"org": "<org>", "user": "<user>", "project": ".inwards/rules"}


def resolved(user_rules: str = "on", **roots: dict[str, str]) -> RuleSet:
    documents = list(CORE)
    for root, files in roots.items():
        for name, text in files.items():
            path = f"{LOCATIONS[root]}/{name}"
            data = textwrap.dedent(text).encode()
            documents.append(RuleDocument(RootKind(root), path, data, relative=name))
    return resolve(documents, FAMILIES, user_rules=user_rules)


def rule(rule_set: RuleSet, code: str = "INW014") -> ResolvedRule:
    assert rule_set.problems == (), [p.render() for p in rule_set.problems]
    found = rule_set.by_code(code)
    assert found is not None
    return found


def only_problem(rule_set: RuleSet) -> DefinitionProblem:
    assert len(rule_set.problems) == 1, [p.render() for p in rule_set.problems]
    return rule_set.problems[0]


# A user whole-file INW014 with options, for the overlays that need arrays below them.
USER_014 = CORE_014 + textwrap.dedent(
    """
    [options]
    modules = ["shop.ports"]
    allow-bases = ["shop.base"]
    check-tests = false
    """
)


def test_scalar_replaced() -> None:
    got = rule(resolved(project={"INW014.toml": 'overlays = "INW014"\nseverity = "warning"\n'}))
    assert got.definition.severity.value == "warning"
    assert got.origin.root is RootKind.PROJECT
    assert got.definition.guidance.steps  # inherited from core
    assert got.definition.default == "opt-in"


def test_table_merged_key_by_key() -> None:
    overlay = 'overlays = "INW014"\n[options]\ncheck-tests = true\n'
    got = rule(resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": overlay}))
    assert got.definition.options == {
        "modules": ["shop.ports"],
        "allow-bases": ["shop.base"],
        "check-tests": True,
    }


def test_nested_table_merged() -> None:
    overlay = """\
        overlays = "INW014"
        [guidance.variants.method]
        summary = "Keep `{class}` abstract."
        """
    got = rule(resolved(project={"INW014.toml": overlay}))
    method = got.definition.guidance.variants["method"]
    assert method.summary == "Keep `{class}` abstract."
    assert method.steps and method.steps[0].startswith("Replace the body")  # kept
    assert "template" in got.definition.guidance.variants


def test_array_replaced() -> None:
    overlay = 'overlays = "INW014"\n[guidance]\nsteps = ["Only this."]\n'
    got = rule(resolved(project={"INW014.toml": overlay}))
    assert got.definition.guidance.steps == ("Only this.",)
    assert got.definition.guidance.summary.startswith("Move `{class}`")


def test_extend_appends() -> None:
    overlay = 'overlays = "INW014"\n[options]\nextend-modules = ["shop.api"]\n'
    got = rule(resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": overlay}))
    assert got.definition.options["modules"] == ["shop.ports", "shop.api"]
    assert "extend-modules" not in got.definition.options
    fields = got.definition.overlay.fields if got.definition.overlay else {}
    assert [f.how for f in fields["options.modules"]] == ["base", "extend"]


def test_extend_absent_base_is_empty() -> None:
    overlay = 'overlays = "INW014"\n[options]\nextend-modules = ["shop.api"]\n'
    got = rule(resolved(project={"INW014.toml": overlay}))
    assert got.definition.options == {"modules": ["shop.api"]}


def test_extended_arrays_keep_duplicates() -> None:
    overlay = 'overlays = "INW014"\n[options]\nextend-modules = ["shop.ports"]\n'
    got = rule(resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": overlay}))
    assert got.definition.options["modules"] == ["shop.ports", "shop.ports"]


def test_extend_and_key_together_is_error() -> None:
    overlay = 'overlays = "INW014"\n[options]\nmodules = ["a"]\nextend-modules = ["b"]\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert (problem.line, problem.key) == (4, "options.extend-modules")
    assert "also sets" in problem.message
    assert problem.blocking


def test_extend_non_array_is_error() -> None:
    overlay = 'overlays = "INW014"\n[options]\nextend-check-tests = [true]\n'
    problem = only_problem(
        resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": overlay})
    )
    assert problem.key == "options.extend-check-tests"
    assert "not an array" in problem.message


def test_extend_prefix_is_literal_when_the_kind_has_that_option() -> None:
    literal = 'overlays = "INW014"\n[options]\nextend-allow-bases = ["shop.Entity"]\n'
    got = rule(resolved(project={"INW014.toml": literal}))
    assert got.definition.options == {"extend-allow-bases": ["shop.Entity"]}
    assert got.options.extend_allow_bases == ("shop.Entity",)
    appended = 'overlays = "INW014"\n[options]\nextend-extend-allow-bases = ["shop.Value"]\n'
    got = rule(resolved(user={"INW014.toml": literal}, project={"INW014.toml": appended}))
    assert got.definition.options == {"extend-allow-bases": ["shop.Entity", "shop.Value"]}


def test_unset_removes_scalar() -> None:
    overlay = 'overlays = "INW014"\nunset = ["options.check-tests"]\n'
    got = rule(resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": overlay}))
    assert "check-tests" not in got.definition.options
    fields = got.definition.overlay.fields if got.definition.overlay else {}
    assert fields["options.check-tests"][-1].how == "unset"


def test_unset_removes_table() -> None:
    overlay = 'overlays = "INW014"\nunset = ["guidance.variants"]\n'
    got = rule(resolved(project={"INW014.toml": overlay}))
    assert got.definition.guidance.variants == {}


def test_unset_then_set_child_replaces() -> None:
    overlay = """\
        overlays = "INW014"
        unset = ["guidance.variants"]
        [guidance.variants.method]
        summary = "Only this variant."
        """
    got = rule(resolved(project={"INW014.toml": overlay}))
    assert list(got.definition.guidance.variants) == ["method"]
    assert got.definition.guidance.variants["method"].steps is None


def test_unset_runs_before_set_and_missing_keys_are_no_error() -> None:
    overlay = 'overlays = "INW014"\nunset = ["description"]\n'
    got = rule(resolved(project={"INW014.toml": overlay}))
    assert got.definition.description == ""


def test_unset_and_set_same_key_is_error() -> None:
    overlay = 'overlays = "INW014"\nunset = ["severity"]\nseverity = "warning"\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert (problem.line, problem.key) == (2, "unset")
    assert "unset and set at once" in problem.message


def test_unset_unknown_path_suggests() -> None:
    overlay = 'overlays = "INW014"\nunset = ["options.alow-bases"]\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert problem.key == "unset"
    assert 'Did you mean "options.allow-bases"?' in problem.message


def test_a_long_unset_path_is_quoted_as_other_text_is() -> None:
    """A 2,000-character path is cut in the message (at the limit every quote has), not
    printed whole."""
    path = "options." + "x" * 2_000
    overlay = f'overlays = "INW014"\nunset = ["{path}"]\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert problem.key == "unset"
    assert path not in problem.message
    assert len(problem.message) < 400
    assert "is not a field of this rule's definition" in problem.message


def test_unset_required_key_is_error() -> None:
    overlay = 'overlays = "INW014"\nunset = ["name"]\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert "every definition has a `name`" in problem.message


def test_check_in_overlay_is_error() -> None:
    overlay = 'overlays = "INW014"\ncheck = "inw.pure-domain"\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert (problem.line, problem.key) == (2, "check")
    assert "whole-file shadow" in problem.message


def test_shadow_table_in_overlay_is_error() -> None:
    overlay = 'overlays = "INW014"\n[shadow]\nsha256 = "ab"\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert problem.key == "shadow"


def test_overlays_must_match_file_name() -> None:
    overlay = 'overlays = "INW011"\nseverity = "warning"\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert (problem.line, problem.key, problem.code) == (1, "overlays", "INW014")
    assert "named after" in problem.message


def test_overlay_table_alone_marks_an_overlay() -> None:
    overlay = 'severity = "warning"\n[overlay]\ncode = "INW014"\n'
    got = rule(resolved(project={"INW014.toml": overlay}))
    assert got.definition.severity.value == "warning"
    assert got.definition.overlay is not None and got.definition.overlay.base is not None


def test_overlay_without_base_project_blocks_user_warns() -> None:
    overlay = 'overlays = "ACME001"\nseverity = "warning"\n'
    project = only_problem(resolved(project={"ACME001.toml": overlay}))
    assert project.blocking and project.key == "overlays"
    assert "no lower root" in project.message
    user = only_problem(resolved(user={"ACME001.toml": overlay}))
    assert not user.blocking


def test_merged_invalid_error_in_overlay_file_line_key() -> None:
    overlay = 'overlays = "INW014"\n\n[options]\nmodules = ["a"]\ncheck-test = true\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert problem.path == ".inwards/rules/INW014.toml"
    assert (problem.line, problem.key) == (5, "options.check-test")


def test_error_from_extended_element_points_at_extend_key() -> None:
    overlay = 'overlays = "INW014"\n[options]\nextend-modules = ["ok", 3]\n'
    problem = only_problem(
        resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": overlay})
    )
    assert problem.key == "options.extend-modules[1]"
    assert problem.line == 3


def test_error_caused_by_an_unset_points_at_unset() -> None:
    user = """\
        code = "ACME001"
        name = "no-requests"
        check = "inw.forbidden"
        [options]
        modules = ["shop"]
        forbidden = ["requests"]
        """
    overlay = 'overlays = "ACME001"\nunset = ["options.forbidden"]\n'
    problem = only_problem(resolved(user={"ACME001.toml": user}, project={"ACME001.toml": overlay}))
    assert (problem.path, problem.line, problem.key) == (".inwards/rules/ACME001.toml", 2, "unset")
    assert '"options.forbidden" is unset' in problem.message


def test_a_repeated_name_must_be_the_name_below() -> None:
    overlay = 'overlays = "INW014"\nname = "other-name"\n'
    problem = only_problem(resolved(project={"INW014.toml": overlay}))
    assert (problem.line, problem.key) == (2, "name")
    assert "keeps the name" in problem.message


def test_stack_project_over_user_over_core() -> None:
    user = 'overlays = "INW014"\nseverity = "warning"\n[options]\nmodules = ["shop.ports"]\n'
    project = 'overlays = "INW014"\n[options]\nextend-modules = ["shop.api"]\n'
    rule_set = resolved(user={"INW014.toml": user}, project={"INW014.toml": project})
    got = rule(rule_set)
    assert got.definition.severity.value == "warning"
    assert got.definition.options == {"modules": ["shop.ports", "shop.api"]}
    info = got.definition.overlay
    assert info is not None
    assert [o.root for o in info.chain] == [RootKind.CORE, RootKind.USER, RootKind.PROJECT]
    assert info.fields["severity"][-1].origin.root is RootKind.USER
    assert [f.origin.root for f in info.fields["options.modules"]] == [
        RootKind.USER,
        RootKind.PROJECT,
    ]
    assert [d.origin.root for d in rule_set.chains["INW014"]] == [
        RootKind.PROJECT,
        RootKind.USER,
        RootKind.CORE,
    ]


def test_whole_file_shadow_cuts_chain() -> None:
    project = 'overlays = "INW014"\n[options]\nextend-modules = ["shop.api"]\n'
    got = rule(resolved(user={"INW014.toml": USER_014}, project={"INW014.toml": project}))
    info = got.definition.overlay
    assert info is not None
    assert [o.root for o in info.chain] == [RootKind.USER, RootKind.PROJECT]
    assert info.fields["options.allow-bases"][-1].origin.root is RootKind.USER


def test_overlay_over_org_over_core() -> None:
    org = 'overlays = "INW014"\nseverity = "warning"\n'
    project = 'overlays = "INW014"\ndefault = "on"\n'
    got = rule(resolved(org={"INW014.toml": org}, project={"INW014.toml": project}))
    assert (got.definition.severity.value, got.definition.default) == ("warning", "on")
    info = got.definition.overlay
    assert info is not None
    assert [o.root for o in info.chain] == [RootKind.CORE, RootKind.ORG, RootKind.PROJECT]


def test_guidance_only_user_overlay_lends_guidance_only() -> None:
    user = 'overlays = "INW014"\nseverity = "warning"\n[guidance]\nsummary = "Ours."\n'
    got = rule(resolved("guidance-only", user={"INW014.toml": user}))
    assert got.definition.severity.value == "error"
    assert got.definition.guidance.summary == "Ours."
    assert got.guidance_from is not None and got.guidance_from.origin.root is RootKind.USER


def test_user_overlay_under_off_is_ignored() -> None:
    user = 'overlays = "INW014"\nseverity = "warning"\n'
    rule_set = resolved("off", user={"INW014.toml": user})
    assert rule(rule_set).definition.severity.value == "error"
    assert [d.origin.root for d in rule_set.ignored] == [RootKind.USER]


def test_broken_overlay_leaves_the_lower_definition_in_force() -> None:
    user = 'overlays = "INW014"\nseverity = "loud"\n'
    rule_set = resolved(user={"INW014.toml": user})
    problem = only_problem(rule_set)
    assert (problem.key, problem.blocking) == ("severity", False)
    found = rule_set.by_code("INW014")
    assert found is not None and found.origin.root is RootKind.CORE


def test_fingerprint_changes_with_any_link() -> None:
    project = 'overlays = "INW014"\nseverity = "warning"\n'
    user_a = 'overlays = "INW014"\n[guidance]\nsummary = "A."\n'
    user_b = 'overlays = "INW014"\n[guidance]\nsummary = "B."\n'
    first = resolved(user={"INW014.toml": user_a}, project={"INW014.toml": project})
    second = resolved(user={"INW014.toml": user_b}, project={"INW014.toml": project})
    again = resolved(user={"INW014.toml": user_a}, project={"INW014.toml": project})
    assert first.fingerprint("1") != second.fingerprint("1")
    assert first.fingerprint("1") == again.fingerprint("1")


def test_core_overlay_is_error() -> None:
    core = RuleDocument(
        RootKind.CORE,
        "acme/definitions/ACME001.toml",
        b'overlays = "ACME001"\n',
        family="acme",
        family_version="1.0",
    )
    rule_set = resolve([*CORE, core], FAMILIES)
    problems = [p for p in rule_set.problems if p.path == core.path]
    assert problems and problems[0].blocking
    assert "can't be an overlay" in problems[0].message


def test_the_definition_schema_accepts_overlays_and_refuses_what_they_may_not_hold() -> None:
    from tests.e2e.helpers import schema_problems

    overlay = {
        "overlays": "INW014",
        "severity": "warning",
        "unset": ["guidance.docs"],
        "options": {"extend-modules": ["shop.api"]},
        "overlay": {"root": "core", "sha256": "ab", "was": {"severity": "error"}},
    }
    assert schema_problems(overlay, "definition") == []
    assert schema_problems({**overlay, "check": "inw.forbidden"}, "definition")
    assert schema_problems({**overlay, "shadow": {"sha256": "ab"}}, "definition")
    assert schema_problems({"severity": "warning"}, "definition")  # neither kind of file


def test_a_problem_names_the_rule_its_file_is_about() -> None:
    rule_set = resolved(
        project={"acme001.toml": "code = [", "ACME002.toml": 'code = "ACME003"\nname = "x"\n'},
        user={"INW014.toml": 'overlays = "INW014"\nseverity = "loud"\n'},
    )
    codes = {p.path.rsplit("/", 1)[-1]: p.code for p in rule_set.problems}
    assert codes == {"acme001.toml": "ACME001", "ACME002.toml": "ACME003", "INW014.toml": "INW014"}
    assert (
        DefinitionProblem(RootKind.USER, "/home/dev/.config/inwards/rules", None, "", "x").code
        == ""
    )


def test_a_whole_copy_of_an_overlay_is_fresh_while_the_merged_table_is_the_same() -> None:
    overlay = 'overlays = "INW014"\nseverity = "warning"\n'
    merged = rule(resolved(user={"INW014.toml": overlay})).definition
    copy = CORE_014.replace('severity = "error"', 'severity = "warning"') + (
        f'\n[shadow]\nroot = "user"\nsha256 = "{merged.table_sha256}"\n'
    )
    assert resolved(user={"INW014.toml": overlay}, project={"INW014.toml": copy}).stale == ()
    moved = 'overlays = "INW014"\nseverity = "warning"\ndefault = "on"\n'
    (stale,) = resolved(user={"INW014.toml": moved}, project={"INW014.toml": copy}).stale
    assert "stale shadow" in stale.message


def test_a_broken_whole_file_below_is_no_base_for_the_overlay_above() -> None:
    user = CORE_014.replace('name = "ports-abstract"', 'name = "other-name"')
    project = 'overlays = "INW014"\nseverity = "warning"\n'
    rule_set = resolved(user={"INW014.toml": user}, project={"INW014.toml": project})
    problem = only_problem(rule_set)
    assert (problem.root, problem.key, problem.blocking) == (RootKind.USER, "name", False)
    got = rule_set.by_code("INW014")
    assert got is not None and got.origin.root is RootKind.PROJECT
    assert got.definition.name == "ports-abstract"
    assert got.definition.severity.value == "warning"
    info = got.definition.overlay
    assert info is not None and [o.root for o in info.chain] == [RootKind.CORE, RootKind.PROJECT]
