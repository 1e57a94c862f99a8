"""After `inwards import-config`, the rest of the product sees the contracts' layers.

Three small projects shaped like the ones that ship import-linter contracts: `flow` like
kedro (a layers contract inside the package, with dotted layer names, code outside the
layers, an ignored import, and independence and forbidden contracts beside it), `fetcher`
like dfetch (full module names, no containers, `|` siblings, in `pyproject.toml`) and `kit`
like usethis (a src layout, a layers contract for the package and nested ones for some of its
layers, exhaustive, `:` and `|` siblings, an acyclic contract). Each is converted, then:

- `inwards check` gives lint-imports' verdict on every contract, kept and broken, and no
  finding of any other rule (the layers written into `[tool.inwards]` bring none);
- `inwards diagram` draws the layers, `explain-module` names a module's layer, what it may
  import and what each contract's rule says about it, and `context` lists the layers and
  the layerings of the rules.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree
from tests.e2e.import_linter_runs import contract_codes, run_check, run_lint_imports

FLOW_CONTRACTS = """\
[project]
name = "flow"

[tool.importlinter]
root_package = "flow"

[[tool.importlinter.contracts]]
name = "CLI > Session > Runner > IO > Pipeline > Config"
type = "layers"
containers = "flow"
layers = [
    "framework.cli",
    "framework.session",
    "runner",
    "io",
    "pipeline",
    "config",
]
ignore_imports = ["flow.runner.task -> flow.framework.session.store"]

[[tool.importlinter.contracts]]
name = "Pipeline and IO are independent"
type = "independence"
modules = ["flow.pipeline", "flow.io"]

[[tool.importlinter.contracts]]
name = "Config imports no runner"
type = "forbidden"
source_modules = ["flow.config"]
forbidden_modules = ["flow.runner"]
"""
FLOW = {
    "pyproject.toml": FLOW_CONTRACTS,
    "flow/__init__.py": "",
    "flow/utils.py": "",  # in no layer: a chain may run through it
    "flow/config/__init__.py": "",
    "flow/config/loader.py": "",
    "flow/pipeline/__init__.py": "",
    "flow/pipeline/node.py": "import flow.utils\nfrom flow.config import loader\n",
    "flow/io/__init__.py": "",
    "flow/io/data.py": "from flow.config import loader\n",
    "flow/runner/__init__.py": "",
    "flow/runner/task.py": "import flow.io.data\nimport flow.framework.session.store\n",
    "flow/framework/__init__.py": "",
    "flow/framework/hooks.py": "import flow.runner.task\n",  # in no layer either
    "flow/framework/session/__init__.py": "",
    "flow/framework/session/store.py": "import flow.runner\n",
    "flow/framework/cli/__init__.py": "",
    "flow/framework/cli/main.py": "import flow.framework.session.store\n",
    "tests/test_flow.py": "import flow.framework.cli.main\n",
}
# The pipeline reaches the runner through flow.utils, which no layer owns, and io through
# the runner: the layers and the independence break, the forbidden contract holds.
FLOW_BROKEN = {"flow/utils.py": "import flow.runner.task\n"}

FETCHER_CONTRACTS = """\
[project]
name = "fetcher"

[tool.importlinter]
root_packages = ["fetcher"]

[[tool.importlinter.contracts]]
name = "Fetcher layers"
type = "layers"
layers = [
    "fetcher.commands",
    "fetcher.project",
    "fetcher.manifest | fetcher.vcs",
    "fetcher.util | fetcher.log",
]
"""
FETCHER = {
    "pyproject.toml": FETCHER_CONTRACTS,
    "fetcher/__init__.py": "",
    "fetcher/__main__.py": "import fetcher.commands.update\n",
    "fetcher/commands/__init__.py": "",
    "fetcher/commands/update.py": "import fetcher.project.sync\n",
    "fetcher/project/__init__.py": "",
    "fetcher/project/sync.py": "import fetcher.manifest.reader\nimport fetcher.vcs.git\n",
    "fetcher/manifest/__init__.py": "",
    "fetcher/manifest/reader.py": "import fetcher.util.paths\n",
    "fetcher/vcs/__init__.py": "",
    "fetcher/vcs/git.py": "import fetcher.log\n",
    "fetcher/util/__init__.py": "",
    "fetcher/util/paths.py": "",
    "fetcher/log.py": "",
}
# Two siblings of one entry: they may not import each other.
FETCHER_BROKEN = {"fetcher/manifest/reader.py": "import fetcher.vcs.git\n"}

KIT_CONTRACTS = """\
[importlinter]
root_packages =
    kit

