"""Run `inwards` as a user would: the installed console script in a subprocess, or, where
the process boundary is not what a test is about, its `main` in this process.

A subprocess costs a fresh interpreter and the imports of a run (most of a small check):
over a thousand runs, it was most of the suite's time. `run_inwards` therefore calls
`inwards_cli.main.main` in-process, with the same arguments, working directory and
environment, and returns what the process would have: its exit status and the bytes it
wrote to stdout and stderr, decoded as `subprocess.run(text=True)` decodes them. The
modules of `SUBPROCESS_MODULES` (tests/conftest.py), and every run whose environment
changes how an interpreter starts (PYTHONPATH, ...) or that watches, still run the real
console script: the examples, the first hour, bad input, output streams and colour, the
caches and the run memo across processes, start-up, watch, installs.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gc
import io
import json
import os
import queue
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn

import attrs
import jsonschema
import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
NO_USER_CONFIG = REPO / "tests" / "fixtures" / "no-user-config"  # never created
WAIT = 20.0  # seconds for a line a watching process should print


def inwards_executable() -> list[str]:
    found = shutil.which("inwards", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("the `inwards` console script is not installed: run `pip install -e .`")
    return [found]


@attrs.frozen
class Run:
    code: int
    stdout: str
    stderr: str


def run_inwards(
    *args: str,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    stdin: bytes | None = None,
) -> Run:
    """With `stdin`, the run is always the real process, reading those bytes."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    # Hermetic by default: the developer's own ~/.config/inwards/rules never leaks in.
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    # A hook run starts no resident daemon unless the test asks for one (tests/daemon/).
    environment["INWARDS_DAEMON"] = "0"
    environment.update(env or {})
    if stdin is not None:
        fed = subprocess.run(
            [*inwards_executable(), *args],
            cwd=cwd,
            env=environment,
            capture_output=True,
            input=stdin,
            timeout=timeout,
            check=False,
        )
        run = Run(fed.returncode, _text_mode(fed.stdout), _text_mode(fed.stderr))
    elif REAL_PROCESS.get() or _needs_a_process(args, env or {}):
        done = subprocess.run(
            [*inwards_executable(), *args],
            cwd=cwd,
            env=environment,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        run = Run(done.returncode, done.stdout, done.stderr)
    else:
        run = _run_in_process(list(args), cwd, environment)
    _validate_printed_document(run.stdout)
    return run


# Set by tests/conftest.py for the tests of SUBPROCESS_MODULES: every run is the real process.
REAL_PROCESS: contextvars.ContextVar[bool] = contextvars.ContextVar("REAL_PROCESS", default=False)


def _needs_a_process(args: tuple[str, ...], env: Mapping[str, str]) -> bool:
    """What only a fresh process shows: an interpreter started with other paths or options,
    or a watch (signals, a loop until stopped)."""
    return any(name.startswith("PYTHON") for name in env) or "--watch" in args


class _Exited(SystemExit):
    """`os._exit` of the run, as an exception, so the test process goes on (a SystemExit:
    main lets those through)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.exit_code = code


def _run_in_process(args: list[str], cwd: Path, environment: dict[str, str]) -> Run:
    from inwards_cli.main import main

    # A pipe: bytes, never a terminal; errors as Python's for a pipe under a UTF-8 locale.
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="surrogateescape")
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    with _process_state(cwd, environment, stdout, stderr):
        try:
            main(args)
            code = 0
        except _Exited as exited:
            code = exited.exit_code
        except SystemExit as stop:  # typer's, with click's convention for its code
            if stop.code is None or isinstance(stop.code, int):
                code = stop.code or 0
            else:
                print(stop.code, file=sys.stderr)
                code = 1
        stdout.flush()
        stderr.flush()
    return Run(code, _as_text_mode_reads(stdout), _as_text_mode_reads(stderr))


def _as_text_mode_reads(stream: io.TextIOWrapper) -> str:
    """The bytes written, decoded as subprocess.run(text=True) does (universal newlines)."""
    return _text_mode(stream.buffer.getvalue())  # type: ignore[attr-defined]


def _text_mode(written: bytes) -> str:
    return io.TextIOWrapper(io.BytesIO(written), encoding="utf-8").read()


@contextlib.contextmanager
def _process_state(
    cwd: Path, environment: dict[str, str], stdout: io.TextIOWrapper, stderr: io.TextIOWrapper
) -> Iterator[None]:
    """What a run may change of its process, set as the subprocess would have it, and put
    back: working directory, environment, sys.path, standard streams, the collector, and
    `os._exit` (main ends a check with it) turned into an exception in this process only
    (a forked worker of the run still exits for real)."""
    saved_environment = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_path = list(sys.path)
    saved_streams = (sys.stdout, sys.stderr)
    collecting = gc.isenabled()
    real_exit = os._exit
    test_process = os.getpid()

    def exit_here(status: int) -> NoReturn:
        if os.getpid() != test_process:
            real_exit(status)
        raise _Exited(status)

    os.environ.clear()
    os.environ.update(environment)
    os.chdir(cwd)
    sys.stdout, sys.stderr = stdout, stderr
    os._exit = exit_here
    try:
        yield
    finally:
        os._exit = real_exit
        sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_environment)
        sys.path[:] = saved_path
        if collecting:
            gc.enable()


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


# -- JSON Schemas: every versioned document the suite makes inwards print is validated ----


@functools.cache
def schema_validator(name: str, *, strict: bool = True) -> jsonschema.protocols.Validator:
    """A validator for the schema `name` (see `inwards schema`), built from the code for the
    families shipped with inwards. `strict` closes every object of an output schema, so a
    field inwards writes but the schema doesn't describe fails the test."""
    from inwards_core.api import installed_families, load_rules
    from inwards_core.authoring.schemas import build_schema, closed_schema
    from inwards_core.version import DISTRIBUTION

    families = tuple(f for f in installed_families() if f.distribution == DISTRIBUTION)
    schema = build_schema(name, families, load_rules(families))
    if strict:
        schema = closed_schema(schema)
    validator_type = jsonschema.validators.validator_for(schema)
    validator_type.check_schema(schema)
    return validator_type(schema, format_checker=validator_type.FORMAT_CHECKER)


def schema_problems(instance: Any, name: str, *, strict: bool = True) -> list[str]:
    """What the schema `name` finds wrong with `instance`, one line per problem."""
    validator = schema_validator(name, strict=strict)
    problems = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: e.json_path):
        # "not valid under any of the given schemas" says little: name the causes in the
        # alternatives of the instance's own type.
        causes = [e for e in error.context or () if e.validator != "type"] or [error]
        problems += [f"{cause.json_path}: {cause.message}" for cause in causes]
    return problems


