"""bench/generate_units.py and bench/independence_units.py on a tiny project, so that
neither rots: the generator is deterministic and writes what it says, and the script runs
both tools to the end and prints a median for each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.import_linter_runs import lint_imports_executable

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_the_generator_writes_the_same_tree_for_the_same_seed(tmp_path: Path) -> None:
    command = [sys.executable, str(BENCH / "generate_units.py")]
    size = ["--modules", "120", "--imports", "700", "--units", "6"]
    for name in ("one", "two"):
        subprocess.run([*command, str(tmp_path / name), *size], check=True)
    subprocess.run([*command, str(tmp_path / "other"), *size, "--seed", "2"], check=True)
    one = _files(tmp_path / "one")
    assert one == _files(tmp_path / "two")
    assert one != _files(tmp_path / "other")
    modules = [name for name in one if name.endswith(".py")]
    assert len(modules) == 120 + 3  # and the packages above the units and the shared code
    imports = sum(text.count(b"\nimport ") + text.startswith(b"import ") for text in one.values())
    assert 650 <= imports <= 700  # an import drawn of its own module is left out
    contract = one[".importlinter"].decode()
    assert "type = independence" in contract and "estate.units.u05" in contract


def test_the_script_times_both_tools(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "independence_units.py"),
            *("--modules", "80", "--imports", "400", "--units", "4", "--runs", "1"),
            "--lint-imports",
            lint_imports_executable(),
            "--inwards",
            str(Path(sys.executable).parent / "inwards"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "exit codes [1]" in lines[0], done.stdout
    assert any(line.strip().startswith("lint-imports --no-cache") for line in lines)
    assert any(line.strip().startswith("inwards check --no-cache") for line in lines)
    assert lines[-1].strip().startswith("load average:")
