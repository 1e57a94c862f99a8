"""What checking a uv workspace at its root costs against checking each member alone:
whole `inwards check` processes, medians over repeated runs.

The tree is `examples/workspace` (two members and a root configuration) or, with
`--members K --modules M`, a generated workspace of K members of M modules each (three
layers, every module importing one of the layer below and one of another member), without
a root configuration. Each scenario runs alternately:

- root: one `inwards check -q` at the workspace root (every member, one process);
- alone: `inwards check -q` in each member's directory, one process each, summed (and the
  root configuration with `--config`, when the tree has one: it then checks the whole tree,
  so the example's sum is an upper bound).

Cold runs pass `--no-cache`; warm runs keep `.inwards/cache` and the run memo from the
previous run.

usage: python bench/workspace.py [--members K --modules M] [--runs N] [--inwards PATH]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LAYERS = ("domain", "services", "adapters")


def generated(root: Path, members: int, modules: int) -> None:
    names = [f"m{index}" for index in range(members)]
    listed = ", ".join(f'"packages/{name}"' for name in names)
    (root / "pyproject.toml").write_text(f"[tool.uv.workspace]\nmembers = [{listed}]\n")
    per_layer = max(1, modules // len(LAYERS))
    for position, name in enumerate(names):
        member = root / "packages" / name
        layers = ",\n".join(
            f'  {{ name = "{layer}", modules = ["acme.{name}.{layer}"] }}' for layer in LAYERS
        )
        (member / "src" / "acme" / name).mkdir(parents=True)
        (member / "pyproject.toml").write_text(
            f'[project]\nname = "acme-{name}"\n\n[tool.inwards]\nroot = "src"\n'
            f"layers = [\n{layers},\n]\n"
        )
        (member / "src" / "acme" / name / "__init__.py").write_text("")
        other = names[(position + 1) % len(names)]
        for rank, layer in enumerate(LAYERS):
            package = member / "src" / "acme" / name / layer
            package.mkdir()
            (package / "__init__.py").write_text("")
            for index in range(per_layer):
                lines = ["import json", f"from acme.{other}.domain import m0"]
                if rank:
                    lines.append(f"from acme.{name}.{LAYERS[rank - 1]} import m{index}")
                lines.append(f"\n\ndef f{index}() -> int:\n    return {index}\n")
                (package / f"m{index}.py").write_text("\n".join(lines))


def members_of(root: Path) -> list[Path]:
    return sorted(path.parent for path in root.glob("packages/*/pyproject.toml"))


def timed(inwards: str, cwd: Path, *args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [inwards, "check", "-q", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode not in (0, 1):
        raise SystemExit(f"workspace bench: inwards failed in {cwd}:\n{done.stderr[-2000:]}")
    return elapsed


def measure(inwards: str, root: Path, runs: int, cold: bool) -> tuple[list[float], list[float]]:
    extra = ("--no-cache",) if cold else ()
    has_root_config = "[tool.inwards]" in (root / "pyproject.toml").read_text()
    at_root: list[float] = []
    alone: list[float] = []
    for _ in range(runs + 1):  # the first round warms the cache (and the disk) up
        at_root.append(timed(inwards, root, *extra))
        total = sum(timed(inwards, member, *extra) for member in members_of(root))
        if has_root_config:
            total += timed(inwards, root, "--config", "pyproject.toml", *extra)
        alone.append(total)
    return at_root[1:], alone[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=0)
    parser.add_argument("--modules", type=int, default=30)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--inwards", default=str(Path(sys.executable).parent / "inwards"))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "workspace"
        if options.members:
            root.mkdir()
            generated(root, options.members, options.modules)
            label = f"generated: {options.members} members x {options.modules} modules"
        else:
            shutil.copytree(REPO / "examples" / "workspace", root)
            label = "examples/workspace"
        print(f"{label}, {options.runs} runs each, medians")
        for cold in (True, False):
            at_root, alone = measure(options.inwards, root, options.runs, cold)
            root_ms, alone_ms = statistics.median(at_root), statistics.median(alone)
            print(
                f"  {'cold' if cold else 'warm'}: root {root_ms:.0f} ms, each alone (summed) "
                f"{alone_ms:.0f} ms, ratio {root_ms / alone_ms:.2f}"
            )


if __name__ == "__main__":
    main()