[importlinter:contract:acyclic]
name = Acyclic siblings
type = acyclic_siblings
ancestors = kit

[importlinter:contract:kit]
name = kit
type = layers
containers =
    kit
layers =
    __main__
    _ui
    _tool
    _config | errors
exhaustive = true
exhaustive_ignores =
    _version

[importlinter:contract:tool]
name = kit._tool
type = layers
containers =
    kit._tool
layers =
    impl
    base
    spec : rule
exhaustive = true

[importlinter:contract:impl]
name = kit._tool.impl
type = layers
containers =
    kit._tool.impl
layers =
    ruff
    pytest | coverage
exhaustive = true
"""
KIT = {
    ".importlinter": KIT_CONTRACTS,
    "src/kit/__init__.py": "",
    "src/kit/_version.py": "",
    "src/kit/__main__.py": "import kit._ui.app\n",
    "src/kit/_ui/__init__.py": "",
    "src/kit/_ui/app.py": "import kit._tool.impl.ruff\n",
    "src/kit/_tool/__init__.py": "",
    "src/kit/_tool/impl/__init__.py": "",
    "src/kit/_tool/impl/ruff.py": "import kit._tool.impl.pytest\nimport kit._tool.base\n",
    "src/kit/_tool/impl/pytest.py": "import kit._tool.spec\n",
    "src/kit/_tool/impl/coverage.py": "import kit._tool.rule\n",
    "src/kit/_tool/base.py": "import kit._tool.spec\n",
    "src/kit/_tool/spec.py": "import kit._tool.rule\nimport kit._config\n",
    "src/kit/_tool/rule.py": "import kit.errors\n",
    "src/kit/_config.py": "",
    "src/kit/errors.py": "",
}
# The tool's base imports impl, its outer layer in the nested contract, which imports it:
# that contract breaks and so does the acyclic one; the package's contract holds.
KIT_BROKEN = {
    "src/kit/_tool/base.py": "import kit._tool.spec\nimport kit._tool.impl.coverage\n",
}

PROJECTS = {
    "flow": (FLOW, FLOW_BROKEN, "."),
    "fetcher": (FETCHER, FETCHER_BROKEN, "."),
    "kit": (KIT, KIT_BROKEN, "src"),
}
# The contracts lint-imports finds broken in each project with its breaking change.
BROKEN = {
    "flow": {"CLI > Session > Runner > IO > Pipeline > Config", "Pipeline and IO are independent"},
    "fetcher": {"Fetcher layers"},
    "kit": {"Acyclic siblings", "kit._tool"},
}


def converted(tmp_path: Path, name: str, *, broken: bool) -> tuple[Path, str]:
    files, breaking, _ = PROJECTS[name]
    project = write_tree(tmp_path / name, {**files, **(breaking if broken else {})})
    done = run_inwards("import-config", cwd=project)
    assert done.code == 0, done.stderr
    assert "not converted" not in done.stdout, done.stdout
    return project, done.stdout


@pytest.mark.parametrize("broken", [False, True], ids=["kept", "broken"])
@pytest.mark.parametrize("name", sorted(PROJECTS))
def test_check_gives_lint_imports_verdicts_and_nothing_else(
    tmp_path: Path, name: str, broken: bool
) -> None:
    _, _, pythonpath = PROJECTS[name]
    project, report = converted(tmp_path, name, broken=broken)
    # lint-imports reads the same tree: import-config added only pyproject.toml's table
    # and .inwards/rules, which it doesn't read.
    theirs = run_lint_imports(project, pythonpath)
    assert theirs.verdicts, theirs.output
    broken_contracts = {contract for contract, v in theirs.verdicts.items() if v == "BROKEN"}
    assert broken_contracts == (BROKEN[name] if broken else set()), theirs.output
    ours = run_check(project)
    assert (ours.code != 0) == (theirs.code != 0), (theirs.output, ours.output)
    codes = contract_codes(report)
    assert set(codes) == set(theirs.verdicts)
    for contract, verdict in theirs.verdicts.items():
        assert ours.broken(codes[contract]) == (verdict == "BROKEN"), (contract, ours.output)
    # The layers of [tool.inwards] bring no finding of their own (INW001, INW006, ...).
    assert {finding["code"] for finding in ours.findings} <= set(codes.values()), ours.output


def test_a_kedro_shaped_project_gets_its_layers_everywhere(tmp_path: Path) -> None:
    project, report = converted(tmp_path, "flow", broken=False)
    layers_line = (
        "  layers: [tool.inwards] has the layers of IL001 "
        "'CLI > Session > Runner > IO > Pipeline > Config', which `inwards diagram`, "
        "`explain-module` and `context` show"
    )
    assert layers_line in report.splitlines()
    diagram = run_inwards("diagram", cwd=project)
    assert diagram.code == 0, diagram.stderr
    assert diagram.stdout.splitlines()[3:] == [
        '  framework_cli["framework.cli: flow.framework.cli"]',
        '  framework_session["framework.session: flow.framework.session"]',
        '  runner["runner: flow.runner"]',
        '  io["io: flow.io"]',
        '  pipeline["pipeline: flow.pipeline"]',
        '  config["config: flow.config"]',
        "  framework_cli --> framework_session",
        "  framework_session --> runner",
        "  runner --> io",
        "  io --> pipeline",
        "  pipeline --> config",
    ]
    explained = run_inwards("explain-module", "flow.io.data", cwd=project)
    assert explained.code == 0, explained.stderr
    lines = explained.stdout.splitlines()
    assert lines[1].startswith("  layer:    io (tool.inwards.layers[2].modules[0])")
    assert "  may import layers: config, pipeline, io" in lines
    assert "  libraries: not checked (INW005 is off)" in lines
    assert lines[lines.index("  rules:") + 1 :] == [
        '    IL001 il-cli-session-runner-io-pipeline-config: layer "io" of flow: may import '
        "config, pipeline; not runner, framework.session, framework.cli, not even through "
        "other modules",
        "    IL002 il-pipeline-and-io-are-independent: flow.io and flow.pipeline may not "
        "import each other, not even through other modules",
    ]
    # Code outside the layers is in none, as lint-imports sees it.
    outside = run_inwards("explain-module", "flow.utils", "--json", cwd=project)
    assert json.loads(outside.stdout)["layer"] is None
    brief = run_inwards("context", cwd=project)
    assert brief.code == 0, brief.stderr
    brief_lines = brief.stdout.splitlines()
    assert "3. **io** (`flow.io`): may import config, pipeline." in brief_lines
    assert (
        "- IL001 il-cli-session-runner-io-pipeline-config (in `flow`): the layers above; "
        "chains of imports through other modules count too."
    ) in brief_lines


def test_a_dfetch_shaped_project_draws_its_siblings(tmp_path: Path) -> None:
    project, _ = converted(tmp_path, "fetcher", broken=False)
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    assert (
        textwrap.dedent("""\
        layers = [
          [
            { name = "fetcher.util", modules = ["fetcher.util"] },
            { name = "fetcher.log", modules = ["fetcher.log"] },
          ],
          [
            { name = "fetcher.manifest", modules = ["fetcher.manifest"] },
            { name = "fetcher.vcs", modules = ["fetcher.vcs"] },
          ],
          { name = "fetcher.project", modules = ["fetcher.project"] },
          { name = "fetcher.commands", modules = ["fetcher.commands"] },
        ]
        """)
        in text
    )
    diagram = run_inwards("diagram", cwd=project)
    assert "  fetcher_manifest & fetcher_vcs --> fetcher_util & fetcher_log" in diagram.stdout
    explained = run_inwards("explain-module", "fetcher.vcs.git", "--json", cwd=project)
    document = json.loads(explained.stdout)
    assert document["layer"]["name"] == "fetcher.vcs"
    assert document["may_import"]["layers"] == ["fetcher.util", "fetcher.log", "fetcher.vcs"]
    (rule,) = document["rules"]
    assert (rule["code"], rule["layer"], rule["container"]) == ("IL001", "fetcher.vcs", None)
    assert rule["may_not_import"] == [
        "fetcher.manifest", "fetcher.project", "fetcher.commands"
    ]  # fmt: skip
    brief = run_inwards("context", cwd=project).stdout.splitlines()
    assert "- fetcher.manifest, fetcher.vcs" in brief  # a sibling group


def test_a_usethis_shaped_project_shows_its_nested_layerings(tmp_path: Path) -> None:
    project, _ = converted(tmp_path, "kit", broken=False)
    # The package's contract gives [tool.inwards] its layers; the nested ones stay rules.
    diagram = run_inwards("diagram", cwd=project)
    assert diagram.code == 0, diagram.stderr
    boxes = [line.split("[")[0].strip() for line in diagram.stdout.splitlines() if '["' in line]
    assert boxes == ["__main__", "_ui", "_tool", "_config", "errors"]
    nested = run_inwards("diagram", "--rule", "il-tool", cwd=project)
    assert nested.code == 0, nested.stderr
    assert "inwards: layers" not in nested.stdout  # not a diagram the diagram rules read
    assert nested.stdout.splitlines()[2:] == [
        '  impl["impl: kit._tool.impl"]',
        '  base["base: kit._tool.base"]',
        '  spec___rule["spec : rule: kit._tool.spec, kit._tool.rule"]',
        "  impl --> base",
        "  base --> spec___rule",
    ]
    explained = run_inwards("explain-module", "kit._tool.impl.coverage", cwd=project)
    lines = explained.stdout.splitlines()
    assert lines[1].startswith("  layer:    _tool (tool.inwards.layers[1].modules[0])")
    assert lines[lines.index("  rules:") + 1 :] == [
        "    IL001 il-acyclic: the packages below kit (down to depth 10) may not import each "
        "other in a cycle",
        '    IL002 il-kit: layer "_tool" of kit: may import _config, errors; not _ui, '
        "__main__, not even through other modules",
        '    IL003 il-tool: layer "impl" of kit._tool: may import spec, rule, base',
        '    IL004 il-impl: layer "coverage" of kit._tool.impl: may import no other layer; '
        "not pytest, ruff, not even through other modules",
    ]
    brief = run_inwards("context", cwd=project).stdout.splitlines()
    start = brief.index(
        "Layers that rules check, each on its own, innermost first (`a | b`: siblings that "
        "may not import each other; `a : b`: siblings that may):"
    )
    chains = "; chains of imports through other modules count too."
    assert brief[start + 1 : start + 4] == [
        f"- IL002 il-kit (in `kit`): the layers above{chains}",
        f"- IL003 il-tool (in `kit._tool`): spec : rule <- base <- impl{chains}",
        f"- IL004 il-impl (in `kit._tool.impl`): pytest | coverage <- ruff{chains}",
    ]


def test_diagram_rule_refuses_what_it_can_not_draw(tmp_path: Path) -> None:
    project, _ = converted(tmp_path, "kit", broken=False)
    unknown = run_inwards("diagram", "--rule", "IL099", cwd=project)
    assert unknown.code == 2 and unknown.stdout == ""
    assert "--rule IL099: no rule has that code or name" in unknown.stderr
    acyclic = run_inwards("diagram", "--rule", "IL001", cwd=project)
    assert acyclic.code == 2
    assert "IL001 (kind inw.acyclic) checks no layers" in acyclic.stderr
    off = run_inwards("diagram", "--rule", "INW001", cwd=project)
    assert off.code == 2
    assert "INW001 is off in this project" in off.stderr
    both = run_inwards("diagram", "--rule", "IL002", "--contexts", cwd=project)
    assert both.code == 2
    assert "choose one" in both.stderr
