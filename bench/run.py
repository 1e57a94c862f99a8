"""Time whole runs of our inwards, the reference inwards 0.7.0 and import-linter 2.16.

Every measurement is one whole process: wall time from ``time.perf_counter`` around it, CPU
(user + sys) and peak RSS from ``os.wait4``. Each tool gets its own copy of each project under
``bench/out/work/`` (ours and the reference both keep their cache in ``.inwards/``), one warm-up
run per scenario, then ``--runs`` rounds in which the tools take turns, so a burst of outside
load hits all of them alike. Medians are reported with the min-max range.

usage: python bench/run.py [--runs N] [--only ours,reference,import-linter]
                           [--corpora synthetic,synthetic-contexts,django] [--scenarios cold,warm,one-file,version]
                           [--ours PATH/TO/bin/inwards] [--venvs DIR] [--django DIR] [--json FILE]
The peers' virtualenvs come from bench/peers.sh.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # sits next to this script; bench/ is not a package

BENCH_DIR = Path(__file__).resolve().parent
OUT_DIR = BENCH_DIR / "out"
DEFAULT_VENVS = Path(
    os.environ.get("INWARDS_BENCH_VENVS") or Path.home() / ".cache" / "inwards-bench"
)
DEFAULT_CORPORA = Path(os.environ.get("INWARDS_CORPORA") or "/work/corpora")
DJANGO_CORPUS = Path("big") / "django-6.1.3"
GET_CORPORA_HINT = "bash ../shared/bench/get-corpora.sh DIR big (from the repository root)"

OURS, REFERENCE, IMPORT_LINTER = "ours", "reference", "import-linter"
TOOLS = (OURS, REFERENCE, IMPORT_LINTER)
COLD, WARM, ONE_FILE, VERSION = "cold", "warm", "one-file", "version"
SCENARIOS = (VERSION, ONE_FILE, COLD, WARM)
SYNTHETIC, SYNTHETIC_CONTEXTS, DJANGO = "synthetic", "synthetic-contexts", "django"
CORPORA = (SYNTHETIC, SYNTHETIC_CONTEXTS, DJANGO)

ONE_FILE_TARGET_S = 0.080
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
class Corpus:
    """A prepared project: a directory with both tools' configs, ready to be copied per tool."""

    key: str
    source: Path | None
    python_root: str  # directory (relative to the project) that import-linter needs on sys.path
    one_file: str  # a module path relative to the project, for one-file runs
    description: str
    unavailable: str = ""


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


# --------------------------------------------------------------------------- corpora


def prepare_synthetic(source: Path | None, modules: int) -> Corpus:
    if source is None:
        source = OUT_DIR / "synthetic"
        if not (source / generate.MARKER).is_file() or not _generated_size_is(source, modules):
            generate.generate(source, modules, violations=True)
    if not (source / "pyproject.toml").is_file() or not (source / ".importlinter").is_file():
        return Corpus(
            SYNTHETIC,
            None,
            "src",
            "",
            "",
            unavailable=f"{source} has no pyproject.toml/.importlinter (run bench/generate.py)",
        )
    layout = generate.layout(modules)
    one_file = layout[-1].path  # the last api module: clean, and it imports from every layer
    if not (source / one_file).is_file():
        one_file = next(str(p.relative_to(source)) for p in sorted(source.rglob("m*.py")))
    description = f"synthetic, {_count_python(source)} files"
    return Corpus(SYNTHETIC, source, "src", one_file, description)


def prepare_synthetic_contexts(synthetic: Corpus) -> Corpus:
    """The synthetic project with contexts and both kinds of cycles on top of its layers:
    what INW002-INW004 cost against the layers-only run."""
    if synthetic.source is None:
        return attrs.evolve(synthetic, key=SYNTHETIC_CONTEXTS)
    source = OUT_DIR / SYNTHETIC_CONTEXTS
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(
        synthetic.source, source, ignore=shutil.ignore_patterns("__pycache__", ".inwards")
    )
    pyproject = source / "pyproject.toml"
    variant = generate.contexts_variant(pyproject.read_text(encoding="utf-8"))
    pyproject.write_text(variant, encoding="utf-8")
    description = f"{synthetic.description}, as contexts with cycles"
    return attrs.evolve(synthetic, key=SYNTHETIC_CONTEXTS, source=source, description=description)


