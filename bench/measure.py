"""Running whole processes of the tools and judging each run: the measuring half of bench/run.py.

Every measurement is one whole process: wall time from ``time.perf_counter`` around it, CPU
(user + sys) and peak RSS from ``os.wait4`` (the largest of the process and its waited-for
children, not their sum).
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
from corpora import Corpus

OURS, REFERENCE, IMPORT_LINTER = "ours", "reference", "import-linter"
TOOLS = (OURS, REFERENCE, IMPORT_LINTER)
COLD, WARM, ONE_FILE, VERSION = "cold", "warm", "one-file", "version"
SCENARIOS = (VERSION, ONE_FILE, COLD, WARM)

QUIET_BUSY_FRACTION = 0.15
QUIET_SAMPLE_S = 0.2
FAILURE_TAIL_LINES = 15


@attrs.frozen
class Tool:
    """A tool to time, or the reason it can't be."""

    key: str
    executable: Path | None
    version: str = ""
    unavailable: str = ""

    def command(self, scenario: str, one_file: str) -> list[str] | None:
        """The command line for a scenario, or None when the scenario means nothing for it."""
        exe = str(self.executable)
        if scenario == VERSION:
            return [exe, "--version"]
        if self.key == IMPORT_LINTER:
            return {
                COLD: [exe, "--no-cache", "--no-logo"],
                WARM: [exe, "--no-logo"],
            }.get(scenario)
        return {
            COLD: [exe, "check", "--no-cache"],
            WARM: [exe, "check"],
            ONE_FILE: [exe, "check", one_file, "--no-cache"],
        }.get(scenario)


@attrs.frozen
class Run:
    wall_s: float
    user_s: float
    sys_s: float
    max_rss_kib: int
    exit_code: int

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.sys_s


@attrs.define
class Result:
    """All runs of one tool in one scenario on one corpus."""

    corpus: str
    scenario: str
    tool: str
    command: list[str]
    cwd: str
    status: str = "ok"  # ok | failed | n/a
    reason: str = ""
    reported: str = ""  # what the tool said it found, from its warm-up run
    runs: list[Run] = attrs.Factory(list)
    noisy_runs: int = 0  # measured runs that started while the machine was still busy

    def median(self, field: Callable[[Run], float]) -> float:
        return statistics.median(field(run) for run in self.runs)

    @property
    def ok(self) -> bool:
        return self.status == "ok" and bool(self.runs)


# --------------------------------------------------------------------------- tools


