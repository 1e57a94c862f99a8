"""What the chain search of the generic kinds (`indirect = true`) costs on a project: the CPU
time spent in `shortest_chains` (routes included) during `inwards check --no-cache`, and the
wall time of the whole run, each the best of N runs in a fresh process.

usage: python bench/chain_search.py PROJECT_DIR [RUNS]

PROJECT_DIR must hold a [tool.inwards] table and rule definitions with `indirect = true`.
Measured for issue 15 (routes with heads and tails) on kedro 1.7.0 without its
ignore_imports (4 rules as the contracts) and on Django 6.1.3 (a layers, an independence
over django.contrib.* and a forbidden rule, all indirect): see the commit message.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

_CHILD = """
import os, sys, time
import inwards_core.families.inw.generic.import_chains as chains
import inwards_core.families.inw.generic.kind_layers as layers
spent = [0.0]
search = chains.shortest_chains
def timed(*args, **kwargs):
    start = time.process_time()
    try:
        return search(*args, **kwargs)
    finally:
        spent[0] += time.process_time() - start
chains.shortest_chains = layers.shortest_chains = timed
leave = os._exit
def report(code):
    sys.stderr.write(f"CHAIN-SEARCH-MS {spent[0] * 1000:.1f}\\n")
    sys.stderr.flush()
    leave(code)
os._exit = report
sys.argv = ["inwards", "check", "--no-cache"]
from inwards_cli.main import main
main()
"""


def _one_run(project: Path) -> tuple[float, float]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD], cwd=project, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    lines = [line for line in done.stderr.splitlines() if line.startswith("CHAIN-SEARCH-MS")]
    if not lines:
        raise SystemExit(f"no measure; stderr:\n{done.stderr}")
    return float(lines[-1].split()[1]), wall


def main() -> None:
    project = Path(sys.argv[1]).resolve()
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    measures = [_one_run(project) for _ in range(runs)]
    search = sorted(m[0] for m in measures)
    wall = sorted(m[1] for m in measures)
    print(
        f"{project.name}: chain search CPU best {search[0]:.1f} ms, median "
        f"{search[len(search) // 2]:.1f} ms; whole run best {wall[0]:.2f} s "
        f"({runs} runs)"
    )


if __name__ == "__main__":
    main()
