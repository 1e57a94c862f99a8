"""The diagram rules (INW017-INW019) on a real architecture diagram nobody here wrote.

dfetch 0.14.4 (``contracts/dfetch-0.14.4`` in the corpora) documents its architecture with
C4-PlantUML diagrams (``doc/static/uml/*.puml``, 9 files) and enforces the layering of its
container diagram with an import-linter ``layers`` contract in its pyproject.toml. This
script copies the package and the diagrams to ``bench/out/precision/dfetch/``, writes a
``[tool.inwards]`` whose layers are that contract's (named after the diagram's container
aliases, so the diagram's ids are the layers' names), marks the container diagram
(``c2_dfetch_containers.puml``) with ``' inwards: layers`` (its only change), and runs each
diagram rule, writing ``bench/out/precision/dfetch.<CODE>.json`` for ``bench/precision.py``.
It also reads every one of the 9 files with the PlantUML reader, marked or not, and prints
what it found and any problem (a clean parse is no problem).

usage: python bench/precision_dfetch_diagrams.py [--corpora-dir DIR] [--inwards PATH]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
OUT = BENCH_DIR / "out" / "precision"
SOURCE = "contracts/dfetch-0.14.4"
UML = "doc/static/uml"
MARKED = "c2_dfetch_containers.puml"
RULES = ("INW017", "INW018", "INW019")
# dfetch's own import-linter contract, innermost first, named as the diagram names them.
PYPROJECT = """\
# dfetch's "C4 architecture layers" import-linter contract, as inwards layers
# (bench/precision_dfetch_diagrams.py).
[tool.inwards]
diagrams = ["doc/static/uml/*.puml"]
layers = [
  [
    { name = "util", modules = ["dfetch.util"] },
    { name = "log", modules = ["dfetch.log"] },
    { name = "terminal", modules = ["dfetch.terminal"] },
  ],
  [
    { name = "contManifest", modules = ["dfetch.manifest"] },
    { name = "contVcs", modules = ["dfetch.vcs"] },
  ],
  { name = "contProject", modules = ["dfetch.project"] },
  { name = "contReporting", modules = ["dfetch.reporting"] },
  { name = "contCommands", modules = ["dfetch.commands"] },
]

[tool.inwards.rules]
extend-select = ["INW017", "INW018", "INW019"]
"""


def prepare(corpora: Path) -> Path:
    source = corpora / SOURCE
    if not (source / UML).is_dir():
        raise SystemExit(f"{source / UML} is not there: fetch the corpora first")
    copy = OUT / "dfetch"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(source / "dfetch", copy / "dfetch")
    shutil.copytree(source / UML, copy / UML)
    marked = copy / UML / MARKED
    lines = marked.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(1, "' inwards: layers\n")  # right after @startuml
    marked.write_text("".join(lines), encoding="utf-8")
    (copy / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return copy


def parse_every_file(copy: Path) -> int:
    sys.path.insert(0, str(BENCH_DIR.parent))
    from inwards_core.diagrams.plantuml import parse_plantuml

    problems = 0
    for path in sorted((copy / UML).glob("*.puml")):
        diagram = parse_plantuml(path.read_text(encoding="utf-8").splitlines(), 1, "layers", "")
        problems += len(diagram.problems)
        print(
            f"{path.name:40} {len(diagram.nodes):3} nodes {len(diagram.edges):3} edges "
            f"{len(diagram.problems)} problems"
        )
        for problem in diagram.problems:
            print(f"    {problem.line}:{problem.column}: {problem.message}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora-dir", type=Path, default=Path("/work/corpora"))
    parser.add_argument("--inwards", default=str(BENCH_DIR.parent / ".venv" / "bin" / "inwards"))
    options = parser.parse_args(argv)
    copy = prepare(options.corpora_dir)
    failed = parse_every_file(copy) > 0
    for code in RULES:
        done = subprocess.run(
            [options.inwards, "check", "--no-cache", "--format", "json", "--select", code],
            cwd=copy,
            capture_output=True,
            text=True,
        )
        if done.returncode not in (0, 1):
            print(f"{code}: inwards failed ({done.returncode}): {done.stderr}", file=sys.stderr)
            failed = True
            continue
        (OUT / f"dfetch.{code}.json").write_text(done.stdout, encoding="utf-8")
        diagnostics = json.loads(done.stdout)["diagnostics"]
        count = sum(1 for diagnostic in diagnostics if diagnostic["code"] == code)
        print(f"dfetch  {code}  {count} findings")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
