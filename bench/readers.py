"""Compiled import readers against ours (issue 23, "Speed where it still loses").

grimp's Rust scanner is what import-linter 2.16 reads imports with. This script times it
and our reader on the same package, in one process, CPU time (user + sys of every thread:
grimp's scanner runs on several), best of three, and compares what both give on the fields
grimp has: for each module, the set of (imported module, line) pairs, and which of them sit
behind `if TYPE_CHECKING:` (grimp tells that only by a second scan that leaves them out).

Our side reads every file as a whole-project run does (`extract(..., check_syntax=False)`);
the agreement is taken against our full parse (`fast=False`), CPython's parser, which the
differential tests already hold the fast reader to. Imported names are resolved the way
grimp builds its graph: a first-party import names the longest module of the package that
its target starts with; any other import names the top-level module it starts with.

usage: python bench/readers.py [--corpora-dir DIR] [--repeat N] [TREE ...]
TREE is `django`, `sympy` or `transformers` (all three by default). Needs grimp (import-linter
is in the test extra). Reads the corpora; never imports or runs their code: grimp's package
finder asks `importlib` where the package is (`find_spec` of a top-level name reads the file
system only).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import attrs

from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.extraction.pipeline import extract

TREES = {
    "django": "big/django-6.1.3",
    "sympy": "big/sympy-1.14.0",
    "transformers": "big/transformers-5.23.0",
}

Pair = tuple[str, int]  # (imported module as grimp names it, line)


@attrs.frozen
class Timing:
    cpu_seconds: float
    wall_seconds: float


@attrs.frozen
class Reading:
    """What one reader gives for a package: per module, its (imported, line) pairs and
    those of them behind `if TYPE_CHECKING:`."""

    pairs: dict[str, frozenset[Pair]]
    type_checking: dict[str, frozenset[Pair]]


def best_of(repeat: int, work: Callable[[], object]) -> Timing:
    best: Timing | None = None
    for _ in range(repeat):
        cpu, wall = time.process_time(), time.perf_counter()
        work()
        timing = Timing(time.process_time() - cpu, time.perf_counter() - wall)
        if best is None or timing.cpu_seconds < best.cpu_seconds:
            best = timing
    assert best is not None
    return best


def module_files(package_dir: Path, package: str) -> Iterator[tuple[str, Path, bool]]:
    """(module, file, is_package) of every `.py` file of the package, in name order."""
    for file in sorted(package_dir.rglob("*.py")):
        folders = file.relative_to(package_dir).parents
        if any(not (package_dir / folder / "__init__.py").is_file() for folder in folders):
            continue  # in a folder that is no package: grimp reads no module there
        parts = file.relative_to(package_dir.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        if parts[0] == package:  # grimp keeps `0001_initial` too
            yield ".".join(parts), file, is_package


def grimp_scan(package: str, exclude_type_checking: bool) -> dict[str, frozenset[Pair]]:
    """grimp's own finder and Rust scanner, as `build_graph` runs them without a cache."""
    import grimp.main  # noqa: F401 (importing it configures grimp's adapters)
    from grimp.application import usecases
    from grimp.application.config import settings

    file_system = settings.FILE_SYSTEM
    found = usecases._find_packages(file_system=file_system, package_names=[package])
    scanned = usecases._scan_packages(
        found_packages=found,
        file_system=file_system.convert_to_basic(),
        include_external_packages=True,
        exclude_type_checking_imports=exclude_type_checking,
        cache_dir=None,
    )
    return {
        module.name: frozenset((i.imported.name, i.line_number) for i in imports)
        for module, imports in scanned.items()
    }


def grimp_reading(package: str) -> Reading:
    every = grimp_scan(package, exclude_type_checking=False)
    outside = grimp_scan(package, exclude_type_checking=True)
    return Reading(
        pairs=every,
        type_checking={
            name: pairs - outside.get(name, frozenset()) for name, pairs in every.items()
        },
    )


def our_read(files: list[tuple[str, Path, bool]], *, fast: bool) -> dict[str, list[object]]:
    grammars = StandardGrammars()
    facts: dict[str, list[object]] = {}
    for module, file, is_package in files:
        read = extract(
            file.read_bytes(),
            module=module,
            is_package=is_package,
            grammars=grammars,
            fast=fast,
            check_syntax=not fast,
        )
        facts[module] = list(read.imports)
    return facts


