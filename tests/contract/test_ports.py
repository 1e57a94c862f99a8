"""One behaviour suite, run against the real adapters and the in-memory ones.

Whatever a family author's test sees through `inwards_core.adapters.in_memory` must be what the
engine sees on disk; these tests fail the moment the two drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from inwards_cli.adapters.disk_cache import DiskExtractionCache
from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.model.facts import (
    DynamicImportFact,
    FileProblem,
    FileProblemKind,
    ImportFact,
    ImportStyle,
    ModuleFacts,
    SuppressionComment,
    SuppressionProblem,
)
from inwards_core.model.findings import Span
from inwards_core.ports import CacheKey, ExtractionCache, ListingProblem, ProjectFiles

TREE: Mapping[str, str | bytes] = {
    "pyproject.toml": "[project]\nname = 'shop'\n",
    ".env": "SECRET=1\n",  # a hidden *file* is listed; only hidden directories are left out
    "README.md": "# shop\n",
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": '"""Domain."""\n',
    "src/shop/domain/order.py": "from shop.domain import money\n",
    "src/shop/domain/money.py": "AMOUNT = 'ü'\n",
    "src/shop/domain/blob.bin": b"\x00\xff\xfe",
    "src/shop/adapters/db.py": "import sqlite3\n",
    "src/shop/adapters/_speedups.so": b"\x7fELF",
    "src/shop/empty_pkg/sub/__init__.py": "",
    "src/shop/__pycache__/order.cpython-311.pyc": b"\x00",
    "src/shop.egg-info/PKG-INFO": "Name: shop\n",
    ".git/config": "[core]\n",
    ".venv/lib/site.py": "",
    "env/pyvenv.cfg": "home = /usr/bin\n",
    "env/lib/python3.11/site-packages/x.py": "",
    "node_modules/left-pad/index.js": "",
    "docs/.hidden/notes.py": "",
    "docs/index.md": "",
}

EXPECTED_FILES = (
    ".env",
    "README.md",
    "docs/index.md",
    "pyproject.toml",
    "src/shop/__init__.py",
    "src/shop/adapters/_speedups.so",
    "src/shop/adapters/db.py",
    "src/shop/domain/__init__.py",
    "src/shop/domain/blob.bin",
    "src/shop/domain/money.py",
    "src/shop/domain/order.py",
    "src/shop/empty_pkg/sub/__init__.py",
)
EXPECTED_DIRECTORIES = (
    "docs",
    "src",
    "src/shop",
    "src/shop/adapters",
    "src/shop/domain",
    "src/shop/empty_pkg",
    "src/shop/empty_pkg/sub",
)


def _write_tree(root: Path, tree: Mapping[str, str | bytes]) -> None:
    for relative, content in tree.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_bytes(content.encode("utf-8"))
        else:
            path.write_bytes(content)


@pytest.fixture(params=["local", "in-memory"])
def project_files(request: pytest.FixtureRequest, tmp_path: Path) -> ProjectFiles:
    if request.param == "local":
        _write_tree(tmp_path, TREE)
        return LocalProjectFiles(tmp_path)
    return InMemoryProjectFiles(TREE)


# -- ProjectFiles --------------------------------------------------------------------------


@pytest.mark.parametrize("under", ["", ".", "./"])
def test_whole_listing_leaves_out_hidden_venv_cache_and_metadata_dirs(
    project_files: ProjectFiles, under: str
) -> None:
    listing = project_files.listing(under)
    assert listing.files == EXPECTED_FILES
    assert listing.directories == EXPECTED_DIRECTORIES
    assert listing.symlinks == ()
    assert listing.problems == ()


def test_listing_is_sorted_and_repeatable(project_files: ProjectFiles) -> None:
    first = project_files.listing("")
    assert list(first.files) == sorted(first.files)
    assert list(first.directories) == sorted(first.directories)
    assert project_files.listing("") == first


@pytest.mark.parametrize("under", ["src/shop/domain", "./src/shop/domain/", "src//shop/domain"])
def test_listing_under_a_subdirectory(project_files: ProjectFiles, under: str) -> None:
    listing = project_files.listing(under)
    assert listing.files == (
        "src/shop/domain/__init__.py",
        "src/shop/domain/blob.bin",
        "src/shop/domain/money.py",
        "src/shop/domain/order.py",
    )
    assert listing.directories == ("src/shop/domain",)
    assert listing.problems == ()


def test_listing_under_is_the_whole_listing_restricted_to_it(
    project_files: ProjectFiles,
) -> None:
    whole = project_files.listing("")
    part = project_files.listing("src/shop")
    assert part.files == tuple(f for f in whole.files if f.startswith("src/shop/"))
    assert part.directories == tuple(
        d for d in whole.directories if d == "src/shop" or d.startswith("src/shop/")
    )


def test_listing_under_a_directory_named_explicitly_lists_it_whatever_its_kind(
    project_files: ProjectFiles,
) -> None:
    listing = project_files.listing("env")
    assert listing.files == ("env/lib/python3.11/site-packages/x.py", "env/pyvenv.cfg")
    assert "env" in listing.directories
    hidden = project_files.listing("docs/.hidden")
    assert hidden.files == ("docs/.hidden/notes.py",)


def test_listing_under_a_file_lists_that_file(project_files: ProjectFiles) -> None:
    listing = project_files.listing("src/shop/adapters/db.py")
    assert listing.files == ("src/shop/adapters/db.py",)
    assert listing.directories == ()
    assert listing.problems == ()


@pytest.mark.parametrize("under", ["nowhere", "src/shop/nowhere", "README.md/inside"])
def test_listing_under_a_missing_path_is_a_problem(project_files: ProjectFiles, under: str) -> None:
    listing = project_files.listing(under)
    assert listing.files == ()
    assert listing.directories == ()
    assert listing.problems == (ListingProblem(under, f"{under} does not exist"),)


def test_read_bytes_gives_the_exact_bytes(project_files: ProjectFiles) -> None:
    assert project_files.read_bytes("src/shop/domain/money.py") == "AMOUNT = 'ü'\n".encode()
    assert project_files.read_bytes("src/shop/domain/blob.bin") == b"\x00\xff\xfe"
    assert project_files.read_bytes("src/shop/__init__.py") == b""
    assert project_files.read_bytes("./src/shop/adapters/db.py") == b"import sqlite3\n"


@pytest.mark.parametrize(
    "path", ["src/shop/missing.py", "missing/x.py", "../outside.py", "/etc/hosts"]
)
def test_read_bytes_of_a_missing_file_raises_file_not_found(
    project_files: ProjectFiles, path: str
) -> None:
    with pytest.raises(FileNotFoundError):
        project_files.read_bytes(path)


@pytest.mark.parametrize("path", ["src/shop", "", "."])
def test_read_bytes_of_a_directory_raises(project_files: ProjectFiles, path: str) -> None:
    with pytest.raises(IsADirectoryError):
        project_files.read_bytes(path)


# -- ExtractionCache -----------------------------------------------------------------------

FACTS = ModuleFacts(
    imports=(
        ImportFact(
            style=ImportStyle.FROM,
            module="shop.domain",
            name="money",
            target="shop.domain.money",
            level=0,
            span=Span(1, 25, 1, 30),
            statement="from shop.domain import money",
            type_checking=True,
            raw_module="shop.domain",
        ),
        ImportFact(
            style=ImportStyle.IMPORT,
            module="os",
            name=None,
            target="os",
            level=0,
            span=Span(2, 8, 2, 10),
            statement="import os",
            in_function=True,
        ),
    ),
    dynamic_imports=(
        DynamicImportFact(
            loader="importlib.import_module",
            target=None,
            span=Span(3, 1, 3, 30),
            reason="a variable",
            statement="importlib.import_module(name)",
        ),
    ),
    suppressions=(
        SuppressionComment(
            line=2,
            span=Span(2, 12, 2, 40),
            codes=("INW001",),
            reason=None,
            problem=SuppressionProblem.NO_REASON,
        ),
    ),
    problem=FileProblem(FileProblemKind.SYNTAX, "invalid syntax", Span(4, 1, 4, 2)),
    grammar="libcst",
    line_count=4,
)
OTHER_FACTS = ModuleFacts(grammar="skeleton", line_count=1)

KEY = CacheKey(digest="a" * 64, module="shop.domain.order", is_package=False, extractor="x1")
OTHER_KEY = CacheKey(digest="b" * 64, module="shop.domain.money", is_package=False, extractor="x1")

CacheFactory = Callable[[], ExtractionCache]


@pytest.fixture(params=["disk", "dict"])
def open_cache(request: pytest.FixtureRequest, tmp_path: Path) -> CacheFactory:
    """Opens the cache; for the disk cache each call is a new run on the same directory."""
    if request.param == "disk":
        return lambda: DiskExtractionCache(tmp_path / ".inwards" / "cache", "imports-1/libcst")
    shared = DictExtractionCache()
    return lambda: shared


def test_an_empty_cache_misses(open_cache: CacheFactory) -> None:
    assert open_cache().get(KEY) is None


def test_put_then_get_gives_equal_facts(open_cache: CacheFactory) -> None:
    cache = open_cache()
    cache.put(KEY, FACTS)
    cache.put(OTHER_KEY, OTHER_FACTS)
    assert cache.get(KEY) == FACTS
    assert cache.get(OTHER_KEY) == OTHER_FACTS


@pytest.mark.parametrize(
    "changed",
    [
        {"digest": "c" * 64},
        {"module": "shop.other"},
        {"is_package": True},
        {"extractor": "x2"},
    ],
)
def test_every_key_field_counts(open_cache: CacheFactory, changed: dict[str, object]) -> None:
    cache = open_cache()
    cache.put(KEY, FACTS)
    fields: dict[str, object] = {
        "digest": KEY.digest,
        "module": KEY.module,
        "is_package": KEY.is_package,
        "extractor": KEY.extractor,
        **changed,
    }
    assert cache.get(CacheKey(**fields)) is None  # type: ignore[arg-type]


def test_flush_without_prune_keeps_unused_entries(open_cache: CacheFactory) -> None:
    cache = open_cache()
    cache.put(KEY, FACTS)
    cache.put(OTHER_KEY, OTHER_FACTS)
    cache.flush(prune=False)
    cache.flush(prune=False)  # nothing used since: still nothing dropped
    again = open_cache()
    assert again.get(KEY) == FACTS
    assert again.get(OTHER_KEY) == OTHER_FACTS


def test_flush_with_prune_keeps_only_entries_used_since_the_last_flush(
    open_cache: CacheFactory,
) -> None:
    cache = open_cache()
    cache.put(KEY, FACTS)
    cache.put(OTHER_KEY, OTHER_FACTS)
    cache.flush(prune=False)
    assert cache.get(KEY) == FACTS
    cache.flush(prune=True)
    assert cache.get(OTHER_KEY) is None
    assert cache.get(KEY) == FACTS
    reopened = open_cache()
    assert reopened.get(KEY) == FACTS
    assert reopened.get(OTHER_KEY) is None


def test_put_counts_as_use_for_prune(open_cache: CacheFactory) -> None:
    cache = open_cache()
    cache.put(OTHER_KEY, OTHER_FACTS)
    cache.flush(prune=False)
    cache.put(KEY, FACTS)
    cache.flush(prune=True)
    reopened = open_cache()
    assert reopened.get(KEY) == FACTS
    assert reopened.get(OTHER_KEY) is None


def test_put_replaces_an_entry(open_cache: CacheFactory) -> None:
    cache = open_cache()
    cache.put(KEY, FACTS)
    cache.flush(prune=False)
    cache = open_cache()
    cache.put(KEY, OTHER_FACTS)
    assert cache.get(KEY) == OTHER_FACTS
    cache.flush(prune=False)
    assert open_cache().get(KEY) == OTHER_FACTS


def test_disk_cache_reopened_after_flush_sees_the_facts(tmp_path: Path) -> None:
    cache_dir = tmp_path / ".inwards" / "cache"
    first = DiskExtractionCache(cache_dir, "ns")
    first.put(KEY, FACTS)
    assert DiskExtractionCache(cache_dir, "ns").get(KEY) is None  # put alone writes nothing
    first.flush(prune=True)
    reopened = DiskExtractionCache(cache_dir, "ns")
    assert reopened.get(KEY) == FACTS
    assert DiskExtractionCache(cache_dir, "another namespace").get(KEY) is None
    assert first.warnings == [] and reopened.warnings == []


def test_the_public_api_resolves_every_name_it_lists() -> None:
    import inwards_core

    homes = vars(inwards_core)["_HOMES"]
    assert set(inwards_core.__all__) - {"__version__"} == set(homes)
    for name in inwards_core.__all__:
        assert getattr(inwards_core, name) is not None, name
