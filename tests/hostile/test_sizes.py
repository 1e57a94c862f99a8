"""Sizes that were quadratic or exponential: each runs through the installed CLI under a
budget it used to blow by far, and must end within it with the contracted answer.

Before (2 cores): 200,000 names in one import took 20 s (52 s in the issue) and the
parenthesized form over a minute; ten `**` over packages 30 deep 40 s (56 s); a dotted key
of 50,000 parts a MemoryError at 8 GB; a 149 KB `from ... import` naming 20,000 modules a
MemoryError in the report; a directive after a 10 MB line of code 7.6 s of tokenizing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.harness import LAYERED_CONFIG, Budget, layered_project, run_limited

QUICK = Budget(seconds=10, memory_mb=2048)
RUNS = (("check", "--no-cache"), ("check", "--no-cache", "src/shop/domain/m.py"))
MODULE = "src/shop/domain/m.py"


def one_module(tmp_path: Path, source: str, config: str = LAYERED_CONFIG) -> Path:
    return layered_project(tmp_path, {MODULE: source, "src/shop/adapters/db.py": ""}, config)


# -- many names in one statement ----------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("import a, " + ", ".join(["os"] * 200_000) + "\n", id="one-line"),
        pytest.param(
            "from x import (\n" + "".join(f"    n{i},\n" for i in range(200_000)) + ")\n",
            id="parenthesized",
        ),
    ],
)
@pytest.mark.parametrize("args", RUNS, ids=["whole-project", "named-file"])
def test_two_hundred_thousand_names_in_one_import(
    tmp_path: Path, source: str, args: tuple[str, ...]
) -> None:
    """Each name's line was counted from the start of the statement (quadratic)."""
    one_module(tmp_path, source)
    run = run_limited(*args, cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert "All clear" in run.stdout
    assert "INW020" not in run.stdout  # read, not stopped by a limit


def test_names_after_a_unclosed_bracket_and_comments_do_not_backtrack(tmp_path: Path) -> None:
    """Exponential in the comment lines: eight took 30 s, forty never ended."""
    one_module(tmp_path, "from x import (\n" + "# abcdefgh\n" * 40 + "a = 1\n")
    for args in RUNS:
        run = run_limited(*args, cwd=tmp_path, budget=Budget(seconds=5))
        assert run.code == 1, run.output
        assert f"{MODULE}:" in run.stdout and "INW020 This file doesn't parse" in run.stdout


# -- selectors and globs ------------------------------------------------------------------


def deep_project(root: Path, selector: str) -> Path:
    config = LAYERED_CONFIG.replace(
        '  { name = "adapters"',
        f'  {{ name = "deep", modules = ["{selector}"] }},\n  {{ name = "adapters"',
    )
    files: dict[str, str | bytes] = {MODULE: "from shop.adapters import db\n"}
    files["src/shop/adapters/db.py"] = ""
    package = "src/shop"
    for level in range(30):
        package += f"/p{level}"
        files[f"{package}/__init__.py"] = ""
        files[f"{package}/m.py"] = ""
    files[f"{package}/zzz.py"] = ""
    return layered_project(root, files, config)


@pytest.mark.parametrize("wildcards", [10, 50])
def test_a_selector_of_many_double_stars_over_deep_packages(tmp_path: Path, wildcards: int) -> None:
    """Every split of the module among the `**` was tried: ten over 30 levels took 40 s."""
    selector = "shop." + ".".join(["**"] * wildcards) + ".zzz"
    deep_project(tmp_path, selector)
    run = run_limited("check", "--no-cache", cwd=tmp_path, budget=Budget(seconds=5))
    assert run.code == 1, run.output
    assert f"{MODULE}:1:" in run.stdout and "INW001" in run.stdout
    deep_owns_zzz = wildcards <= 30  # one part per `**` at least
    assert ("matches no module of this project" in run.stdout) is not deep_owns_zzz


def test_a_generated_glob_of_many_stars_over_a_long_name(tmp_path: Path) -> None:
    """`*a*a*...*b` became `.*a.*a...b`, which backtracked exponentially over each imported
    name it was tried on (is it first-party, does it exist): minutes for one import."""
    config = LAYERED_CONFIG + 'generated = ["' + "*a" * 30 + '*b"]\n'
    one_module(tmp_path, "import " + "a" * 200 + "\nfrom shop.adapters import db\n", config)
    run = run_limited("check", "--no-cache", cwd=tmp_path, budget=Budget(seconds=5))
    assert run.code == 1, run.output
    assert f"{MODULE}:2:27: INW001" in run.stdout


# -- configuration ------------------------------------------------------------------------


def test_a_dotted_key_of_fifty_thousand_parts(tmp_path: Path) -> None:
    """Every prefix of the key was a path of its own (8 GB), and tomllib is quadratic in the
    parts: refused before parsing, as nesting past the limit, naming the line."""
    key = ".".join(f"a{i}" for i in range(50_000))
    one_module(tmp_path, "", LAYERED_CONFIG + key + " = 1\n")
    run = run_limited("check", "--no-cache", cwd=tmp_path, budget=Budget(5, memory_mb=1024))
    assert run.code == 2, run.output
    assert run.stdout == ""
    assert run.stderr.startswith("config error: pyproject.toml:7:1: has a dotted key of 50000 ")
    assert "(a0.a1.a2." in run.stderr and "…" in run.stderr and "a49999)" in run.stderr
    assert len(run.stderr) < 1000  # the key is quoted cut


def test_a_key_of_megabytes_is_quoted_cut(tmp_path: Path) -> None:
    one_module(tmp_path, "", LAYERED_CONFIG + "k" * 5_000_000 + " = 1\n")
    run = run_limited("check", "--no-cache", cwd=tmp_path, budget=Budget(5, memory_mb=1024))
    assert run.code == 2, run.output
    assert run.stderr.startswith("config error: pyproject.toml:7:1: tool.inwards.kkk")
    assert "is not a [tool.inwards] key" in run.stderr
    assert len(run.stderr) < 1000


# -- what findings quote -----------------------------------------------------------------

FROM_MANY = "from shop.adapters import " + ", ".join(f"n{i}" for i in range(20_000)) + "\n"
FINDINGS = 20_000


@pytest.mark.parametrize("output_format", ["text", "concise", "json", "github", "sarif"])
def test_a_statement_naming_twenty_thousand_modules(tmp_path: Path, output_format: str) -> None:
    """149 KB, one INW001 per name, each quoting the statement: a MemoryError at 12 GB in
    the reporter. Quoted cut, a report is about a kilobyte per finding."""
    one_module(tmp_path, FROM_MANY)
    assert len(FROM_MANY) > 148_000
    run = run_limited("check", "--no-cache", "--format", output_format, cwd=tmp_path, budget=QUICK)
    assert run.code == 1, run.stderr
    assert run.stdout.count("shop.adapters.n19999") >= 1
    assert len(run.stdout) < FINDINGS * 2500, len(run.stdout)
    if output_format == "sarif":
        return  # code scanning takes every finding; --max-diagnostics is refused there
    run = run_limited(
        "check",
        "--no-cache",
        "--format",
        output_format,
        "--max-diagnostics",
        "10",
        cwd=tmp_path,
        budget=QUICK,
    )
    assert run.code == 1, run.stderr
    assert len(run.stdout) < 30_000, len(run.stdout)
    assert "shop.adapters.n9" in run.stdout
    assert "shop.adapters.n10" not in run.stdout  # only ten rendered
    if output_format in ("text", "concise"):
        assert "Found 20000 errors" in run.stdout  # the summary counts them all


def test_unknown_modules_named_twenty_thousand_times(tmp_path: Path) -> None:
    """Each unknown import was compared with every module of its package to suggest the
    closest (INW010), in Python: the suggestions now stop at a budget."""
    files: dict[str, str | bytes] = {
        f"src/shop/domain/module_number_{n}.py": "" for n in range(100)
    }
    files[MODULE] = "".join(f"import shop.domain.x{n}\n" for n in range(20_000))
    layered_project(tmp_path, files)
    run = run_limited("check", "--no-cache", "--format", "concise", cwd=tmp_path, budget=QUICK)
    assert run.code == 1, run.stderr
    assert run.stdout.count(" INW010 ") == 20_000


def test_twenty_thousand_aliases_of_a_loader(tmp_path: Path) -> None:
    """One regex alternating every alias, over the whole text: 18 s for 490 KB."""
    source = (
        "from importlib import "
        + ", ".join(f"import_module as a{i}" for i in range(20_000))
        + "\na7('shop.adapters.db')\n"
    )
    one_module(tmp_path, source)
    for args in RUNS:
        run = run_limited(*args, cwd=tmp_path, budget=Budget(seconds=5))
        assert run.code == 1, run.output
        assert "INW011" in run.stdout and "through a dynamic import" in run.stdout


@pytest.mark.parametrize(
    "target",
    [
        '"{:>{}}".format("shop.adapters.db", 900000000)',
        '"{:>{width}}".format("shop.adapters.db", width=900000000)',
        '"%*s" % (900000000, "shop.adapters.db")',
        '"{:.{}f}".format(1.5, 900000000)',
    ],
)
def test_a_width_given_as_an_argument_is_not_folded(tmp_path: Path, target: str) -> None:
    """The width comes from an argument, not the template: folding it wrote 900 MB for
    one file. A number that big is no part of a module name: the target is unreadable."""
    one_module(tmp_path, f"import importlib\nimportlib.import_module({target})\n")
    for args in RUNS:
        run = run_limited(*args, cwd=tmp_path, budget=Budget(seconds=10, memory_mb=400))
        assert run.code == 1, run.output
        assert "INW011" in run.stdout, run.output
        assert "could not be read within the limits" not in run.stdout


# -- a 10 MB line -------------------------------------------------------------------------

TEN_MB = 10_000_000


def test_a_ten_megabyte_string(tmp_path: Path) -> None:
    """A guard: CPython's parser reads it in milliseconds, and so must everything of ours
    around it (decoding, the skeleton's scan, line counting, suppressions)."""
    one_module(tmp_path, "x = '" + "a" * TEN_MB + "'\nfrom shop.adapters import db\n")
    for args in RUNS:
        run = run_limited(*args, cwd=tmp_path, budget=QUICK)
        assert run.code == 1, run.output
        assert f"{MODULE}:2:27: INW001" in run.stdout


def test_a_directive_after_a_ten_megabyte_line_of_code(tmp_path: Path) -> None:
    """The tokenizer made an object of each of its 3 million tokens (7.6 s); a whole-project
    run reads the file's imports without parsing it, so nothing else costs that much."""
    line = "x = [" + "a, " * (TEN_MB // 3) + "]\n"
    directive = '  # inwards: ignore[INW001] reason="legacy"\n'
    one_module(tmp_path, line + "from shop.adapters import db" + directive)
    run = run_limited("check", "--no-cache", cwd=tmp_path, budget=Budget(seconds=4))
    assert run.code == 0, run.output
    assert "1 finding hidden by inline suppressions" in run.stdout


# -- code run from literal text -----------------------------------------------------------


def test_code_in_literals_is_read_within_its_bounds(tmp_path: Path) -> None:
    """exec of exec of ... twelve deep, a megabyte of literal code, and twenty thousand
    literal execs: read within the bounds (three levels, 100,000 characters), each parse
    no bigger than the file."""
    nested = "import shop.adapters.db"
    for _ in range(12):
        nested = f"exec({nested!r})"
    source = (
        f"{nested}\n"
        + "exec("
        + repr("x = 1\n" * 200_000)
        + ")\n"
        + 'exec("import shop.adapters.db")\n' * 20_000
    )
    one_module(tmp_path, source)
    for args in RUNS:
        run = run_limited(*args, cwd=tmp_path, budget=Budget(seconds=10, memory_mb=1024))
        assert run.code == 1, run.output
        assert "code nested more than 3 deep" in run.stdout
        assert "code longer than 100,000 characters" in run.stdout
        assert run.stdout.count("through a dynamic import (exec)") == 20_000
