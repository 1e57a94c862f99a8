"""The issue's "24 real trees with a made-up layering": real packages from the corpora, each
checked with ``layers`` = its subpackages in name order, as a new user's first guess would be.

Which trees (``select_trees``), deterministically: every package of a corpus project listed in
``MANIFEST.tsv`` (its top-level packages under the project's python path, and their
subpackages down to two levels below), in the manifest's order and then depth first in name
order, that has at least 4 subpackages and 20 ``.py`` files under it and no ``tests``/``test``
segment in its name; the first 24. On the corpora of /work/corpora that is django,
django.conf.locale, django.contrib, django.contrib.auth, django.contrib.gis, django.core,
django.db.backends, sympy and six of its subpackages, transformers, transformers.models,
dfetch, importlinter, kedro, kedro.framework, usethis, usethis._file, usethis._integrations
and fastapi.

Each tree's project (``prepare_tree``) is its top-level package, hard-linked (copied where a
link can't be made) into ``bench/out/trees/<tree>/``, with a ``pyproject.toml`` whose
``[tool.inwards]`` both ours and the reference read: ``root = "."``, one layer per subpackage,
innermost first in name order, so an import from a subpackage into one later in the alphabet
is a finding. The rest of the top-level package is outside the layers. The tools run with
``--no-cache`` and write nothing there, so both share the one copy.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

TREE_COUNT = 24
MIN_SUBPACKAGES = 4
MIN_FILES = 20
MAX_DEPTH = 2  # levels below a top-level package
SKIPPED_SEGMENTS = frozenset({"tests", "test"})
MANIFEST = "MANIFEST.tsv"


@attrs.frozen
class Tree:
    """One real package to check with a made-up layering."""

    name: str  # dotted, e.g. django.contrib
    project: str  # the corpus project it comes from (MANIFEST's name)
    package_dir: Path  # the directory of its top-level package in the corpus
    subpackages: tuple[str, ...]  # in name order: the layers, innermost first
    files: int  # .py files under the tree

    @property
    def top(self) -> str:
        return self.name.split(".", 1)[0]


def subpackages(directory: Path) -> list[str]:
    """Names of the regular packages directly in ``directory``, in name order."""
    return sorted(
        entry.name
        for entry in directory.iterdir()
        if entry.is_dir() and (entry / "__init__.py").is_file()
    )


def manifest_projects(corpora: Path) -> list[tuple[str, Path]]:
    """(name, python path directory) of each project in ``corpora/MANIFEST.tsv``, in order."""
    with (corpora / MANIFEST).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [(row["name"], corpora / row["path"] / row["pythonpath"]) for row in rows]


def _packages(top_dir: Path, dotted: str, depth: int) -> Iterator[tuple[str, Path]]:
    yield dotted, top_dir
    if depth < MAX_DEPTH:
        for name in subpackages(top_dir):
            yield from _packages(top_dir / name, f"{dotted}.{name}", depth + 1)


def candidate_trees(corpora: Path) -> Iterator[Tree]:
    """Every package of the corpora that qualifies, in the order the selection takes them."""
    for project, python_path in manifest_projects(corpora):
        if not python_path.is_dir():
            continue
        for top in subpackages(python_path):
            for dotted, directory in _packages(python_path / top, top, 0):
                if SKIPPED_SEGMENTS.intersection(dotted.split(".")):
                    continue
                layers = tuple(subpackages(directory))
                if len(layers) < MIN_SUBPACKAGES:
                    continue
                files = sum(1 for _ in directory.rglob("*.py"))
                if files >= MIN_FILES:
                    yield Tree(dotted, project, python_path / top, layers, files)


def select_trees(corpora: Path, count: int = TREE_COUNT) -> list[Tree]:
    """The first ``count`` qualifying trees (fewer when the corpora hold fewer)."""
    if not (corpora / MANIFEST).is_file():
        return []
    chosen: list[Tree] = []
    for tree in candidate_trees(corpora):
        chosen.append(tree)
        if len(chosen) == count:
            break
    return chosen


def tree_pyproject(tree: Tree) -> str:
    """``[tool.inwards]`` with one layer per subpackage of the tree, innermost first."""
    lines = [
        f"# {tree.name} ({tree.project}) with its subpackages as layers in name order, "
        "innermost first (bench/trees.py).",
        "[tool.inwards]",
        'root = "."',
        "layers = [",
    ]
    lines += [
        f'  {{ name = "{sub}", modules = ["{tree.name}.{sub}"] }},' for sub in tree.subpackages
    ]
    lines.append("]")
    return "\n".join(lines) + "\n"


def _link_or_copy(source: str, destination: str) -> None:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def prepare_tree(tree: Tree, out_dir: Path) -> Path:
    """The tree's project under ``out_dir``, made afresh: its package linked in, its config."""
    project = out_dir / tree.name
    if project.exists():
        shutil.rmtree(project)
    project.mkdir(parents=True)
    shutil.copytree(
        tree.package_dir,
        project / tree.top,
        ignore=shutil.ignore_patterns("__pycache__"),
        copy_function=_link_or_copy,
    )
    (project / "pyproject.toml").write_text(tree_pyproject(tree), encoding="utf-8")
    return project


_COUNTS = re.compile(r"(\d[\d,]*) (?:errors?|violations?|warnings?)\b")


def findings_count(summary: str) -> int | None:
    """Errors plus warnings from a summary line of ours or the reference, None if it has none.

    Ours: ``Found 3 errors and 1 warning in 9 files (4 ms).``, ``No errors, 2 warnings ...``,
    ``All clear: no problems ...``; the reference: ``Found 3 violations, 1 warning in 9 files
    (4 ms).``, ``All clear: 15 files, 0 violations (82.6 ms).``
    """
    if summary.startswith("All clear: no problems"):
        return 0
    counts = _COUNTS.findall(summary)
    if not counts:
        return None
    return sum(int(count.replace(",", "")) for count in counts)


def total_findings(counts: Sequence[int | None]) -> int | None:
    """The sum over all trees, None when any tree's count is missing."""
    if any(count is None for count in counts):
        return None
    return sum(count for count in counts if count is not None)
