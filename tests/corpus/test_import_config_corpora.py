"""`inwards import-config` on projects that ship import-linter contracts: import-linter's
own, kedro's, dfetch's and usethis's (`../shared/bench/get-corpora.sh DIR contracts`).

Each is copied, converted, checked by `inwards check` and by the real `lint-imports`, as
shipped and with every `ignore_imports` removed (kedro: three contracts then break). Per
contract the verdicts agree, and every import of every route lint-imports prints is shown
by a finding of that contract's rule with its file and line.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards
from tests.e2e.import_linter_runs import (
    InwardsCheck,
    LintImports,
    contract_codes,
    covers,
    module_file,
    run_check,
    run_lint_imports,
)

CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
# name: (folder under the corpora, the folder holding the root packages)
PROJECTS = {
    "import-linter": ("contracts/import-linter-2.16", "src"),
    "kedro": ("contracts/kedro-1.7.0", "."),
    "dfetch": ("contracts/dfetch-0.14.4", "."),
    "usethis": ("contracts/usethis-0.22.0", "src"),
}
# lint-imports' verdicts, seen on these versions: the test also pins them.
BROKEN_WITHOUT_IGNORES = {
    "kedro": {
        "CLI > Context > Library, Runner > Extras > IO & Pipeline",
        "Pipeline and IO are independent",
        "Runner et al cannot import Config",
    }
}
# One import appended to one file, and what lint-imports then finds broken: an ignore that
# names only the module `kedro` must not let `kedro.pipeline.pipeline` through (an `allow`
# prefix would), and a new cycle below importlinter.domain.
MUTATIONS = {
    "kedro": (
        "kedro/pipeline/pipeline.py",
        "import kedro.ipython\n",
        {
            "CLI > Context > Library, Runner > Extras > IO & Pipeline",
            "Pipeline and IO are independent",
        },
    ),
    "import-linter": (
        "src/importlinter/domain/imports.py",
        "import importlinter.domain.helpers\n",
        {"All packages are acyclic"},
    ),
}
_CONFIGS = ("pyproject.toml", ".importlinter", "setup.cfg")
_TOML_IGNORES = re.compile(r"^ignore_imports\s*=\s*\[[^\]]*\]\n", re.MULTILINE)
_INI_IGNORES = re.compile(r"^ignore_imports\s*=.*\n(?:[ \t]+\S.*\n)*", re.MULTILINE)


def copy_of(name: str, tmp_path: Path, *, without_ignores: bool, mutated: bool = False) -> Path:
    folder, _ = PROJECTS[name]
    source = CORPORA / folder
    if not source.is_dir():
        pytest.skip(f"corpus {source} is not there (set INWARDS_CORPORA to its folder)")
    target = tmp_path / name
    shutil.copytree(source, target, symlinks=True)
    if mutated:
        file, line, _ = MUTATIONS[name]
        path = target / file
        path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")
    if without_ignores:
        for config in _CONFIGS:
            path = target / config
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                path.write_text(_INI_IGNORES.sub("", _TOML_IGNORES.sub("", text)))
    return target


def converted_and_checked(
    tmp_path: Path, name: str, variant: str
) -> tuple[LintImports, InwardsCheck, dict[str, str], Path]:
    project = copy_of(
        name, tmp_path, without_ignores=variant == "without-ignores", mutated=variant == "mutated"
    )
    pythonpath = PROJECTS[name][1]
    theirs = run_lint_imports(project, pythonpath)
    assert theirs.verdicts, theirs.output
    converted = run_inwards("import-config", cwd=project)
    assert converted.code == 0, converted.stderr
    assert "not converted" not in converted.stdout, converted.stdout
    return theirs, run_check(project), contract_codes(converted.stdout), project / pythonpath


VARIANTS = pytest.mark.parametrize("variant", ["shipped", "without-ignores"])
NAMES = pytest.mark.parametrize("name", sorted(PROJECTS))


@pytest.mark.corpus
@VARIANTS
@NAMES
def test_same_verdict_per_contract_as_lint_imports(tmp_path: Path, name: str, variant: str) -> None:
    theirs, ours, codes, _ = converted_and_checked(tmp_path, name, variant)
    assert set(codes) == set(theirs.verdicts), codes
    expected_broken: set[str] = set()
    if variant == "without-ignores":
        expected_broken = BROKEN_WITHOUT_IGNORES.get(name, set())
    elif variant == "mutated":
        expected_broken = MUTATIONS[name][2]
    assert {n for n, v in theirs.verdicts.items() if v == "BROKEN"} == expected_broken
    ours_broken = {n for n, code in codes.items() if ours.broken(code)}
    assert ours_broken == expected_broken, ours.output
    assert ours.code == (1 if expected_broken else 0), ours.output
    # The layers import-config writes into [tool.inwards] bring no finding of their own.
    assert {f["code"] for f in ours.findings} <= set(codes.values()), ours.output
    uncovered = [
        (contract, importer, imported)
        for contract, found in theirs.pairs.items()
        for importer, imported in sorted(found)
        if not covers(ours, codes[contract], importer, imported)
    ]
    assert not uncovered, uncovered


@pytest.mark.corpus
@VARIANTS
@NAMES
def test_every_import_of_every_route_is_reported(tmp_path: Path, name: str, variant: str) -> None:
    # A step of a multi-line `from x import (\n    a,\n)` is at the statement's first line,
    # as lint-imports shows it (kedro/runner/task.py:17, not the name's line 18).
    theirs, ours, codes, root = converted_and_checked(tmp_path, name, variant)
    # Routes are printed for broken contracts only: the comparison below has something to
    # compare exactly where lint-imports breaks a contract (kedro without its ignores).
    broken = BROKEN_WITHOUT_IGNORES.get(name, set()) if variant == "without-ignores" else set()
    assert {contract for contract, imports in theirs.routes.items() if imports} == broken
    missing = [
        (contract, importer, imported, line)
        for contract, imports in theirs.routes.items()
        for importer, imported, line in sorted(imports)
        if not ours.reports(codes[contract], module_file(root, importer), imported, line)
    ]
    assert not missing, missing


# The boxes `inwards diagram` draws after the conversion: the layers of the project's
# (outermost) layers contract, a `|` group drawn as one box per sibling.
LAYER_BOXES = {"import-linter": 8, "kedro": 8, "dfetch": 8, "usethis": 20}


@pytest.mark.corpus
@NAMES
def test_the_converted_layers_are_drawn_and_explained(tmp_path: Path, name: str) -> None:
    _, _, _, root = converted_and_checked(tmp_path, name, "shipped")
    project = root.parent if root.name == "src" else root
    diagram = run_inwards("diagram", cwd=project)
    assert diagram.code == 0, diagram.stderr
    assert diagram.stdout.count('["') == LAYER_BOXES[name], diagram.stdout
    brief = run_inwards("context", cwd=project)
    assert ": the layers above;" in brief.stdout, brief.stdout


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_same_verdict_after_one_new_import(tmp_path: Path, name: str) -> None:
    test_same_verdict_per_contract_as_lint_imports(tmp_path, name, "mutated")
