"""`inwards check --explain CODE` and `inwards rules why CODE`, through the installed CLI
with a real XDG_CONFIG_HOME and real project directories: one test per reason of the
explanation (docs/rules-roots-and-shadowing.md, "Why didn't my rule fire?"), the exit
codes of both commands, and the run memo never recalled."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import EXAMPLES, REPO, Run, run_inwards, write_tree

CONFIG = """\
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]

[tool.inwards.rules]
ignore = ["INW006"]
"""

PROJECT = {
    "pyproject.toml": CONFIG,
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": (
        "from shop.adapters import db\n"
        'from shop.adapters import db as d2  # inwards: ignore[INW001] reason="legacy"\n'
        'import json  # inwards: ignore[INW001] reason="nothing here"\n'
    ),
    "src/shop/adapters/__init__.py": "",
    "src/shop/adapters/db.py": "import json\n",
    "src/shop/api/__init__.py": "",
    "src/shop/api/routes.py": "import os\n",
    "docs/readme.txt": "not python\n",
}


@pytest.fixture
def xdg(tmp_path: Path) -> Path:
    home = tmp_path / "xdg"
    (home / "inwards" / "rules").mkdir(parents=True)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "project", PROJECT)


def why(project: Path, xdg: Path, *args: str) -> Run:
    return run_inwards("rules", "why", *args, cwd=project, env={"XDG_CONFIG_HOME": str(xdg)})


def why_json(project: Path, xdg: Path, *args: str) -> dict[str, Any]:
    done = why(project, xdg, *args, "--json")
    assert done.code == 0, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def reasons(document: dict[str, Any], reason: str) -> list[dict[str, Any]]:
    return [entry for entry in document["reasons"] if entry["reason"] == reason]


def set_config(project: Path, extra: str) -> None:
    (project / "pyproject.toml").write_text(CONFIG + extra, encoding="utf-8")


# -- exit codes ----------------------------------------------------------------------------


def test_check_explain_exit_code_matches_check(project: Path, xdg: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(xdg)}
    plain = run_inwards("check", "--no-cache", cwd=project, env=env)
    explained = run_inwards("check", "--explain", "INW001", cwd=project, env=env)
    assert plain.code == explained.code == 1
    assert "Why INW001 layer-dependency reported what it did:" in explained.stdout
    assert explained.stdout.startswith(plain.stdout.split("\n", 1)[0])
    set_config(project, 'severity = { INW001 = "warning" }\n')
    assert run_inwards("check", "--explain", "INW001", cwd=project, env=env).code == 0


def test_check_explain_json_carries_the_explanation(project: Path, xdg: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(xdg)}
    done = run_inwards(
        "check", "--explain", "layer-dependency", "--format", "json", cwd=project, env=env
    )
    assert done.code == 1, done.stderr
    document = json.loads(done.stdout)  # validated against the diagnostics schema by run_inwards
    assert document["explanation"]["schema"] == "inwards/why@1"
    assert document["explanation"]["code"] == "INW001"
    assert document["diagnostics"]


def test_rules_why_exit_0_with_findings(project: Path, xdg: Path) -> None:
    done = why(project, xdg, "INW001")
    assert done.code == 0, done.stderr
    assert "Why INW001 layer-dependency reported what it did:" in done.stdout
    assert "INW001 (error)" not in done.stdout  # the explanation only, not the findings


def test_rules_why_exit_2_on_a_broken_project_definition(project: Path, xdg: Path) -> None:
    write_tree(project, {".inwards/rules/INW001.toml": 'overlays = "INW001"\nseverity = 3\n'})
    done = why(project, xdg, "INW001")
    assert done.code == 2
    assert ".inwards/rules/INW001.toml" in done.stderr
    assert done.stdout == ""


def test_schema_why_is_printed(project: Path) -> None:
    done = run_inwards("schema", "why", cwd=project)
    assert done.code == 0, done.stderr
    assert json.loads(done.stdout)["$id"] == "urn:inwards:schema:why"


def test_explain_refused_with_sarif(project: Path, xdg: Path) -> None:
    done = run_inwards("check", "--explain", "INW001", "--format", "sarif", cwd=project)
    assert done.code == 2
    assert "--explain can't be used with" in done.stderr


def test_explain_skips_run_memo(project: Path, xdg: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(xdg)}
    assert run_inwards("check", cwd=project, env=env).code == 1  # keeps a memo
    memos = sorted(p.name for p in (project / ".inwards" / "cache").iterdir())
    assert run_inwards("check", cwd=project, env=env).code == 1  # recalled
    done = run_inwards("check", "--explain", "INW001", cwd=project, env=env)
    assert done.code == 1
    # The trace is only there when the engine ran: a recalled report has none.
    assert "suppression-unused: src/shop/domain/order.py:3:" in done.stdout
    assert sorted(p.name for p in (project / ".inwards" / "cache").iterdir()) == memos


# -- one test per reason -------------------------------------------------------------------


def test_unknown_code_suggests_the_closest(project: Path, xdg: Path) -> None:
    done = why(project, xdg, "INW0O1")
    assert done.code == 2
    assert 'Did you mean "INW001"?' in done.stderr
    assert run_inwards("check", "--explain", "INW999", cwd=project).code == 2


def test_void_only_names_the_unusable_file(project: Path, xdg: Path) -> None:
    broken = xdg / "inwards" / "rules" / "ACME001.toml"
    broken.write_text('code = "ACME001"\nname = "acme-rule"\ncheck = "inw.nope"\n', "utf-8")
    done = why(project, xdg, "ACME001")
    assert done.code == 2
    assert "ACME001 is defined only by files that can't be used:" in done.stderr
    assert str(broken) in done.stderr


def test_shadowed_names_the_lower_definition(project: Path, xdg: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(xdg)}
    assert (
        run_inwards("rules", "shadow", "INW001", "--to", "project", cwd=project, env=env).code == 0
    )
    [shadowed] = reasons(why_json(project, xdg, "INW001"), "shadowed")
    assert "the core definition" in shadowed["message"]
    assert "project definition .inwards/rules/INW001.toml" in shadowed["message"]


def test_stale_shadow(project: Path, xdg: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(xdg)}
    assert (
        run_inwards("rules", "shadow", "INW001", "--to", "project", cwd=project, env=env).code == 0
    )
    shadow = project / ".inwards" / "rules" / "INW001.toml"
    text = shadow.read_text(encoding="utf-8")
    recorded = text.split('sha256 = "', 1)[1].split('"', 1)[0]
    shadow.write_text(text.replace(recorded, "0" * 64), encoding="utf-8")
    messages = [entry["message"] for entry in reasons(why_json(project, xdg, "INW001"), "shadowed")]
    assert any(message.startswith("stale shadow:") for message in messages)


def test_guidance_only_user_policy(project: Path, xdg: Path) -> None:
    (project / "pyproject.toml").write_text(
        CONFIG.replace("[tool.inwards]\n", '[tool.inwards]\nuser-rules = "guidance-only"\n'),
        encoding="utf-8",
    )
    env = {"XDG_CONFIG_HOME": str(xdg)}
    done = run_inwards("rules", "shadow", "INW001", "--to", "user", cwd=project, env=env)
    assert done.code == 0, done.stderr
    document = why_json(project, xdg, "INW001")
    policy = [entry["message"] for entry in reasons(document, "user-policy")]
    assert any('user-rules = "guidance-only"' in message for message in policy)
    assert document["inForce"]["root"] == "core"
    assert not reasons(document, "shadowed")  # the user file lends guidance, shadows nothing


def test_chains_not_followed_with_paths(project: Path, xdg: Path) -> None:
    write_tree(
        project,
        {
            ".inwards/rules/ACME005.toml": 'code = "ACME005"\nname = "no-json-anywhere"\n'
            'check = "inw.forbidden"\nsummary = "The domain does not reach json."\n'
            '[options]\nmodules = ["shop.domain"]\nforbidden = ["json"]\nindirect = true\n'
        },
    )
    document = why_json(project, xdg, "ACME005", "src/shop/domain/order.py")
    [skipped] = reasons(document, "not-run-with-paths")
    assert "import chains were not followed" in skipped["message"]


def test_overlay_chain_and_fields(project: Path, xdg: Path) -> None:
    write_tree(
        project, {".inwards/rules/INW001.toml": 'overlays = "INW001"\nseverity = "warning"\n'}
    )
    document = why_json(project, xdg, "INW001")
    messages = [entry["message"] for entry in reasons(document, "overlay")]
    assert messages[0].startswith("the definition in force is an overlay, merged from")
    assert "severity: set by the project overlay .inwards/rules/INW001.toml" in messages
    assert not reasons(document, "shadowed")
    [finding] = document["findings"]
    assert [link["root"] for link in finding["overlayChain"]] == ["core", "project"]
    assert finding["severity"] == "warning"


def test_collision_of_project_and_user(project: Path, xdg: Path) -> None:
    rule = (
        'code = "ACME004"\nname = "no-json-in-domain"\ncheck = "inw.forbidden"\n'
        'summary = "The domain does not use json."\nseverity = "{severity}"\n'
        '[options]\nmodules = ["shop.domain"]\nforbidden = ["json"]\n'
    )
    (xdg / "inwards" / "rules" / "ACME004.toml").write_text(rule.format(severity="error"))
    write_tree(project, {".inwards/rules/ACME004.toml": rule.format(severity="warning")})
    [collision] = reasons(why_json(project, xdg, "ACME004"), "collision")
    assert collision["file"] == ".inwards/rules/ACME004.toml"
    assert 'on-collision = "warn"' in collision["message"]
    assert "severity" in collision["message"]


def test_user_definition_in_force_and_isolated(project: Path, xdg: Path) -> None:
    (xdg / "inwards" / "rules" / "ACME002.toml").write_text(
        'code = "ACME002"\nname = "no-json-in-domain"\ncheck = "inw.forbidden"\n'
        'summary = "The domain does not use json."\n'
        '[options]\nmodules = ["shop.domain"]\nforbidden = ["json"]\n',
        "utf-8",
    )
    document = why_json(project, xdg, "ACME002")
    assert document["inForce"]["root"] == "user"
    [policy] = reasons(document, "user-policy")
    assert "comes from this machine" in policy["message"]
    done = why(project, xdg, "INW001", "--isolated")
    assert "user-policy: --isolated: the user root was not read" in done.stdout


def test_org_definition_in_force(project: Path, xdg: Path, tmp_path: Path) -> None:
    org = tmp_path / "org"
    write_tree(
        org,
        {
            "ACME007.toml": 'code = "ACME007"\nname = "no-json-in-adapters"\n'
            'check = "inw.forbidden"\nsummary = "Adapters do not use json."\n'
            '[options]\nmodules = ["shop.adapters"]\nforbidden = ["json"]\n'
        },
    )
    env = {"XDG_CONFIG_HOME": str(xdg), "INWARDS_ORG_RULES_DIR": str(org)}
    done = run_inwards("rules", "why", "ACME007", "--json", cwd=project, env=env)
    assert done.code == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["inForce"]["root"] == "org"
    [policy] = reasons(document, "user-policy")
    assert "organisation root" in policy["message"]
    [reported] = reasons(document, "reported")
    assert reported["file"] == "src/shop/adapters/db.py"
    assert document["findings"][0]["definition"]["root"] == "org"


def test_off_names_the_key_file_and_line(project: Path, xdg: Path) -> None:
    [off] = reasons(why_json(project, xdg, "INW006"), "off")
    assert (off["file"], off["line"]) == ("pyproject.toml", 9)
    assert "tool.inwards.rules.ignore[0]" in off["message"]
    [opt_in] = reasons(why_json(project, xdg, "INW013"), "off")
    assert 'default = "opt-in"' in opt_in["message"]


def test_severity_relevelled(project: Path, xdg: Path) -> None:
    set_config(project, 'severity = { INW001 = "warning" }\n')
    [severity] = reasons(why_json(project, xdg, "INW001"), "severity")
    assert (severity["file"], severity["line"]) == ("pyproject.toml", 10)
    assert "does not fail the run" in severity["message"]


def test_not_run_with_paths(project: Path, xdg: Path) -> None:
    document = why_json(project, xdg, "INW004", "src/shop/domain/order.py")
    [skipped] = reasons(document, "not-run-with-paths")
    assert "needs the whole project" in skipped["message"]


def test_named_path_not_checked(project: Path, xdg: Path) -> None:
    document = why_json(project, xdg, "INW001", "docs")
    [refused] = reasons(document, "not-checked")
    assert refused["file"] == "docs"
    assert "not checked" in refused["message"]


def test_files_not_read(project: Path, xdg: Path) -> None:
    not_read = reasons(why_json(project, xdg, "INW001"), "not-read")
    assert [entry["file"] for entry in not_read] == [
        "src/shop/__init__.py",
        "src/shop/api/__init__.py",
        "src/shop/api/routes.py",
    ]
    assert "no layer owns it" in not_read[0]["message"]


def test_unreadable_file(project: Path, xdg: Path) -> None:
    (project / "src/shop/domain/broken.py").write_bytes(b"def f(:\n")
    [unreadable] = reasons(why_json(project, xdg, "INW001", "src/shop/domain"), "unreadable")
    assert unreadable["file"] == "src/shop/domain/broken.py"


def test_out_of_scope_of_the_rules_modules(project: Path, xdg: Path) -> None:
    write_tree(
        project,
        {
            ".inwards/rules/ACME003.toml": 'code = "ACME003"\nname = "no-json-in-domain"\n'
            'check = "inw.forbidden"\nsummary = "The domain does not use json."\n'
            '[options]\nmodules = ["shop.domain"]\nforbidden = ["json"]\n'
        },
    )
    document = why_json(project, xdg, "ACME003")
    out = {entry["file"]: entry["message"] for entry in reasons(document, "out-of-scope")}
    assert (
        'shop.adapters.db is not covered by the rule\'s modules = ["shop.domain"]'
        in out["src/shop/adapters/db.py"]
    )
    assert "src/shop/domain/order.py" not in out


def test_suppressed_inline_where(project: Path, xdg: Path) -> None:
    [hidden] = reasons(why_json(project, xdg, "INW001"), "suppressed")
    assert (hidden["file"], hidden["line"]) == ("src/shop/domain/order.py", 2)
    assert 'reason="legacy"' in hidden["message"]


def test_unused_suppression(project: Path, xdg: Path) -> None:
    [unused] = reasons(why_json(project, xdg, "INW001"), "suppression-unused")
    assert (unused["file"], unused["line"]) == ("src/shop/domain/order.py", 3)
    assert "hides nothing" in unused["message"]


def test_baselined_names_the_entry(project: Path, xdg: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(xdg)}
    assert run_inwards("baseline", cwd=project, env=env).code == 0
    document = why_json(project, xdg, "INW001")
    [accepted] = reasons(document, "baselined")
    assert accepted["file"] == "src/shop/domain/order.py"
    assert "inwards-baseline.json" in accepted["message"]
    assert "entry: module shop.domain.order" in accepted["message"]
    assert not reasons(document, "reported")


def test_dead_options_of_a_rule_that_is_off(project: Path, xdg: Path) -> None:
    set_config(project, '\n[tool.inwards.rules.async-blocking]\nmodules = ["shop"]\n')
    [dead] = reasons(why_json(project, xdg, "INW013"), "dead-options")
    assert dead["file"] == "pyproject.toml"
    assert "which is off, so they do nothing" in dead["message"]


def test_dead_entry_of_the_rules_own_options(project: Path, xdg: Path) -> None:
    write_tree(
        project,
        {
            ".inwards/rules/ACME006.toml": 'code = "ACME006"\nname = "no-json-in-kernel"\n'
            'check = "inw.forbidden"\nsummary = "The kernel does not use json."\n'
            '[options]\nmodules = ["shop.kernel"]\nforbidden = ["json"]\n'
        },
    )
    [dead] = reasons(why_json(project, xdg, "ACME006"), "dead-options")
    assert dead["file"] == ".inwards/rules/ACME006.toml"
    assert "shop.kernel" in dead["message"]


def test_reported_with_its_definition(project: Path, xdg: Path) -> None:
    document = why_json(project, xdg, "INW001")
    [reported] = reasons(document, "reported")
    assert (reported["file"], reported["line"]) == ("src/shop/domain/order.py", 1)
    [finding] = document["findings"]
    assert finding["definition"]["root"] == "core"
    assert finding["definition"]["path"].endswith("INW001.toml")
    assert finding["overlayChain"] == []


def test_always_on(project: Path, xdg: Path) -> None:
    document = why_json(project, xdg, "INW000")
    assert reasons(document, "always-on")


def test_nothing_found(project: Path, xdg: Path) -> None:
    [nothing] = reasons(why_json(project, xdg, "INW005"), "nothing-found")
    assert "found nothing to report" in nothing["message"]


# -- the docs' example is a real output ----------------------------------------------------


def test_docs_example_is_the_real_output(tmp_path: Path) -> None:
    page = (REPO / "docs" / "rules-roots-and-shadowing.md").read_text(encoding="utf-8")
    section = page.split("## Why didn't my rule fire?", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console\n$ ", 1)[1].split("```", 1)[0]
    copy = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop-violations", copy)
    for command in block.split("\n$ "):
        line, _, shown = command.partition("\n")
        done = run_inwards(*line.split()[1:], cwd=copy)
        assert done.code == 0, done.stderr
        assert done.stdout == shown.rstrip("\n") + "\n", line
