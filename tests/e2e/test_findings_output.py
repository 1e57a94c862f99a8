"""What a person reads from `inwards check`: a frame of source under each finding, a
rule's fix steps once per run (--show-fixes, --no-fixes), --quiet and --silent, through the
installed CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree

CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "infra", modules = ["shop.infra"] },
]
"""


@pytest.fixture
def violations(copy_example) -> Path:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    return project


def _block(stdout: str, head: str) -> list[str]:
    """The lines of the finding whose head line starts with `head`, up to the blank line."""
    lines = stdout.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(head))
    end = lines.index("", start)
    return lines[start:end]


def test_a_frame_under_each_finding_points_at_the_imported_name(violations: Path) -> None:
    run = run_inwards("check", "--no-cache", cwd=violations)
    assert run.code == 1, run.stderr
    block = _block(run.stdout, "src/shop/adapters/inbound/http.py:3:47: INW001")
    assert block[1:3] == [
        "  3 | from shop.adapters.outbound.sql_orders import SqlOrders",
        "    |                                               ^^^^^^^^^",
    ]
    # The carets stand under the column the head line names.
    assert block[2].index("^") - block[1].index("from") + 1 == 47
    two_digit = _block(run.stdout, "src/shop/application/reports.py:11:26: INW011")
    assert two_digit[1:3] == [
        "  11 |     return import_module(plugin)",
        "     |                          ^^^^^^",
    ]
    # A finding about a whole file has no frame; nor has one in a file that can't be decoded.
    assert _block(run.stdout, "src/shop/common/__init__.py:1:1: INW006")[1].startswith("  fix:")
    assert _block(run.stdout, "src/shop/domain/legacy.py:1:1: INW000")[1].startswith("  fix:")
    # The configuration is source too.
    config = _block(run.stdout, "pyproject.toml:10:48: INW006")
    assert config[2].endswith("^" * len('"shop.kernel"'))


def test_a_rules_steps_once_per_run_unless_asked(violations: Path) -> None:
    steps = "    1. Delete `from shop.adapters.outbound"
    default = run_inwards("check", "--no-cache", cwd=violations)
    assert default.stdout.count(steps) == 1  # three INW001 findings, steps under the first
    assert default.stdout.count("  fix: Invert the dependency: let") == 3  # each finding's summary
    assert "note: the steps of a rule's fix are shown under its first finding" in default.stdout
    every = run_inwards("check", "--no-cache", "--show-fixes", cwd=violations)
    assert every.stdout.count(steps) == 3
    assert "note: the steps" not in every.stdout
    none = run_inwards("check", "--no-cache", "--no-fixes", cwd=violations)
    assert "fix:" not in none.stdout and "    1. " not in none.stdout
    assert "  3 | from shop.adapters.outbound.sql_orders import SqlOrders" in none.stdout
    assert none.code == default.code == every.code == 1
    both = run_inwards("check", "--show-fixes", "--no-fixes", cwd=violations)
    assert (both.code, both.stdout) == (2, "")
    assert "--show-fixes and --no-fixes" in both.stderr


def test_one_rule_on_its_own_keeps_its_steps(violations: Path) -> None:
    run = run_inwards("check", "--no-cache", "--select", "INW010", cwd=violations)
    assert "    1. Correct the module name" in run.stdout
    assert "note: the steps" not in run.stdout  # no rule had a second finding


def test_concise_stays_one_line_a_finding(violations: Path) -> None:
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=violations)
    findings = [line for line in run.stdout.splitlines() if re.match(r"\S+:\d+:\d+: ", line)]
    assert len(findings) == 14
    assert len(run.stdout.splitlines()) == 15  # and the summary
    assert all(" fix: " in line for line in findings)
    bare = run_inwards("check", "--no-cache", "--format", "concise", "--no-fixes", cwd=violations)
    assert " fix: " not in bare.stdout and len(bare.stdout.splitlines()) == 15