def _generated_size_is(source: Path, modules: int) -> bool:
    text = (source / "pyproject.toml").read_text(encoding="utf-8")
    return f", {modules} modules)" in text.splitlines()[0] and "Planted violations" in text


def _count_python(directory: Path) -> int:
    return sum(1 for _ in directory.rglob("*.py"))


def django_layering(package: Path) -> tuple[list[str], list[str]]:
    """Peers' "clean" layering: django.contrib above every other top-level entry of django."""
    inner: list[str] = []
    for entry in sorted(package.iterdir()):
        if entry.name == "contrib" or entry.name.startswith(("_", ".")):
            continue
        if entry.is_dir() and (entry / "__init__.py").is_file():
            inner.append(f"django.{entry.name}")
        elif entry.suffix == ".py":
            inner.append(f"django.{entry.stem}")
    return inner, ["django.contrib"]


def django_configs(inner: Sequence[str], outer: Sequence[str]) -> tuple[str, str]:
    """(pyproject.toml, .importlinter) texts for the same two-layer Django layering."""

    def toml_list(names: Iterable[str]) -> str:
        return ", ".join(f'"{name}"' for name in names)

    pyproject = (
        "# Django with two layers: django.contrib above the rest (bench/run.py).\n"
        "[tool.inwards]\n"
        'root = "."\n'
        "layers = [\n"
        f'  {{ name = "framework", modules = [{toml_list(inner)}] }},\n'
        f'  {{ name = "contrib", modules = [{toml_list(outer)}] }},\n'
        "]\n"
    )
    importlinter = (
        "# The same layering for import-linter: outermost first, ':' joins siblings that may\n"
        "# import each other.\n"
        "[importlinter]\n"
        "root_package = django\n"
        "\n"
        "[importlinter:contract:clean]\n"
        "name = django contrib above the rest\n"
        "type = layers\n"
        "layers =\n"
        f"    {' : '.join(outer)}\n"
        f"    {' : '.join(inner)}\n"
    )
    return pyproject, importlinter


