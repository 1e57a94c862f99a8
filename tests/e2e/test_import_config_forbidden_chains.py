"""A converted `forbidden` contract names the same chains as `lint-imports`.

The project `flow` is shaped like kedro with one import added to its configuration code
(`kedro.config.abstract_config` importing `kedro.runner`): the config package may import
neither the runner, nor io, nor the pipeline. The runner's package imports a parallel
runner, which imports io (two statements) and the pipeline; a config loader imports the
runner's task, which imports io's data module. So lint-imports prints, for this contract:
the two direct imports into the runner, two chains to io (the shorter one through the task,
then, once that chain's imports are taken away, the one through the runner's package and
the parallel runner) and one chain to the pipeline, passing through the runner, itself a
forbidden module. Every shortest chain is unique at each search, so the hash seed picks
nothing.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree
from tests.e2e.import_linter_runs import (
    contract_codes,
    forbidden_chains,
    our_chains,
    run_check,
    run_lint_imports,
)

CONTRACTS = """\
[project]
name = "flow"

[tool.importlinter]
root_package = "flow"

[[tool.importlinter.contracts]]
name = "Config imports no runner, io or pipeline"
type = "forbidden"
source_modules = ["flow.config"]
forbidden_modules = ["flow.runner", "flow.io", "flow.pipeline"]

[[tool.importlinter.contracts]]
name = "The pipeline imports no runner"
type = "forbidden"
source_modules = ["flow.pipeline"]
forbidden_modules = ["flow.runner"]
"""
FLOW = {
    "pyproject.toml": CONTRACTS,
    "flow/__init__.py": "",
    "flow/config/__init__.py": "",
    "flow/config/abstract.py": "from typing import Any\n\nimport flow.runner\n",
    "flow/config/loader.py": "from flow.runner.task import Task\n",
    "flow/runner/__init__.py": '"""Runners."""\n\nfrom flow.runner.parallel import Parallel\n',
    "flow/runner/parallel.py": (
        "from flow.io import Catalog\n"
        "from flow.pipeline import Pipeline\n"
        "\n"
        "\n"
        "class Parallel:\n"
        "    def run(self) -> None:\n"
        "        from flow.io import MemoryDataset\n"
    ),
    "flow/runner/task.py": "import flow.io.data\n\n\nclass Task: ...\n",
    "flow/io/__init__.py": "class Catalog: ...\n\n\nclass MemoryDataset: ...\n",
    "flow/io/data.py": "",
    "flow/pipeline/__init__.py": "class Pipeline: ...\n",
}
CONTRACT_NAMES = ("Config imports no runner, io or pipeline", "The pipeline imports no runner")
EXPECTED = {
    "Config imports no runner, io or pipeline": {
        ("flow.config.abstract", "flow.runner"),
        ("flow.config.loader", "flow.runner.task"),
        ("flow.config.loader", "flow.runner.task", "flow.io.data"),
        ("flow.config.abstract", "flow.runner", "flow.runner.parallel", "flow.io"),
        ("flow.config.abstract", "flow.runner", "flow.runner.parallel", "flow.pipeline"),
    },
}


def _compare(project: Path, forbidden: tuple[str, ...]) -> dict[str, frozenset[tuple[str, ...]]]:
    """Runs both tools after `import-config`; asserts the same chains for each of the
    `forbidden` contracts and returns lint-imports' chains."""
    theirs = run_lint_imports(project)
    converted = run_inwards("import-config", cwd=project)
    assert converted.code == 0, converted.stderr
    codes = contract_codes(converted.stdout)
    ours = run_check(project)
    printed = forbidden_chains(theirs.output)
    expected = {name: printed[name] for name in forbidden if name in printed}
    assert expected, theirs.output
    for name in forbidden:
        assert our_chains(ours, codes[name]) == expected.get(name, frozenset()), (
            name,
            theirs.output,
            ours.output,
        )
    return expected


def test_a_forbidden_contract_gets_lint_imports_chains(tmp_path: Path) -> None:
    project = write_tree(tmp_path, FLOW)
    assert _compare(project, tuple(CONTRACT_NAMES)) == EXPECTED
    # The other statement importing io in the parallel runner (line 7) is listed with the
    # chain, as lint-imports lists both lines of that step.
    converted = run_check(project)
    assert any("flow/runner/parallel.py:7" in str(f["message"]) for f in converted.findings)


CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
KEDRO = CORPORA / "contracts/kedro-1.7.0"


@pytest.mark.corpus
def test_kedro_with_config_importing_the_runner(tmp_path: Path) -> None:
    if not KEDRO.is_dir():
        pytest.skip(f"corpus {KEDRO} is not there (set INWARDS_CORPORA to its folder)")
    project = tmp_path / "kedro"
    shutil.copytree(KEDRO, project, symlinks=True)
    abstract = project / "kedro/config/abstract_config.py"
    text = abstract.read_text(encoding="utf-8")
    abstract.write_text(
        re.sub(
            r"^from typing import Any$",
            "from typing import Any\n\nimport kedro.runner",
            text,
            count=1,
            flags=re.MULTILINE,
        ),
        encoding="utf-8",
    )
    chains = _compare(
        project, ("Config cannot import Runner et al", "Runner et al cannot import Config")
    )
    # config -> runner, and config -> io and config -> pipeline through the runner
    assert len(chains["Config cannot import Runner et al"]) == 3, chains
