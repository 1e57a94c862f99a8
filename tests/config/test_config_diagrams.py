"""The `diagrams` key: paths and globs of the files holding architecture diagrams."""

from __future__ import annotations

import pytest

from inwards_core.config.path_globs import path_glob_problem, path_matches
from tests.config.test_config_load import LAYERS, config_of, only_problem


def test_absent_is_empty() -> None:
    assert config_of("[tool.inwards]\n" + LAYERS).diagrams == ()


def test_entries_are_kept_as_written() -> None:
    text = '[tool.inwards]\ndiagrams = ["docs/architecture.md", "docs/**/*.puml", "./a.mmd"]\n'
    config = config_of(text + LAYERS)
    assert config.diagrams == ("docs/architecture.md", "docs/**/*.puml", "./a.mmd")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("", 'must name a file or a glob such as "docs/architecture.md" or "docs/**/*.md".'),
        ("/etc/arch.md", '"/etc/arch.md" must be relative to the directory of the configuration.'),
        ("C:/arch.md", '"C:/arch.md" must be relative to the directory of the configuration.'),
        (
            "docs/../../x.md",
            '"docs/../../x.md" must stay inside the directory of the configuration (no "..").',
        ),
        (
            "docs\\\\a.md",
            '"docs\\a.md": write "/" between directories (a backslash is not read as one).',
        ),
        ("docs//a.md", '"docs//a.md" has an empty segment (two "/" in a row, or one at the end).'),
        ("docs/", '"docs/" has an empty segment (two "/" in a row, or one at the end).'),
        (
            "docs/**.md",
            '"docs/**.md": "**.md": "**" must be a whole segment (as in "docs/**/*.md").',
        ),
        ("docs/[ab.md", '"docs/[ab.md": "[" at 1 opens a set of characters that no "]" closes.'),
        ("docs/[z-a].md", '"docs/[z-a].md": the range "z-a" runs backwards.'),
    ],
)
def test_a_bad_entry_is_a_located_error(entry: str, message: str) -> None:
    text = f'[tool.inwards]\ndiagrams = ["ok.md", "{entry}"]\n' + LAYERS
    column_of_second = text.splitlines()[1].index('"', len('diagrams = ["ok.md",')) + 1
    assert (
        only_problem(text)
        == f"pyproject.toml:2:{column_of_second}: tool.inwards.diagrams[1]: {message}"
    )


def test_not_an_array_of_strings() -> None:
    text = '[tool.inwards]\ndiagrams = "docs/a.md"\n' + LAYERS
    assert only_problem(text) == (
        "pyproject.toml:2:1: tool.inwards.diagrams: must be an array of strings, not a string."
    )


@pytest.mark.parametrize(
    ("glob", "path", "expected"),
    [
        ("docs/architecture.md", "docs/architecture.md", True),
        ("./docs/architecture.md", "docs/architecture.md", True),
        ("docs/*.md", "docs/architecture.md", True),
        ("docs/*.md", "docs/sub/architecture.md", False),
        ("docs/**/*.md", "docs/architecture.md", True),
        ("docs/**/*.md", "docs/a/b/c.md", True),
        ("**/*.puml", "c.puml", True),
        ("**", "a/b", True),
        ("docs/?.md", "docs/a.md", True),
        ("docs/?.md", "docs/ab.md", False),
        ("docs/[ab].md", "docs/b.md", True),
        ("docs/[!ab].md", "docs/b.md", False),
        ("docs/[a-c].md", "docs/c.md", True),
        ("Docs/a.md", "docs/a.md", False),
        ("docs/a.md", "docs/a.md/x", False),
        ("docs/**", "docs", True),
    ],
)
def test_matching(glob: str, path: str, expected: bool) -> None:
    assert path_glob_problem(glob) is None
    assert path_matches(glob, path) is expected


def test_many_double_stars_stay_fast() -> None:
    glob = "/".join(["**"] * 40 + ["x"])
    path = "/".join(["a"] * 200)
    assert not path_matches(glob, path)
