"""Verifying what a cache holds: how a difference is worded, the engine's verifying read
(`check_project` with `RunOptions(verify_cache=True)`), and the rule-set fingerprint over the tables used."""

from __future__ import annotations

import datetime
import math
from typing import Any

import attrs
import pytest

from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import load_config_text, load_rules, prepare
from inwards_core.engine import Ports, RunOptions, check_project
from inwards_core.extraction.facts_reading import extractor_key
from inwards_core.model.facts import (
    FileProblem,
    FileProblemKind,
    ImportFact,
    ImportStyle,
    ModuleFacts,
)
from inwards_core.model.findings import Span
from inwards_core.rules.reading import table_digest
from inwards_core.verification import (
    QUOTED_CHARACTERS,
    CachedFactsDiffer,
    facts_difference,
    table_difference,
)


def _import(line: int, module: str) -> ImportFact:
    return ImportFact(
        style=ImportStyle.IMPORT,
        module=module,
        name=None,
        target=module,
        level=0,
        span=Span(line, 8, line, 8 + len(module)),
        statement=f"import {module}",
    )


# -- facts_difference -----------------------------------------------------------------


def test_equal_facts_have_no_difference() -> None:
    facts = ModuleFacts(imports=(_import(1, "os"),), grammar="skeleton", line_count=1)
    assert facts_difference(facts, attrs.evolve(facts)) == ""


def test_an_import_the_cache_lacks_is_named_with_its_line() -> None:
    cached = ModuleFacts(imports=(_import(1, "os"),))
    fresh = ModuleFacts(imports=(_import(1, "os"), _import(2, "shop.adapters.db")))
    assert facts_difference(cached, fresh) == (
        'imports: the cache holds 1, the file 2; the file has line 2 "import shop.adapters.db", '
        "which the cache lacks"
    )


def test_an_import_changed_in_place_shows_both_sides() -> None:
    cached = ModuleFacts(imports=(_import(1, "os"),))
    fresh = ModuleFacts(imports=(_import(1, "shop.adapters"),))
    assert facts_difference(cached, fresh) == (
        'imports: the cache holds 1, the file 1; the cache has line 1 "import os" where the '
        'file has line 1 "import shop.adapters"'
    )


def test_an_import_only_the_cache_has_is_named() -> None:
    cached = ModuleFacts(imports=(_import(1, "os"), _import(3, "sys")))
    fresh = ModuleFacts(imports=(_import(1, "os"),))
    assert facts_difference(cached, fresh).endswith(
        'the cache has line 3 "import sys", which the file lacks'
    )


def test_problems_grammar_and_line_counts_are_compared_too() -> None:
    syntax = FileProblem(FileProblemKind.SYNTAX, "invalid syntax", Span.point(4, 1))
    assert facts_difference(ModuleFacts(), ModuleFacts(problem=syntax)) == (
        'the cache records no problem, the file gives syntax at line 4 ("invalid syntax")'
    )
    assert facts_difference(ModuleFacts(grammar="ast"), ModuleFacts(grammar="libcst")) == (
        'grammar: the cache has "ast", the file "libcst"'
    )
    assert facts_difference(ModuleFacts(line_count=3), ModuleFacts(line_count=4)) == (
        "line count: the cache has 3, the file 4"
    )
    assert facts_difference(ModuleFacts(), ModuleFacts(import_hook_line=7)) == (
        "sys.meta_path: the cache has no import hook, the file an import hook added on line 7"
    )


def test_cached_text_is_quoted_escaped_and_cut_short() -> None:
    hostile = "x\x1b[2J\n" + "y" * 1000
    cached = ModuleFacts(imports=(attrs.evolve(_import(1, "os"), statement=hostile),))
    message = facts_difference(cached, ModuleFacts(imports=(_import(1, "os"),)))
    assert "\x1b" not in message and "\n" not in message
    assert "\\u001b" in message
    assert len(message) < 2 * QUOTED_CHARACTERS + 100


def test_a_file_over_the_limits_now_is_not_taken_as_verified() -> None:
    limit = FileProblem(FileProblemKind.LIMIT, "took too long", Span.start_of_file())
    assert "can't be verified" in facts_difference(ModuleFacts(), ModuleFacts(problem=limit))


# -- table_difference -----------------------------------------------------------------


def test_a_changed_key_is_named_by_its_dotted_path() -> None:
    fresh = {"code": "INW001", "default": "on", "options": {"allow": ["a", "b"]}}
    cached = {"code": "INW001", "default": "opt-in", "options": {"allow": ["a", "b"]}}
    assert table_difference(cached, fresh) == 'default: the cache has "opt-in", the definition "on"'
    deeper = {**fresh, "options": {"allow": ["a", "c"]}}
    assert table_difference(deeper, fresh) == (
        'options.allow[1]: the cache has "c", the definition "b"'
    )


