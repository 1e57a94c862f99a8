"""One hostile file costs that file, never the run: every parse happens in a worker under a
budget of CPU time and memory (see inwards_core/extraction/limits.py), and a worker that
dies takes only the file it was reading with it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable
from tests.hostile.harness import Budget, layered_project, run_limited

# The probe's generator: newer syntax sends CPython 3.11 to libcst, `__import__` (even in
# a comment) makes a whole-project run read the file whole.
NEWER = "# __import__\ntype X = int\n"
OUTWARD = "from shop.adapters import db\n"  # domain -> adapters: INW001, proves the run went on


def unary_chain(size: int) -> str:
    """About `size` bytes of nested unary minuses in parentheses, over many lines."""
    lines = ["x = ("]
    while sum(map(len, lines)) < size:
        lines.append("-" * 79)
    return NEWER + "\n".join(lines) + "1\n)\n"


def limit_findings(output: str) -> list[str]:
    return [line for line in output.splitlines() if "could not be read within the limits" in line]


@pytest.mark.parametrize("size", [10_000, 20_000, 1_500_000])
def test_a_file_libcst_cannot_read_in_bounds_is_reported(tmp_path: Path, size: int) -> None:
    layered_project(
        tmp_path,
        {
            "src/shop/domain/evil.py": unary_chain(size),
            "src/shop/domain/order.py": OUTWARD,
            "src/shop/adapters/db.py": "",
        },
    )
    for args in (("check", "--no-cache"), ("check", "--no-cache", "src/shop/domain")):
        run = run_limited(*args, cwd=tmp_path, budget=Budget(seconds=20, memory_mb=2048))
        assert run.code == 1, run.output
        [finding] = limit_findings(run.stdout)
        assert finding.startswith("src/shop/domain/evil.py:1:1: INW020 ")
        assert "100 prefix operators; such files are read only up to 100" in finding
        assert "src/shop/domain/order.py:1:" in run.stdout  # the other file was checked
        assert "Traceback" not in run.stderr


def test_a_big_project_survives_a_hostile_file(tmp_path: Path) -> None:
    """300+ files take several workers; one file the old process pool died on
    (BrokenProcessPool) is that file's problem, the 399 others are checked."""
    files: dict[str, str | bytes] = {
        f"src/shop/domain/m{i}.py": f"import os\nVALUE = {i}\n" for i in range(400)
    }
    files["src/shop/domain/evil.py"] = unary_chain(20_000)
    files["src/shop/domain/m399.py"] = OUTWARD
    files["src/shop/adapters/db.py"] = ""
    layered_project(tmp_path, files)
    run = run_limited(
        "check", "--no-cache", cwd=tmp_path, budget=Budget(seconds=30, memory_mb=2048)
    )
    assert run.code == 1, run.output
    assert len(limit_findings(run.stdout)) == 1
    assert "src/shop/domain/m399.py:1:" in run.stdout
    assert "in 404 files" in run.stdout  # every file counted as checked
    assert "BrokenProcessPool" not in run.output and "Traceback" not in run.output


# A chain of lambdas passes the shape screen, then libcst asks for gigabytes: an allocation
# fails under the worker's memory limit and the worker dies. A chain of calls costs libcst
# seconds and little memory: its worker is stopped after the file's 5 s of CPU time.
LAMBDAS = NEWER + "x = (\n" + "lambda:\n" * 4000 + "1)\n"
CALLS = NEWER + "x = a" + "()" * 4000 + "\n"


@pytest.mark.parametrize(
    ("evil", "said"),
    [(LAMBDAS, "ran out of memory"), (CALLS, "used up its CPU time")],
    ids=["memory", "time"],
)
def test_a_file_that_exhausts_its_budget_costs_only_itself(
    tmp_path: Path, evil: str, said: str
) -> None:
    layered_project(
        tmp_path,
        {
            "src/shop/domain/evil.py": evil,
            "src/shop/domain/order.py": OUTWARD,
            "src/shop/adapters/db.py": "",
        },
    )
    run = run_limited("check", "--no-cache", cwd=tmp_path, budget=Budget(30, 3072))
    assert run.code == 1, run.output
    [finding] = limit_findings(run.stdout)
    assert said in finding and "5 s of CPU time, 512 MB of memory" in finding
    assert "src/shop/domain/order.py:1:" in run.stdout
    assert run.stderr == ""  # the parser's own abort message stays in the worker


def test_a_limit_is_not_cached(tmp_path: Path) -> None:
    """The next run tries the file again: the limit may have been the machine's load."""
    layered_project(tmp_path, {"src/shop/domain/evil.py": LAMBDAS})
    first = run_limited("check", cwd=tmp_path, budget=Budget(20, 3072))
    (tmp_path / "src/shop/domain/evil.py").write_text("type X = int\n", encoding="utf-8")
    second = run_limited("check", cwd=tmp_path, budget=Budget(20, 3072))
    assert first.code == 1 and limit_findings(first.stdout)
    assert second.code == 0, second.output