def _probe_version(executable: Path) -> tuple[str, str]:
    """(version text, failure reason) from ``EXE --version``."""
    try:
        done = subprocess.run(
            [str(executable), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except OSError as error:
        return "", f"{executable} could not start: {error}"
    except subprocess.TimeoutExpired:
        return "", f"{executable} --version did not finish in 60 s"
    if done.returncode != 0:
        tail = _tail(done.stderr or done.stdout)
        return "", f"{executable} --version exited {done.returncode}:\n{tail}"
    lines = done.stdout.strip().splitlines()
    return (lines[-1].strip() if lines else ""), ""


def find_tools(ours: str | None, venvs: Path, wanted: Sequence[str]) -> dict[str, Tool]:
    tools: dict[str, Tool] = {}
    peers_hint = f"run bench/peers.sh {venvs}"
    candidates = {
        REFERENCE: venvs / "inwards-0.7.0" / "bin" / "inwards",
        IMPORT_LINTER: venvs / "import-linter" / "bin" / "lint-imports",
    }
    for key in wanted:
        if key == OURS:
            found = ours or shutil.which("inwards")
            if not found:
                tools[key] = Tool(key, None, unavailable="no inwards on PATH; pass --ours")
                continue
            executable = Path(found)
        else:
            executable = candidates[key]
            if not executable.exists():
                tools[key] = Tool(key, None, unavailable=f"{executable} is missing; {peers_hint}")
                continue
        version, failure = _probe_version(executable)
        if failure:
            tools[key] = Tool(key, executable, unavailable=failure)
        elif key == OURS and version.endswith("0.7.0"):
            tools[key] = Tool(
                key,
                executable,
                version,
                unavailable=f"{executable} is the reference inwards 0.7.0, not ours; pass --ours",
            )
        else:
            tools[key] = Tool(key, executable, version)
    return tools


# --------------------------------------------------------------------------- measuring


def brief(reason: str) -> str:
    """A reason on one line: its headline and, for a traceback or log, the output's last line."""
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    if len(lines) <= 1:
        return lines[0] if lines else ""
    return f"{lines[0].rstrip(':')}: {lines[-1]}"


def _tail(text: str, lines: int = FAILURE_TAIL_LINES) -> str:
    kept = [line for line in text.strip().splitlines() if line.strip()][-lines:]
    return "\n".join(kept) if kept else "(no output)"


def child_environment(tool: str, project: Path, corpus: Corpus) -> dict[str, str]:
    # INWARDS_* variables could switch caches or threads off behind the bench's back.
    env = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    if tool == IMPORT_LINTER:
        # import-linter finds the root package through sys.path.
        root = str(project / corpus.python_root)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


# The measured process is started by a small launcher (a bare interpreter), not by this
# process: on Linux a child's ru_maxrss starts at the peak RSS of the process that forked it
# (exec keeps the old memory's high-water mark), and the harness itself can grow past 200 MB
# (generating the 9,000-module project). The launcher's floor is about 10 MB, below any tool.
LAUNCHER = """\
import os, sys, time
report, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
code = os.waitstatus_to_exitcode(status)
with open(report, "w", encoding="ascii") as handle:
    handle.write(f"{wall!r} {usage.ru_utime!r} {usage.ru_stime!r} {usage.ru_maxrss} {code}")
"""
LAUNCH_FAILED = 127  # the exit code of a command the launcher could not start


def measure(
    command: Sequence[str], cwd: Path, env: dict[str, str], log_dir: Path
) -> tuple[Run, str, str]:
    """Run one whole process; return its costs and its stdout and stderr.

    Wall time is taken by the launcher around starting and reaping the process; CPU and
    peak RSS come from its ``wait4``."""
    stdout_path, stderr_path = log_dir / "stdout", log_dir / "stderr"
    report_path = log_dir / "launcher-report"
    report_path.unlink(missing_ok=True)
    launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(report_path), *command]
    with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
        start = time.perf_counter()
        subprocess.call(
            launcher, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr
        )
        outer_wall = time.perf_counter() - start
    out = stdout_path.read_text(encoding="utf-8", errors="replace")
    err = stderr_path.read_text(encoding="utf-8", errors="replace")
    if not report_path.is_file():  # the command could not be started
        return Run(outer_wall, 0.0, 0.0, 0, LAUNCH_FAILED), out, err
    wall, user, system, max_rss, exit_code = report_path.read_text(encoding="ascii").split()
    rss = int(max_rss)
    rss_kib = rss // 1024 if sys.platform == "darwin" else rss
    return Run(float(wall), float(user), float(system), rss_kib, int(exit_code)), out, err


def failure(tool: str, scenario: str, run: Run, stdout: str, stderr: str) -> str:
    """Why a run counts as failed, or "" when its exit code is one the tool uses normally."""
    code = run.exit_code
    if code < 0:
        return f"killed by signal {-code}:\n{_tail(stderr)}"
    if scenario == VERSION:
        return "" if code == 0 else f"exit {code}:\n{_tail(stderr or stdout)}"
    if code not in (0, 1):
        return f"exit {code}:\n{_tail(stderr or stdout)}"
    if tool == IMPORT_LINTER and "Contracts:" not in stdout:
        # import-linter exits 1 for config errors too; only a finished check prints this line.
        return f"exit {code} without a contract summary:\n{_tail(stderr or stdout)}"
    return ""


def reported(tool: str, scenario: str, stdout: str) -> str:
    """One line saying what the tool found, for checking that the tools did comparable work."""
    lines = [line.strip() for line in stdout.splitlines() if line.strip()]
    if scenario == VERSION:
        return lines[-1] if lines else ""
    if tool == IMPORT_LINTER:
        picked = [line for line in lines if line.startswith(("Analyzed", "Contracts:"))]
        items = sum(1 for line in lines if line.startswith("- "))
        return " ".join(picked) + f" ({items} broken imports listed)"
    summary = [
        line for line in lines if line.startswith(("Found ", "All clear", "No errors", "Nothing"))
    ]
    return summary[-1] if summary else (lines[-1] if lines else "(no output)")


def _cpu_counters() -> tuple[int, int] | None:
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat; None where there is none."""
    try:
        first = Path("/proc/stat").read_text(encoding="ascii").splitlines()[0]
    except OSError:
        return None
    values = [int(field) for field in first.split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return sum(values) - idle, sum(values)


def wait_for_quiet(limit_s: float, busy_limit: float = QUIET_BUSY_FRACTION) -> bool:
    """Wait until other processes leave the CPUs mostly idle, for at most ``limit_s``.

    Other people's test runs on a shared machine stretch wall times; CPU time hardly moves.
    Returns False when the machine stayed busy (or can't be observed) until the limit.
    """
    if limit_s <= 0:
        return True
    deadline = time.monotonic() + limit_s
    while True:
        before = _cpu_counters()
        time.sleep(QUIET_SAMPLE_S)
        after = _cpu_counters()
        if before is None or after is None:
            return False
        total = after[1] - before[1]
        if total > 0 and (after[0] - before[0]) / total < busy_limit:
            return True
        if time.monotonic() >= deadline:
            return False


def run_scenario(
    corpus: Corpus,
    scenario: str,
    tools: Sequence[Tool],
    projects: dict[str, Path],
    runs: int,
    warmups: int,
    quiet_wait_s: float = 0.0,
) -> list[Result]:
    results: list[Result] = []
    active: list[tuple[Tool, Result]] = []
    for tool in tools:
        command = tool.command(scenario, corpus.one_file)
        if command is None:
            continue
        project = projects[tool.key]
        result = Result(corpus.key, scenario, tool.key, command, str(project))
        results.append(result)
        if tool.unavailable:
            result.status, result.reason = "n/a", tool.unavailable
            continue
        active.append((tool, result))

    def once(tool: Tool, result: Result, keep: bool) -> None:
        env = child_environment(tool.key, projects[tool.key], corpus)
        if keep and not wait_for_quiet(quiet_wait_s):
            result.noisy_runs += 1
        with tempfile.TemporaryDirectory(prefix="inwards-bench-") as logs:
            run, stdout, stderr = measure(result.command, projects[tool.key], env, Path(logs))
        why = failure(tool.key, scenario, run, stdout, stderr)
        if why:
            result.status, result.reason = "failed", why
            return
        if not result.reported:
            result.reported = reported(tool.key, scenario, stdout)
        if keep:
            result.runs.append(run)

    # The warm-up also primes the caches for the warm scenario, which needs one even when
    # no warm-up was asked for: its first run would be a cold one.
    for _ in range(max(warmups, 1) if scenario == WARM else warmups):
        for tool, result in active:
            once(tool, result, keep=False)
    for round_number in range(runs):
        # Rotate the order each round so no tool always runs right after another.
        shift = round_number % max(1, len(active))
        for tool, result in active[shift:] + active[:shift]:
            if result.status == "ok":
                once(tool, result, keep=True)
    return results


def machine() -> dict[str, Any]:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model or platform.processor(),
        "platform": platform.platform(),
        "python": platform.python_version(),
    }


def interpreter_start(runs: int = 5) -> float:
    """Median wall time of ``python -I -c pass``: how slow this machine starts any Python tool."""
    with tempfile.TemporaryDirectory(prefix="inwards-bench-") as logs:
        walls = [
            measure([sys.executable, "-I", "-c", "pass"], Path(logs), dict(os.environ), Path(logs))[
                0
            ].wall_s
            for _ in range(runs)
        ]
    return statistics.median(walls)


def load_average() -> list[float]:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return []