def resolve(target: str, modules: frozenset[str], package: str) -> str:
    """The node grimp's graph gives an import of `target`."""
    if target.split(".", 1)[0] != package:
        return target.split(".", 1)[0]
    parts = target.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts) if parts else package


def our_reading(files: list[tuple[str, Path, bool]], package: str) -> Reading:
    modules = frozenset(module for module, _, _ in files)
    pairs: dict[str, frozenset[Pair]] = {}
    guarded: dict[str, frozenset[Pair]] = {}
    for module, imports in our_read(files, fast=False).items():
        every: set[Pair] = set()
        behind: set[Pair] = set()
        for fact in imports:
            target = getattr(fact, "target", None) or getattr(fact, "module", None)
            if target is None:
                continue
            line = getattr(fact, "statement_line", 0) or fact.span.line  # type: ignore[attr-defined]
            pair = (resolve(target, modules, package), line)
            every.add(pair)
            if getattr(fact, "type_checking", False):
                behind.add(pair)
        pairs[module] = frozenset(every)
        guarded[module] = frozenset(behind)
    return Reading(pairs=pairs, type_checking=guarded)


def compare(ours: Reading, grimps: Reading) -> tuple[int, int, int, int, list[str]]:
    """(pairs both give, only ours, only grimp's, type-checking flags that differ, examples)."""
    both = only_ours = only_grimp = flags = 0
    examples: list[str] = []
    for module in sorted(set(ours.pairs) | set(grimps.pairs)):
        mine = ours.pairs.get(module, frozenset())
        theirs = grimps.pairs.get(module, frozenset())
        both += len(mine & theirs)
        extra, missing = mine - theirs, theirs - mine
        only_ours += len(extra)
        only_grimp += len(missing)
        common_flags = ours.type_checking.get(module, frozenset()) ^ grimps.type_checking.get(
            module, frozenset()
        )
        flags += len(common_flags & mine & theirs)
        for label, pairs in (("only ours", extra), ("only grimp", missing)):
            for name, line in sorted(pairs)[:2]:
                if len(examples) < 12:
                    examples.append(f"{label}: {module}:{line} -> {name}")
    return both, only_ours, only_grimp, flags, examples


def measure(tree: str, corpora: Path, repeat: int) -> None:
    root = corpora / TREES[tree]
    sys.path.insert(0, str(root))
    try:
        files = list(module_files(root / tree, tree))
        grimp_time = best_of(repeat, lambda: grimp_scan(tree, exclude_type_checking=False))
        ours_time = best_of(repeat, lambda: our_read(files, fast=True))
        full_time = best_of(1, lambda: our_read(files, fast=False))
        both, only_ours, only_grimp, flags, examples = compare(
            our_reading(files, tree), grimp_reading(tree)
        )
    finally:
        sys.path.remove(str(root))
    count = len(files)
    print(f"## {tree}: {count} files")
    for label, timing in (
        ("grimp's Rust scanner (finder + scan)", grimp_time),
        ("ours, a whole-project read", ours_time),
        ("ours, the full parse (CPython)", full_time),
    ):
        print(
            f"{label}: {timing.cpu_seconds * 1000:,.0f} ms CPU "
            f"({timing.cpu_seconds / count * 1e6:,.0f} us a file), "
            f"{timing.wall_seconds * 1000:,.0f} ms wall"
        )
    print(
        f"(imported, line) pairs: {both:,} agree, {only_ours:,} only ours, "
        f"{only_grimp:,} only grimp's; TYPE_CHECKING flags that differ: {flags:,}"
    )
    for example in examples:
        print(f"  {example}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", nargs="*", metavar="TREE", help=", ".join(TREES))
    parser.add_argument(
        "--corpora-dir", type=Path, default=Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
    )
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    unknown = sorted(set(options.trees) - set(TREES))
    if unknown:
        parser.error(f"unknown tree {unknown[0]!r}: choose from {', '.join(TREES)}")
    for tree in options.trees or list(TREES):
        measure(tree, options.corpora_dir, options.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