def _live_members(group: int) -> list[int]:
    """Processes of a process group that are still running (not zombies)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(int(entry))
    return alive


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("kill_with", [signal.SIGTERM, signal.SIGKILL])
def test_workers_end_with_their_parent(tmp_path: Path, kill_with: signal.Signals) -> None:
    files: dict[str, str | bytes] = {f"src/shop/domain/m{i}.py": "import os\n" for i in range(400)}
    for i in range(4):  # each keeps a worker busy for seconds
        files[f"src/shop/domain/slow{i}.py"] = CALLS
    layered_project(tmp_path, files)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    process = subprocess.Popen(
        [*inwards_executable(), "check", "--no-cache"],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        # The run and at least one worker (on 2 cores the run reads beside one worker).
        deadline = time.monotonic() + 10
        while len(_live_members(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_live_members(process.pid)) >= 2, "the run never started its workers"
        process.send_signal(kill_with)
        process.wait(timeout=5)
        deadline = time.monotonic() + 2
        while _live_members(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _live_members(process.pid) == [], "workers outlived their parent"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_python_dash_m_never_runs_a_plugin_from_the_checked_project(tmp_path: Path) -> None:
    """`python -m inwards_cli` puts the working directory on sys.path; a checkout holding
    a distribution's metadata and its module must not get them imported."""
    marker = tmp_path / "pwned"
    layered_project(
        tmp_path,
        {
            "src/shop/domain/order.py": "import os\n",
            "evilfam-1.0.dist-info/METADATA": "Name: evilfam\nVersion: 1.0\n",
            "evilfam-1.0.dist-info/entry_points.txt": "[inwards]\nevil = evilplugin\n",
            "evilplugin.py": f"open({str(marker)!r}, 'w').write('ran')\n",
            "src/evilfam-1.0.dist-info/entry_points.txt": "[inwards]\nevil = evilplugin\n",
            "src/evilplugin.py": f"open({str(marker)!r}, 'w').write('ran')\n",
        },
    )
    python = [str(Path(inwards_executable()[0]).parent / "python"), "-m", "inwards_cli"]
    for env in ({}, {"PYTHONPATH": "src"}):
        for args in (("check", "--no-cache"), ("status",), ("rules",)):
            run = run_limited(*args, cwd=tmp_path, budget=Budget(30), command=python, env=env)
            assert run.code == 0, run.output
            assert not marker.exists(), f"{args} with {env} ran the project's plugin"


def test_an_internal_error_is_exit_2_and_one_line(tmp_path: Path) -> None:
    """A bug of ours is neither a verdict (0, 1) nor a traceback: one line on stderr saying
    it is an internal error and how to get the traceback."""
    layered_project(tmp_path, {"src/shop/domain/order.py": "import os\n"})
    python = str(Path(inwards_executable()[0]).parent / "python")
    script = (
        "import inwards_cli.commands.check.entry as entry\n"
        "def broken(arguments):\n"
        "    raise RuntimeError('planted for the test')\n"
        "entry.check = broken\n"
        "from inwards_cli.main import main\n"
        "main(['check'])\n"
    )
    run = run_limited("-c", script, cwd=tmp_path, budget=Budget(30), command=[python])
    assert run.code == 2
    assert run.stdout == ""
    [line] = run.stderr.splitlines()
    assert "internal error (RuntimeError: planted for the test)" in line
    assert "INWARDS_DEBUG=1" in line
    debug = run_limited(
        "-c", script, cwd=tmp_path, budget=Budget(30), command=[python], env={"INWARDS_DEBUG": "1"}
    )
    assert debug.code == 2 and "Traceback (most recent call last)" in debug.stderr


def test_what_held_up_still_does_a_50_mb_file_and_100_000_imports(tmp_path: Path) -> None:
    """Big but plain files are read, within their budget, whole-project and by name."""
    layered_project(
        tmp_path,
        {
            "src/shop/domain/big.py": "# " + "x" * 78 + "\n" * 1 + ("# padding\n" * 5_000_000),
            "src/shop/domain/many.py": "import os\n" * 100_000 + OUTWARD,
            "src/shop/adapters/db.py": "",
        },
    )
    for args in (("check", "--no-cache"), ("check", "--no-cache", "src/shop/domain")):
        run = run_limited(*args, cwd=tmp_path, budget=Budget(seconds=60, memory_mb=3072))
        assert run.code == 1, run.output
        assert "src/shop/domain/many.py:100001:" in run.stdout
        assert limit_findings(run.stdout) == []


def test_big_files_with_many_imports_never_deadlock_the_workers(tmp_path: Path) -> None:
    """Batches bigger than a pipe holds, answered by more facts than a pipe holds: the
    supervisor never waits on a write while a worker waits on its own (a run on sympy
    once hung this way)."""
    imports = "".join(f"from shop.domain.m{i} import name{i}\n" for i in range(400))
    padding = "# " + "x" * 70 + "\n"
    body = imports + padding * 600  # about 60 KB, 400 imports a file
    files: dict[str, str | bytes] = {f"src/shop/domain/m{i}.py": body for i in range(360)}
    layered_project(tmp_path, files)
    run = run_limited("check", "--no-cache", "--full-parse", cwd=tmp_path, budget=Budget(120, 3072))
    assert run.code == 1, run.output  # INW010: the imported names are no modules
    assert "in 362 files" in run.stdout
