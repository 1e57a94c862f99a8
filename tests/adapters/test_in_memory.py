"""What only the in-memory adapters do: input checks, and the shipped testing module."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import inwards_core.adapters.in_memory as testing
from inwards_core.adapters.caches import DictExtractionCache, NullExtractionCache
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.model.facts import ModuleFacts
from inwards_core.ports import CacheKey

KEY = CacheKey(digest="0" * 64, module="m", is_package=False, extractor="e")


def test_text_is_stored_as_utf8_and_bytes_as_given() -> None:
    files = InMemoryProjectFiles({"a.py": "x = 'é'\n", "b.bin": b"\xff"})
    assert files.read_bytes("a.py") == b"x = '\xc3\xa9'\n"
    assert files.read_bytes("b.bin") == b"\xff"


@pytest.mark.parametrize("path", ["../up.py", "/abs.py", "a/../b.py", "", "."])
def test_paths_outside_the_project_are_refused(path: str) -> None:
    with pytest.raises(ValueError, match="project"):
        InMemoryProjectFiles({path: ""})


def test_a_path_that_is_both_file_and_directory_is_refused() -> None:
    with pytest.raises(ValueError, match="'pkg' is given both as a file and as a directory"):
        InMemoryProjectFiles({"pkg": "", "pkg/x.py": ""})


def test_a_virtualenv_is_recognised_by_its_marker_at_any_depth() -> None:
    files = InMemoryProjectFiles(
        {"tools/env/pyvenv.cfg": "", "tools/env/lib/x.py": "", "tools/run.py": ""}
    )
    listing = files.listing("")
    assert listing.files == ("tools/run.py",)
    assert listing.directories == ("tools",)


def test_null_cache_never_remembers() -> None:
    cache = NullExtractionCache()
    cache.put(KEY, ModuleFacts())
    cache.flush(prune=False)
    assert cache.get(KEY) is None


def test_dict_cache_starts_from_given_entries_and_shows_them() -> None:
    cache = DictExtractionCache({KEY: ModuleFacts(grammar="ast")})
    assert cache.get(KEY) == ModuleFacts(grammar="ast")
    cache.flush(prune=True)
    assert dict(cache.entries) == {KEY: ModuleFacts(grammar="ast")}
    cache.flush(prune=True)  # not used since the last flush
    assert dict(cache.entries) == {}


def test_testing_module_exports_the_in_memory_adapters_and_imports_no_pytest() -> None:
    assert set(testing.__all__) >= {
        "InMemoryProjectFiles",
        "DictExtractionCache",
        "NullExtractionCache",
    }
    assert testing.DictExtractionCache is DictExtractionCache
    tree = ast.parse(Path(testing.__file__).read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert "pytest" not in imported
    assert imported <= {"__future__", "collections", "inwards_core"} | set(sys.stdlib_module_names)
