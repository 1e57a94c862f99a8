"""Finding counts per code, ours against the reference inwards 0.7.0, on the 24 real trees of
`trees.py` (and, with `--before`, ours at an earlier commit too): what a change of rules did
on code nobody here wrote, and where the two products still disagree.

Each tool runs `inwards check --format json --no-cache` in each tree's copy
(`bench/out/trees/<tree>/`, shared and never written to), and the script counts the
`diagnostics[].code` of each document (both products write that field; codes of the INW
and FAPI families only, which both ship). It prints, per
code, the sum over the trees for each tool, then every tree where a code's counts differ
between ours and the reference.

usage: python bench/agreement.py [--ours PATH] [--before PATH] [--reference PATH]
                                 [--corpora-dir DIR] [--tree NAME ...]
PATH is an `inwards` executable: ours defaults to this virtualenv's, the reference to
`bench/peers.sh`'s (`~/.cache/inwards-bench/inwards-0.7.0/bin/inwards`); `--before` takes
ours built at another commit (a worktree with its own virtualenv).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from trees import prepare_tree, select_trees

HERE = Path(__file__).resolve().parent
REFERENCE = Path.home() / ".cache" / "inwards-bench" / "inwards-0.7.0" / "bin" / "inwards"
TIMEOUT_SECONDS = 900
# The families both products ship: a family installed only beside ours (the test family
# inwards-rules-tidy, say) would count as a disagreement.
SHARED_PREFIXES = ("INW", "FAPI")


def counts(executable: Path, project: Path) -> Counter[str] | str:
    """The codes of one run's diagnostics, or why there are none."""
    try:
        done = subprocess.run(
            [str(executable), "check", "--format", "json", "--no-cache"],
            cwd=project,
            capture_output=True,
            timeout=TIMEOUT_SECONDS,
            env={**os.environ, "NO_COLOR": "1"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"no answer in {TIMEOUT_SECONDS} s"
    try:
        document = json.loads(done.stdout)
    except ValueError:
        return f"exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[:200]}"
    codes = (str(diagnostic["code"]) for diagnostic in document.get("diagnostics", []))
    return Counter(code for code in codes if code.startswith(SHARED_PREFIXES))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ours", type=Path, default=Path(sys.executable).parent / "inwards")
    parser.add_argument("--before", type=Path)
    parser.add_argument("--reference", type=Path, default=REFERENCE)
    parser.add_argument(
        "--corpora-dir", type=Path, default=Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
    )
    parser.add_argument("--tree", action="append", default=[])
    options = parser.parse_args()
    tools = {"ours": options.ours, "reference": options.reference}
    if options.before:
        tools = {"before": options.before, **tools}
    totals: dict[str, Counter[str]] = {tool: Counter() for tool in tools}
    apart: list[str] = []
    for tree in select_trees(options.corpora_dir):
        if options.tree and tree.name not in options.tree:
            continue
        project = prepare_tree(tree, HERE / "out" / "trees")
        found = {tool: counts(path, project) for tool, path in tools.items()}
        for tool, result in found.items():
            if isinstance(result, str):
                apart.append(f"{tree.name}: {tool} gave no document ({result})")
            else:
                totals[tool].update(result)
        ours, reference = found["ours"], found["reference"]
        if isinstance(ours, Counter) and isinstance(reference, Counter):
            for code in sorted(set(ours) | set(reference)):
                if ours[code] != reference[code]:
                    apart.append(
                        f"{tree.name}: {code} ours {ours[code]}, reference {reference[code]}"
                    )
        print(f"{tree.name}: done", file=sys.stderr, flush=True)
    print("| code | " + " | ".join(tools) + " |")
    print("|---|" + "---|" * len(tools))
    for code in sorted(set().union(*totals.values())):
        print(f"| {code} | " + " | ".join(f"{totals[tool][code]:,}" for tool in tools) + " |")
    print("| all | " + " | ".join(f"{sum(totals[tool].values()):,}" for tool in tools) + " |")
    print()
    print(
        "Where ours and the reference differ:"
        if apart
        else "Ours and the reference agree on every tree."
    )
    for line in apart:
        print(f"- {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