def test_quiet_prints_the_findings_only_and_silent_nothing(violations: Path) -> None:
    full = run_inwards("check", "--no-cache", cwd=violations)
    quiet = run_inwards("check", "--no-cache", "-q", cwd=violations)
    assert quiet.code == 1
    assert quiet.stdout == full.stdout.split("Found 11 errors")[0]
    concise = run_inwards("check", "--no-cache", "--format", "concise", "--quiet", cwd=violations)
    assert len(concise.stdout.splitlines()) == 14 and "Found" not in concise.stdout
    silent = run_inwards("check", "--no-cache", "-s", cwd=violations)
    assert (silent.code, silent.stdout, silent.stderr) == (1, "", "")
    report = violations / "report.txt"
    written = run_inwards("check", "--no-cache", "--silent", "-o", str(report), cwd=violations)
    assert (written.code, written.stdout) == (1, "")
    assert report.read_text(encoding="utf-8").split("Found")[0] == full.stdout.split("Found")[0]
    json_silent = run_inwards("check", "--no-cache", "-s", "--format", "json", cwd=violations)
    assert (json_silent.code, json_silent.stdout) == (1, "")


def test_exit_zero_only_forgives_findings(violations: Path) -> None:
    run = run_inwards("check", "--no-cache", "--exit-zero", cwd=violations)
    assert run.code == 0 and "Found 11 errors" in run.stdout
    assert run_inwards("check", "--no-cache", "-e", "-s", cwd=violations).code == 0
    broken = run_inwards("check", "-e", "--config", "missing.toml", cwd=violations)
    assert broken.code == 2
    nothing = run_inwards("check", "-e", "README.md", cwd=violations)
    assert nothing.code == 2  # nothing checked is no finding to forgive


def test_the_frame_of_hostile_lines_is_escaped_capped_and_aligned(tmp_path: Path) -> None:
    tail = "x" * 100_000
    write_tree(
        tmp_path,
        {
            "pyproject.toml": CONFIG,
            "shop/__init__.py": "",
            "shop/infra/__init__.py": "",
            "shop/infra/db.py": "",
            "shop/domain/__init__.py": "",
            "shop/domain/escape.py": 'x = "\x1b]0;owned\x07\x1b[2J"; import shop.infra.db\n',
            "shop/domain/tabs.py": "if True:\n\timport shop.infra.db\n",
            "shop/domain/wide.py": "名前 = 1; from shop.infra import db\n",
            "shop/domain/long.py": f"import shop.infra.db  # {tail}\n",
            "shop/domain/far.py": f"y = '{tail}'; import shop.infra.db\n",
            "shop/domain/bidi.py": "import shop.infra.db  # \u202eevil\n",
        },
    )
    run = run_inwards("check", "--no-cache", cwd=tmp_path)
    assert run.code == 1, run.stderr
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout and "\u202e" not in run.stdout

    def frame(head: str) -> tuple[str, str]:
        block = _block(run.stdout, head)
        return block[1], block[2]

    line, carets = frame("shop/domain/escape.py:1:")
    assert line == '  1 | x = "\\x1b]0;owned\\x07\\x1b[2J"; import shop.infra.db'
    assert line[carets.index("^") :].startswith("shop.infra.db")
    line, carets = frame("shop/domain/tabs.py:2:")
    assert line == "  2 |     import shop.infra.db"  # a tab to the next stop of four
    assert line[carets.index("^") :].startswith("shop.infra.db")
    line, carets = frame("shop/domain/wide.py:1:")
    # Each of the two wide characters takes two columns of a terminal.
    assert carets.index("^") == line.index("db") + 2
    line, carets = frame("shop/domain/long.py:1:")
    assert len(line) <= 130 and line.startswith("  1 | import shop") and line.endswith("…")
    assert line[carets.index("^") :].startswith("shop.infra.db")
    line, carets = frame("shop/domain/far.py:1:")  # cut before, not after
    assert line.startswith("  1 | …xxx") and line.endswith("'; import shop.infra.db")
    assert line[carets.index("^") :] == "shop.infra.db"
    line, _ = frame("shop/domain/bidi.py:1:")
    assert line == "  1 | import shop.infra.db  # \\u202eevil"


def test_frames_are_the_same_from_a_warm_cache(violations: Path) -> None:
    cold = run_inwards("check", cwd=violations)
    warm = run_inwards("check", cwd=violations)
    strip = re.compile(r"\(\d+\.\d ms\)")
    assert strip.sub("", cold.stdout) == strip.sub("", warm.stdout)
    assert " | from shop.domain.pricng import BULK_DISCOUNT" in warm.stdout


def test_a_one_file_check_frames_its_findings(violations: Path) -> None:
    run = run_inwards("check", "src/shop/domain/discounts.py", cwd=violations)
    assert "  7 | from shop.domain.pricng import BULK_DISCOUNT" in run.stdout
