"""The extraction API others code against: ids, grammars, picklable work, caches."""

from __future__ import annotations

import multiprocessing
import pickle
import re
from concurrent.futures import ProcessPoolExecutor

from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.extraction import EXTRACTOR_ID, extract
from inwards_core.model.facts_data import facts_from_data, facts_to_data

from .helpers import GRAMMARS, read

SOURCE = (
    b"import os\n"
    b"import importlib\n"
    b'importlib.import_module("a.b")  # inwards: ignore[INW011] reason="plugin"\n'
)


def test_extractor_and_grammar_ids_are_stable_strings() -> None:
    assert re.fullmatch(r"imports/\d+", EXTRACTOR_ID)
    python_id, libcst_id = StandardGrammars().grammar_ids
    assert re.fullmatch(r"cpython-ast-3\.\d+", python_id)
    assert re.fullmatch(r"libcst-\d+\.\d+\.\d+", libcst_id)


def test_grammars_pickle() -> None:
    copy = pickle.loads(pickle.dumps(GRAMMARS))
    assert copy == GRAMMARS
    assert copy.grammar_ids == GRAMMARS.grammar_ids


def test_extract_runs_in_a_worker_process() -> None:
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        remote = pool.submit(
            extract, SOURCE, module="pkg.mod", is_package=False, grammars=GRAMMARS
        ).result(timeout=60)
    assert remote == read(SOURCE)
    assert [d.target for d in remote.dynamic_imports] == ["a.b"]
    assert [s.codes for s in remote.suppressions] == [("INW011",)]


def test_facts_survive_the_cache_round_trip() -> None:
    for source in [SOURCE, b"def f(:\n", b"# coding: rot13\n", b"x = '\xff'\n"]:
        facts = read(source)
        assert facts_from_data(facts_to_data(facts)) == facts


def test_never_raises_on_deep_nesting() -> None:
    facts = read("import a\nx = " + "(" * 5000 + ")" * 5000 + "\n")
    assert facts.problem is not None
    assert [f.target for f in facts.imports] == ["a"]


def test_newer_syntax_with_deep_nesting_does_not_crash() -> None:
    # libcst's parser recurses on the machine stack; it runs on a roomy one.
    facts = read("type X = int\nimport a\nx = " + "(" * 3000 + "1" + ")" * 3000 + "\n")
    assert [f.target for f in facts.imports] == ["a"]


def test_a_broken_file_with_a_huge_expression_is_not_handed_to_libcst() -> None:
    # libcst takes minutes on a 20,000-term expression; a plain syntax error never
    # reaches it.
    source = "import a\nx = " + "+".join(["1"] * 20000) + "\ndef f(:\n"
    facts = read(source)
    assert facts.problem is not None
    assert facts.problem.span.line == 3
    assert [f.target for f in facts.imports] == ["a"]
