"""The fast paths against the reference, file by file.

For every file: the default fast read equals the full read; the skeleton, where it
answers, gives exactly the imports of the full CPython parse; and the full parse gives
exactly the imports of the libcst reference extractor (every ImportFact field). Always on for the tricky snippets in
tests/fixtures/extraction; over Django and sympy with `-m corpus` when the corpora are
there (INWARDS_CORPORA, default /work/corpora).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs
import libcst
import pytest

from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.extraction import extract
from inwards_core.extraction.concrete import extract_concrete
from inwards_core.extraction.decoding import DecodedSource, decode_source
from inwards_core.model.facts import ImportFact

GRAMMARS = StandardGrammars()
FIXTURES = Path(__file__).parent.parent / "fixtures" / "extraction"
CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
BIG = {"django": "big/django-6.1.3", "sympy": "big/sympy-1.14.0"}


def _reference(text: str, module: str, is_package: bool) -> tuple[ImportFact, ...]:
    """libcst's extractor; deeply nested expressions (sympy has some) need a deeper
    stack than the default, so retry those in a thread with room to recurse."""
    try:
        return extract_concrete(text, module=module, is_package=is_package, grammars=GRAMMARS)
    except RecursionError:
        pass
    result: list[tuple[ImportFact, ...]] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(
                extract_concrete(text, module=module, is_package=is_package, grammars=GRAMMARS)
            )
        except BaseException as error:
            errors.append(error)

    old_limit = sys.getrecursionlimit()
    old_size = threading.stack_size(512 * 1024 * 1024)
    sys.setrecursionlimit(200_000)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
    if errors:
        raise errors[0]
    return result[0]


def disagreements(data: bytes, module: str, is_package: bool) -> list[str]:
    """What the three readings of one file disagree on (empty when they agree)."""
    quick = extract(data, module=module, is_package=is_package, grammars=GRAMMARS)
    full = extract(
        data, module=module, is_package=is_package, grammars=GRAMMARS, fast=False, names=True
    )
    quick_names = extract(data, module=module, is_package=is_package, grammars=GRAMMARS, names=True)
    found: list[str] = []
    if (quick.imports, quick.problem) != (full.imports, full.problem):
        found.append(f"fast {_first_difference(quick.imports, full.imports)} {quick.problem}")
    if quick_names.imports != quick.imports or quick.names:
        found.append("reading the names changed the imports, or names came unasked")
    if quick_names.names != full.names:
        found.append(f"fast names {_names_difference(quick_names.names, full.names)}")
    if full.problem is not None:
        return found
    # The skeleton without its whole-file syntax check answers more often (newer syntax).
    unchecked = extract(
        data, module=module, is_package=is_package, grammars=GRAMMARS, check_syntax=False
    )
    if unchecked.grammar == "skeleton" and unchecked.imports != full.imports:
        found.append(f"skeleton {_first_difference(unchecked.imports, full.imports)}")
    unchecked = extract(
        data,
        module=module,
        is_package=is_package,
        grammars=GRAMMARS,
        check_syntax=False,
        names=True,
    )
    if unchecked.grammar == "skeleton" and unchecked.names != full.names:
        found.append(f"skeleton names {_names_difference(unchecked.names, full.names)}")
    decoded = decode_source(data)
    assert isinstance(decoded, DecodedSource)
    try:
        reference = _reference(decoded.text, module, is_package)
    except libcst.ParserSyntaxError as error:
        if full.grammar == "ast":
            found.append(f"libcst can't parse what CPython parses: {error}")
        return found
    if reference != full.imports:
        found.append(f"{full.grammar} {_first_difference(full.imports, reference)}")
    return found


def _first_difference(got: tuple[ImportFact, ...], expected: tuple[ImportFact, ...]) -> str:
    for mine, theirs in zip(got, expected, strict=False):
        if mine != theirs:
            return f"{mine} != {theirs}"
    return f"{len(got)} imports != {len(expected)} imports"


def _names_difference(got: tuple[str, ...], expected: tuple[str, ...]) -> str:
    return f"{sorted(set(got) - set(expected))} more, {sorted(set(expected) - set(got))} fewer"


def module_of(relative: Path) -> tuple[str, bool]:
    parts = list(relative.with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.py")), ids=lambda p: p.name)
def test_tricky_snippets_agree(path: Path) -> None:
    for module, is_package in [("top.pkg.mod", False), ("top.pkg", True), ("solo", False)]:
        assert disagreements(path.read_bytes(), module, is_package) == []


def test_fixtures_exercise_every_path() -> None:
    grammars = {
        extract(path.read_bytes(), module="m", is_package=False, grammars=GRAMMARS).grammar
        for path in FIXTURES.glob("*.py")
    }
    assert grammars == {"skeleton", "ast", "libcst"}


def _check_files(root: Path, paths: list[Path]) -> list[str]:
    problems: list[str] = []
    for path in paths:
        module, is_package = module_of(path.relative_to(root))
        for problem in disagreements(path.read_bytes(), module, is_package):
            problems.append(f"{path.relative_to(root)}: {problem}")
    return problems


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(BIG))
def test_corpus_agrees(name: str) -> None:
    """Slow: the libcst reference costs ~50 ms a file (minutes on sympy's largest
    files), so the files are spread over one process per core."""
    root = CORPORA / BIG[name]
    if not root.is_dir():
        pytest.skip(f"corpus {root} is not there (set INWARDS_CORPORA to its folder)")
    files = sorted(root.rglob("*.py"))
    assert files
    workers = os.cpu_count() or 1
    chunks = [files[start :: workers * 8] for start in range(workers * 8)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        results = pool.map(_check_files, [root] * len(chunks), chunks)
        problems = sorted(problem for result in results for problem in result)
    assert problems == [], "\n".join(problems[:20])


def test_a_skeleton_that_drifts_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from inwards_core.extraction import pipeline

    honest = pipeline.read_skeleton_facts

    def drifting(
        text: str, **kwargs: object
    ) -> tuple[tuple[ImportFact, ...], tuple[str, ...]] | None:
        read = honest(text, **kwargs)  # type: ignore[arg-type]
        if not read or not read[0]:
            return read
        first = read[0][0]
        moved = attrs.evolve(first.span, column=first.span.column + 1)
        return (attrs.evolve(first, span=moved), *read[0][1:]), read[1]

    monkeypatch.setattr(pipeline, "read_skeleton_facts", drifting)
    found = disagreements(b"import a\nimport b\n", "pkg.mod", False)
    assert found and found[0].startswith("fast ")
