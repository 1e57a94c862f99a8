"""docs/hostile-input.md states the limits inwards enforces: they must be the code's."""

from __future__ import annotations

import re
from pathlib import Path

from inwards_core.extraction import dynamic_sources, libcst_parsing, limits

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "hostile-input.md").read_text("utf-8")


def test_the_budget_table_is_the_codes() -> None:
    assert f"| up to 1 MB | {limits.BASE_SECONDS:g} s | {limits.BASE_MEMORY_MB} MB |" in PAGE
    assert (
        f"| each further MB | + {limits.SECONDS_PER_EXTRA_MB:g} s "
        f"| + {limits.MEMORY_MB_PER_EXTRA_MB} MB |"
    ) in PAGE
    assert f"| at most | {limits.MAX_SECONDS:g} s | {limits.MAX_MEMORY_MB // 1024} GB |" in PAGE


def test_the_shape_limits_are_the_codes() -> None:
    depth = libcst_parsing.MAX_BRACKET_DEPTH
    run = libcst_parsing.MAX_PREFIX_RUN
    assert f"brackets nested more than {depth} deep, or more than {run} prefix operators" in PAGE


def test_the_bounds_on_literal_code_are_the_codes() -> None:
    size = f"{dynamic_sources.MAX_SOURCE_CHARS:,}"
    depth = dynamic_sources.MAX_DEPTH
    assert f"at most {size} characters long, and literals inside it at\n  most {depth} deep" in PAGE


def test_every_test_file_the_page_names_exists() -> None:
    named = set(re.findall(r"tests/hostile/(\w+\.py)", PAGE))
    assert named, "the page names the tests that keep its promises"
    for name in named:
        assert (Path(__file__).parent / name).exists(), name


def test_the_bounds_of_the_brief_and_of_import_config_are_the_codes() -> None:
    from inwards_core.diagrams import brief
    from inwards_core.migration import importlinter_convert

    words = " ".join(PAGE.split())
    assert f"names at most {brief.MAX_NAMED_INNER_LAYERS} layers" in words
    assert f"stops at {brief.MAX_BRIEF_CHARACTERS:,} characters" in words
    assert f"refuses more than {importlinter_convert.MAX_DEFINITIONS} contracts" in words


def test_the_bounds_of_import_diagram_are_the_codes() -> None:
    from inwards_cli.config_file import MAX_CONFIG_BYTES
    from inwards_core.extraction.documents import MAX_DOCUMENT_BYTES

    words = " ".join(PAGE.split())
    diagram, config = MAX_DOCUMENT_BYTES // 1024**2, MAX_CONFIG_BYTES // 1024**2
    assert f"a regular file inside the project of at most {diagram} MiB, UTF-8" in words
    assert f"configuration (a regular file of at most {config} MiB)" in words