def prepare_django(corpus_dir: Path) -> Corpus:
    package = corpus_dir / "django"
    if not (package / "__init__.py").is_file() and corpus_dir.name == "django":
        package = corpus_dir
    if not (package / "__init__.py").is_file():
        return Corpus(
            DJANGO,
            None,
            ".",
            "",
            "",
            unavailable=f"no django package in {corpus_dir}; get it with {GET_CORPORA_HINT}",
        )
    source = OUT_DIR / "django"
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(package, source / "django", ignore=shutil.ignore_patterns("__pycache__"))
    inner, outer = django_layering(source / "django")
    pyproject, importlinter = django_configs(inner, outer)
    (source / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (source / ".importlinter").write_text(importlinter, encoding="utf-8")
    one_file = "django/contrib/admin/options.py"
    description = f"{package.parent.name}, {_count_python(source)} files"
    return Corpus(DJANGO, source, ".", one_file, description)


def working_copy(corpus: Corpus, tool: str) -> Path:
    """A fresh copy of the corpus for one tool, so no tool reads another's cache."""
    assert corpus.source is not None
    destination = OUT_DIR / "work" / corpus.key / tool
    if destination.exists():
        shutil.rmtree(destination)
    shutil.copytree(
        corpus.source,
        destination,
        ignore=shutil.ignore_patterns("__pycache__", ".inwards", ".import_linter_cache"),
    )
    return destination


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


def measure(
    command: Sequence[str], cwd: Path, env: dict[str, str], log_dir: Path
) -> tuple[Run, str, str]:
    """Run one whole process; return its costs and its stdout and stderr."""
    stdout_path, stderr_path = log_dir / "stdout", log_dir / "stderr"
    with stdout_path.open("wb") as stdout, stderr_path.open("wb") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(
            list(command), cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    exit_code = os.waitstatus_to_exitcode(status)
    process.returncode = exit_code  # already reaped: keep Popen from waiting again
    rss_kib = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
    run = Run(wall, usage.ru_utime, usage.ru_stime, rss_kib, exit_code)
    out = stdout_path.read_text(encoding="utf-8", errors="replace")
    err = stderr_path.read_text(encoding="utf-8", errors="replace")
    return run, out, err


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
    summary = [line for line in lines if line.startswith(("Found ", "All clear", "Nothing"))]
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

    # The warm-up also primes the caches for the warm scenario.
    for _ in range(warmups):
        for tool, result in active:
            once(tool, result, keep=False)
    for round_number in range(runs):
        # Rotate the order each round so no tool always runs right after another.
        shift = round_number % max(1, len(active))
        for tool, result in active[shift:] + active[:shift]:
            if result.status == "ok":
                once(tool, result, keep=True)
    return results


# --------------------------------------------------------------------------- reporting


def _ms(seconds: float) -> str:
    milliseconds = seconds * 1000
    return f"{milliseconds:.1f}" if milliseconds < 100 else f"{milliseconds:.0f}"


def table(results: Sequence[Result], corpora: dict[str, Corpus]) -> str:
    header = (
        f"{'corpus':<10} {'scenario':<9} {'tool':<14} {'wall ms median':>14} {'[min-max]':<15} "
        f"{'CPU ms':>7} {'RSS MiB':>8} {'exit':>4} {'busy':>4}"
    )
    rows = [header, "-" * len(header)]
    for result in results:
        head = f"{result.corpus:<10} {result.scenario:<9} {result.tool:<14}"
        if not result.ok:
            label = "n/a" if result.status == "n/a" else "FAILED"
            rows.append(f"{head} {label}: {brief(result.reason)}")
            continue
        walls = [run.wall_s for run in result.runs]
        spread = f"[{_ms(min(walls))}-{_ms(max(walls))}]"
        exits = sorted({run.exit_code for run in result.runs})
        rows.append(
            f"{head} {_ms(result.median(lambda r: r.wall_s)):>14} {spread:<15} "
            f"{_ms(result.median(lambda r: r.cpu_s)):>7} "
            f"{result.median(lambda r: r.max_rss_kib) / 1024:>8.0f} "
            f"{','.join(map(str, exits)):>4} {result.noisy_runs:>4}"
        )
    return "\n".join(rows)


def _find(results: Sequence[Result], corpus: str, scenario: str, tool: str) -> Result | None:
    for result in results:
        if (result.corpus, result.scenario, result.tool) == (corpus, scenario, tool):
            return result
    return None


def ratios(results: Sequence[Result], corpora: Iterable[str]) -> list[str]:
    lines: list[str] = []
    if not any(result.ok for result in results if result.tool == OURS):
        return ["n/a: ours has no numbers yet"] if any(r.tool == OURS for r in results) else []
    for corpus in corpora:
        for scenario in SCENARIOS:
            ours = _find(results, corpus, scenario, OURS)
            for other in (REFERENCE, IMPORT_LINTER):
                peer = _find(results, corpus, scenario, other)
                if ours is None or peer is None:
                    continue
                label = f"{corpus:<10} {scenario:<9} ours / {other:<14}"
                if not (ours.ok and peer.ok):
                    missing = OURS if not ours.ok else other
                    lines.append(f"{label} n/a ({missing} has no numbers)")
                    continue
                wall = ours.median(lambda r: r.wall_s) / peer.median(lambda r: r.wall_s)
                cpu = ours.median(lambda r: r.cpu_s) / max(peer.median(lambda r: r.cpu_s), 1e-9)
                rss = ours.median(lambda r: r.max_rss_kib) / peer.median(lambda r: r.max_rss_kib)
                lines.append(f"{label} wall {wall:.2f}x  CPU {cpu:.2f}x  RSS {rss:.2f}x")
    return lines


@attrs.frozen
class Target:
    corpus: str
    text: str
    verdict: str  # met | NOT met | n/a
    detail: str


def targets(results: Sequence[Result], corpora: Iterable[str]) -> list[Target]:
    """The issue's targets: cold <= reference and <= 1.5x import-linter, warm <= 0.5x our cold,
    one-file < 80 ms."""

    def wall(corpus: str, scenario: str, tool: str) -> float | None:
        result = _find(results, corpus, scenario, tool)
        return result.median(lambda r: r.wall_s) if result and result.ok else None

    def judge(corpus: str, text: str, ours: float | None, limit: float | None, why: str) -> Target:
        if ours is None or limit is None:
            return Target(corpus, text, "n/a", why)
        verdict = "met" if ours <= limit else "NOT met"
        return Target(corpus, text, verdict, f"{_ms(ours)} ms vs limit {_ms(limit)} ms")

    found: list[Target] = []
    for corpus in corpora:
        cold = wall(corpus, COLD, OURS)
        reference = wall(corpus, COLD, REFERENCE)
        linter = wall(corpus, COLD, IMPORT_LINTER)
        warm = wall(corpus, WARM, OURS)
        one = wall(corpus, ONE_FILE, OURS)
        found.append(
            judge(
                corpus, "cold <= reference cold", cold, reference, "needs ours and reference cold"
            )
        )
        found.append(
            judge(
                corpus,
                "cold <= 1.5x import-linter cold",
                cold,
                None if linter is None else 1.5 * linter,
                "needs ours and import-linter cold",
            )
        )
        found.append(
            judge(
                corpus,
                "warm <= 0.5x our cold",
                warm,
                None if cold is None else 0.5 * cold,
                "needs ours cold and warm",
            )
        )
        if one is not None and one >= ONE_FILE_TARGET_S:
            found.append(Target(corpus, "one-file < 80 ms", "NOT met", f"{_ms(one)} ms"))
        else:
            found.append(
                judge(corpus, "one-file < 80 ms", one, ONE_FILE_TARGET_S, "needs ours one-file")
            )
    return found


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


def _load() -> list[float]:
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return []


# --------------------------------------------------------------------------- main


def _choices(text: str, allowed: Sequence[str], option: str) -> list[str]:
    picked = [item.strip() for item in text.split(",") if item.strip()]
    unknown = [item for item in picked if item not in allowed]
    if unknown or not picked:
        raise SystemExit(f"{option}: choose from {', '.join(allowed)} (got {text!r})")
    return [item for item in allowed if item in picked]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="measured runs per case (default 7)")
    parser.add_argument("--warmups", type=int, default=1, help="unmeasured runs first (default 1)")
    parser.add_argument("--only", default=",".join(TOOLS), help="tools, comma-separated")
    parser.add_argument("--corpora", default=",".join(CORPORA), help="corpora, comma-separated")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated")
    parser.add_argument("--ours", help="our inwards executable (default: inwards on PATH)")
    parser.add_argument(
        "--venvs", type=Path, default=DEFAULT_VENVS, help=f"peers' venvs (default {DEFAULT_VENVS})"
    )
    parser.add_argument(
        "--django",
        type=Path,
        default=DEFAULT_CORPORA / DJANGO_CORPUS,
        help="unpacked Django corpus (a directory holding django/)",
    )
    parser.add_argument(
        "--synthetic", type=Path, help="an already generated project (default: generate one)"
    )
    parser.add_argument(
        "--modules",
        type=int,
        default=generate.DEFAULT_MODULES,
        help="modules in the generated project (default 2000)",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=5.0,
        help="before each measured run, wait up to this many seconds for the CPUs to be "
        "at least 85%% idle (default 5; 0 turns it off)",
    )
    parser.add_argument("--json", type=Path, help="write the raw measurements here")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmups < 1:
        parser.error("--runs and --warmups must be at least 1")
    wanted_tools = _choices(args.only, TOOLS, "--only")
    wanted_corpora = _choices(args.corpora, CORPORA, "--corpora")
    wanted_scenarios = _choices(args.scenarios, SCENARIOS, "--scenarios")

    tools = find_tools(args.ours, args.venvs.expanduser(), wanted_tools)
    started = time.time()
    host = machine()
    load_before = _load()
    host["python_start_s"] = interpreter_start()
    print(
        f"Machine: {host['cpus']} CPUs, {host['cpu_model']}; load average {load_before}; "
        f"python -I -c pass takes {_ms(host['python_start_s'])} ms"
    )
    for tool in tools.values():
        where = tool.executable or "-"
        state = f"n/a: {brief(tool.unavailable)}" if tool.unavailable else tool.version
        print(f"  {tool.key:<14} {where}  {state}")
    if load_before and host["cpus"] and load_before[0] > 0.5 * host["cpus"]:
        print("warning: the machine is busy; wall times will be pessimistic (CPU time less so)")

    corpora: dict[str, Corpus] = {}
    for key in wanted_corpora:
        if key == SYNTHETIC_CONTEXTS:
            synthetic = corpora.get(SYNTHETIC) or prepare_synthetic(args.synthetic, args.modules)
            corpus = prepare_synthetic_contexts(synthetic)
        elif key == SYNTHETIC:
            corpus = prepare_synthetic(args.synthetic, args.modules)
        else:
            corpus = prepare_django(args.django)
        corpora[key] = corpus
        status = f"n/a: {corpus.unavailable}" if corpus.unavailable else corpus.description
        print(f"Corpus {key}: {status}")

    results: list[Result] = []
    for corpus in corpora.values():
        scenarios = wanted_scenarios
        if corpus.key != wanted_corpora[0]:
            # Start-up cost doesn't depend on the project: measure it once.
            scenarios = [s for s in scenarios if s != VERSION]
        if corpus.unavailable:
            reason = corpus.unavailable
            for scenario in scenarios:
                for tool in tools.values():
                    command = tool.command(scenario, corpus.one_file)
                    if command is not None:
                        results.append(
                            Result(corpus.key, scenario, tool.key, command, "", "n/a", reason)
                        )
            continue
        projects = {tool.key: working_copy(corpus, tool.key) for tool in tools.values()}
        for scenario in scenarios:
            print(f"... {corpus.key} {scenario}", file=sys.stderr, flush=True)
            results.extend(
                run_scenario(
                    corpus,
                    scenario,
                    list(tools.values()),
                    projects,
                    args.runs,
                    args.warmups,
                    args.quiet_wait,
                )
            )
    load_after = _load()

    print()
    print(table(results, corpora))
    print(
        f"(medians of {args.runs} runs after {args.warmups} warm-up; 'busy' counts runs that "
        f"started after waiting {args.quiet_wait:g} s in vain for idle CPUs;\n"
        f" load average {load_before} before, {load_after} after)"
    )
    failed = [r for r in results if r.status == "failed"]
    for result in failed:
        print(
            f"\n{result.corpus} {result.scenario} {result.tool} failed: {' '.join(result.command)}"
        )
        print(result.reason)
    print("\nWhat each tool reported:")
    for result in results:
        if result.ok and result.scenario in (COLD, ONE_FILE):
            print(f"  {result.corpus:<10} {result.scenario:<9} {result.tool:<14} {result.reported}")
    ratio_lines = ratios(results, corpora)
    if ratio_lines:
        print("\nRatios of medians:")
        print("\n".join(f"  {line}" for line in ratio_lines))
    verdicts = targets(results, corpora) if OURS in tools else []
    if verdicts:
        print("\nTargets:")
        for target in verdicts:
            print(f"  {target.corpus:<10} {target.text:<32} {target.verdict:<8} {target.detail}")

    if args.json:
        document = {
            "schema": "inwards-bench/measurements@1",
            "taken_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
            "machine": host,
            "load_average": {"before": load_before, "after": load_after},
            "runs": args.runs,
            "warmups": args.warmups,
            "tools": {
                key: attrs.asdict(tool, value_serializer=_serialize) for key, tool in tools.items()
            },
            "corpora": {
                key: attrs.asdict(corpus, value_serializer=_serialize)
                for key, corpus in corpora.items()
            },
            "results": [attrs.asdict(result, value_serializer=_serialize) for result in results],
            "targets": [attrs.asdict(target) for target in verdicts],
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        print(f"\nRaw measurements: {args.json}")
    return 1 if failed else 0


def _serialize(_instance: object, _field: object, value: object) -> object:
    return str(value) if isinstance(value, Path) else value


if __name__ == "__main__":
    sys.exit(main())