def assert_valid(instance: Any, name: str, *, strict: bool = True) -> None:
    problems = schema_problems(instance, name, strict=strict)
    assert not problems, f"not valid against the {name} schema:\n" + "\n".join(problems)


def assert_valid_output(document: Any) -> None:
    """Validate a document inwards printed against the schema its `schema` field names
    (`inwards/diagnostics@1`, `inwards/rules@1`, ...), in its strict form."""
    from inwards_core.authoring.schemas import schema_info

    assert isinstance(document, dict), f"not a JSON object: {document!r:.200}"
    info = schema_info(str(document.get("schema", "")))
    assert info is not None and info.document, f"no schema for {document.get('schema')!r}"
    assert_valid(document, info.name)


def _validate_printed_document(stdout: str) -> None:
    """`run_inwards` checks every versioned JSON document a command prints."""
    if not stdout.startswith("{"):
        return
    try:
        document = json.loads(stdout)
    except ValueError:
        return
    if isinstance(document, dict) and str(document.get("schema", "")).startswith("inwards/"):
        assert_valid_output(document)


def read_lines(stream: Iterable[str], into: queue.Queue[str]) -> None:
    """Each line of a process's output into `into` (run it in a thread)."""
    for line in stream:
        into.put(line)


def until_line(
    lines: queue.Queue[str], wanted: str, poke: Callable[[], object] = lambda: None
) -> list[str]:
    """The lines read up to the first holding `wanted`, calling `poke` every second while
    none comes; fails after WAIT seconds."""
    seen: list[str] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1.0)
        except queue.Empty:
            poke()
            continue
        seen.append(line)
        if wanted in line:
            return seen
    pytest.fail(f"no line with {wanted!r} within {WAIT} s; read: {seen}")
