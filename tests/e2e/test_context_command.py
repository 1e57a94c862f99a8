"""`inwards context` through the installed `inwards`: the golden brief of examples/shop,
`--write` creating AGENTS.md, keeping what stands outside the markers, twice giving the same
file, and refusing markers out of order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inwards_core.diagrams.brief import BEGIN_MARKER, END_MARKER
from tests.e2e.helpers import EXAMPLES, REPO, run_inwards

GOLDEN = REPO / "tests" / "diagrams" / "golden" / "shop-brief.md"


def test_the_shop_brief_is_the_golden_one() -> None:
    run = run_inwards("context", cwd=EXAMPLES / "shop")
    assert run.code == 0, run.stderr
    assert run.stdout == GOLDEN.read_text(encoding="utf-8")


def test_write_twice_gives_the_same_file(copy_example: Any) -> None:
    project = copy_example("shop")
    agents = project / "AGENTS.md"
    first = run_inwards("context", "--write", cwd=project / "src")  # found from below
    assert first.code == 0, first.stderr
    assert first.stdout == "wrote the brief into AGENTS.md\n"
    written = agents.read_bytes()
    assert written == (
        f"{BEGIN_MARKER}\n{GOLDEN.read_text(encoding='utf-8')}{END_MARKER}\n".encode()
    )
    second = run_inwards("context", "--write", cwd=project)
    assert second.code == 0, second.stderr
    assert second.stdout == "AGENTS.md is up to date\n"
    assert agents.read_bytes() == written


def test_write_keeps_what_stands_outside_the_markers(copy_example: Any) -> None:
    project = copy_example("shop")
    agents = project / "AGENTS.md"
    before = "# Notes for agents\n\nRun the tests with `pytest`.\n"
    after = "\n## Style\n\nShort functions.\n"
    agents.write_text(f"{before}{BEGIN_MARKER}\nan old brief\n{END_MARKER}\n{after}")
    run = run_inwards("context", "--write", cwd=project)
    assert run.code == 0, run.stderr
    text = agents.read_text(encoding="utf-8")
    assert text.startswith(before + BEGIN_MARKER + "\n## Architecture brief (inwards)\n")
    assert text.endswith(f"{END_MARKER}\n{after}")
    assert "an old brief" not in text


def test_markers_out_of_order_are_exit_2(copy_example: Any) -> None:
    project = copy_example("shop")
    agents = project / "AGENTS.md"
    agents.write_text(f"# A\n{END_MARKER}\n{BEGIN_MARKER}\n")
    run = run_inwards("context", "--write", cwd=project)
    assert run.code == 2
    assert "AGENTS.md:2: the brief's markers must stand once each" in run.stderr
    assert agents.read_text() == f"# A\n{END_MARKER}\n{BEGIN_MARKER}\n"


def test_no_configuration_is_exit_2(tmp_path: Path) -> None:
    run = run_inwards("context", cwd=tmp_path)
    assert run.code == 2
    assert run.stdout == ""


def test_a_rule_setting_no_rule_has_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.inwards]\n"
        'layers = [{ name = "a", modules = ["x.a"] }]\n'
        'rules.extend-select = ["INW999"]\n'
    )
    run = run_inwards("context", cwd=tmp_path)
    assert run.code == 2
    assert run.stderr.startswith(
        'config error: pyproject.toml:3:24: tool.inwards.rules.extend-select[0]: "INW999"'
    )
