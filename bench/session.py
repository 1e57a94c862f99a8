"""How fast a warm `inwards_core.Session` answers after an edit: in-process, on the synthetic
project (``generate.py``, 2,000 modules and their packages: 2,105 files).

Opens one session on a copy of the project (the disk composition `inwards check` uses, with
its extraction cache), checks once to warm it, then times, over ``--edits`` edits of files
drawn at random (``random.Random(SEED)``), three things a resident session is asked:

- **edit**: a file is saved (one line appended to a function body, or an import added, in
  turns), the session is told (`changed`), and the whole project is checked (`check()`);
- **keystroke**: the same file's unsaved text is checked alone
  (`check([path], contents={path: text})`), as an editor does on every keystroke;
- **keystroke, whole project**: the unsaved text, the whole project checked
  (`check(contents={path: text})`).

Every report is compared with the planted findings the edit must produce (an added import
that breaks a layer must be reported; a body edit must leave the report clean), so a fast
wrong answer can't pass. Prints the median, p95 and maximum of each, in milliseconds.

usage: python bench/session.py [--synthetic DIR] [--edits N]
"""

from __future__ import annotations

import argparse
import gc
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate

from inwards_core import Report, Session

SEED = 7


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def timed(call: Callable[..., Report], *args: object, **kwargs: object) -> tuple[float, Report]:
    started = time.perf_counter()
    report = call(*args, **kwargs)
    return (time.perf_counter() - started) * 1000, report


def outward_import(path: str) -> str | None:
    """An import the file's layer may not make (an outer layer's module), or None for a
    module of the outermost layer."""
    layer = path.split("/")[2]
    rank = generate.LAYERS.index(layer)
    if rank == len(generate.LAYERS) - 1:
        return None
    outer = generate.LAYERS[rank + 1]
    return f"from {generate.PACKAGE}.{outer}.p0.m0 import f0 as _outward\n"


def run(project: Path, edits: int, *, freeze: bool) -> dict[str, list[float]]:
    rng = random.Random(SEED)
    modules = sorted(
        path.relative_to(project).as_posix()
        for path in (project / "src").rglob("m*.py")
        if outward_import(path.relative_to(project).as_posix()) is not None
    )
    times: dict[str, list[float]] = {"edit": [], "keystroke": [], "keystroke, whole project": []}
    with Session.open(project, isolated=True) as session:
        warm_ms, report = timed(session.check)
        print(f"first check (cold session): {warm_ms:.0f} ms, {report.files_checked} files")
        if freeze:
            # What a resident process of ours does once warm: the warm state moves out of
            # the collector's way, so no collection walks it on a keystroke.
            gc.collect()
            gc.freeze()
        for number in range(edits):
            path = rng.choice(modules)
            file = project / path
            original = file.read_text()
            breaking = number % 2 == 1
            edited = (
                (outward_import(path) or "") + original
                if breaking
                else original + (f"\n\ndef edited_{number}() -> int:\n    return {number}\n")
            )
            file.write_text(edited)
            session.changed([path])
            elapsed, report = timed(session.check)
            times["edit"].append(elapsed)
            expect(report, path, breaking)
            typed = edited + "\n# typing"
            elapsed, report = timed(session.check, [path], contents={path: typed})
            times["keystroke"].append(elapsed)
            expect(report, path, breaking)
            elapsed, report = timed(session.check, contents={path: typed})
            times["keystroke, whole project"].append(elapsed)
            expect(report, path, breaking)
            file.write_text(original)
            session.changed([path])
    return times


def expect(report: Report, path: str, breaking: bool) -> None:
    found = [(finding.code, finding.file) for finding in report.findings]
    wanted = [("INW001", path)] if breaking else []
    if found != wanted:
        raise SystemExit(f"wrong report after editing {path}: {found}, expected {wanted}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", type=Path, default=None, help="a generated project")
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument(
        "--no-freeze", action="store_true", help="leave the warm state to the cyclic collector"
    )
    arguments = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        project = Path(scratch) / "synthetic"
        if arguments.synthetic is not None:
            shutil.copytree(arguments.synthetic, project)
        else:
            generate.generate(project, generate.DEFAULT_MODULES, False)
        times = run(project, arguments.edits, freeze=not arguments.no_freeze)
    print(f"{'after':<26} {'median':>8} {'p95':>8} {'max':>8}  (ms, {arguments.edits} edits)")
    for name, values in times.items():
        print(
            f"{name:<26} {statistics.median(values):8.1f} {percentile(values, 0.95):8.1f}"
            f" {max(values):8.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