def test_keys_only_one_side_has_and_list_lengths_are_named() -> None:
    fresh: dict[str, Any] = {"code": "X", "list": [1]}
    assert table_difference({**fresh, "default": "opt-in"}, fresh) == (
        'default: the cache sets "opt-in", the definition lacks it'
    )
    assert table_difference({"code": "X", "list": [1]}, {**fresh, "severity": "warning"}) == (
        'severity: the definition sets "warning", the cache lacks it'
    )
    assert table_difference({"code": "X", "list": [1, 2]}, fresh) == (
        "list: the cache has 2 items, the definition 1"
    )


@pytest.mark.parametrize(
    ("cached", "fresh"),
    [(1, True), (1, 1.0), (0, False), ("1", 1), (datetime.date(2024, 1, 1), "2024-01-01")],
)
def test_values_of_another_toml_type_differ(cached: Any, fresh: Any) -> None:
    assert table_difference({"v": cached}, {"v": fresh}) != ""
    assert table_digest({"v": cached}) != table_digest({"v": fresh})


def test_nan_is_the_same_value_and_equal_tables_have_no_difference() -> None:
    table = {"v": math.nan, "w": [1, {"x": math.inf}], "d": datetime.date(2024, 1, 1)}
    twin = {"w": [1, {"x": math.inf}], "d": datetime.date(2024, 1, 1), "v": math.nan}
    assert table_difference(table, twin) == ""
    assert table_digest(table) == table_digest(twin)  # key order does not count


def test_a_forged_table_nested_too_deep_is_a_difference_not_a_crash() -> None:
    cached: Any = "x"
    fresh: Any = "y"
    for _ in range(5000):
        cached, fresh = [cached], [fresh]
    assert table_difference({"v": cached}, {"v": fresh}) == (
        "the cached table is nested too deeply to compare"
    )


# -- the engine's verifying read ------------------------------------------------------

PYPROJECT = """\
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""

SOURCES = {
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/adapters/__init__.py": "",
    "src/shop/domain/model.py": "import shop.adapters\n",
    "src/shop/domain/clean.py": "import os\n",
}


def _run(cache: DictExtractionCache, *, verify: bool) -> Any:
    config = load_config_text(PYPROJECT)
    prepared = prepare(config, load_rules())
    return check_project(
        prepared.config,
        prepared.rules,
        Ports(InMemoryProjectFiles(SOURCES), cache, StandardGrammars()),
        RunOptions(verify_cache=verify),
    )


def _poisoned() -> DictExtractionCache:
    """A cache whose entry for model.py holds clean.py's facts (no forbidden import)."""
    cache = DictExtractionCache()
    _run(cache, verify=False)
    entries = dict(cache.entries)
    by_module = {key.module: key for key in entries}
    entries[by_module["shop.domain.model"]] = entries[by_module["shop.domain.clean"]]
    return DictExtractionCache(entries)


def test_poisoned_facts_are_trusted_without_verification() -> None:
    assert _run(_poisoned(), verify=False).findings == ()


def test_verification_names_the_file_and_replaces_the_entry() -> None:
    cache = _poisoned()
    with pytest.raises(CachedFactsDiffer) as raised:
        _run(cache, verify=True)
    (mismatch,) = raised.value.mismatches
    assert mismatch.entry == "src/shop/domain/model.py"
    assert mismatch.difference.startswith("imports: the cache holds 1, the file 1;")
    assert "import shop.adapters" in mismatch.difference
    # The fresh facts replaced the poisoned entry: the next run is right even unverified.
    assert [f.code for f in _run(cache, verify=False).findings] == ["INW001"]


def test_a_sound_cache_verifies_and_the_report_is_the_same() -> None:
    cache = DictExtractionCache()
    first = _run(cache, verify=False)
    verified = _run(cache, verify=True)
    assert verified.findings == first.findings
    assert verified.files_checked == first.files_checked
    grammars = StandardGrammars()
    assert {key.extractor for key in cache.entries} == {extractor_key(grammars, check_syntax=False)}


# -- the fingerprint covers the parsed tables in force ---------------------------------


def _core_rules(parsed_tables: dict[str, Any] | None = None) -> Any:
    return load_rules(parsed_tables=parsed_tables)


def test_an_edited_cached_table_changes_the_fingerprint() -> None:
    tables: dict[str, Any] = {}
    clean = _core_rules(tables).fingerprint("1")
    assert _core_rules(tables).fingerprint("1") == clean  # deterministic, cached or not
    (sha256,) = [sha for sha, table in tables.items() if table["code"] == "INW001"]
    tables[sha256] = {**tables[sha256], "default": "opt-in"}
    forged = _core_rules(tables)
    assert forged.by_code("INW001").definition.default == "opt-in"  # the forged table ruled
    assert forged.fingerprint("1") != clean


def test_a_forged_cached_table_nested_too_deep_is_parsed_again() -> None:
    tables: dict[str, Any] = {}
    clean = _core_rules(tables)
    (sha256,) = [sha for sha, table in tables.items() if table["code"] == "INW001"]
    deep: Any = "x"
    for _ in range(5000):
        deep = {"a": deep}
    tables[sha256] = {**tables[sha256], "options": deep}
    again = _core_rules(tables)
    assert again.errors == ()
    assert again.fingerprint("1") == clean.fingerprint("1")
