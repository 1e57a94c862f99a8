"""Suite-wide settings.

Tests marked `corpus` read third-party code (Django, sympy, ...) fetched with
`../shared/bench/get-corpora.sh DIR`; they take minutes, so they run only when asked:
`INWARDS_CORPORA=DIR python -m pytest -m corpus`.
"""

from __future__ import annotations

import compileall
import os
import sys
from collections.abc import Iterator

import pytest

from tests.e2e.helpers import REAL_PROCESS, REPO

# Bytecode caches are written even under PYTHONDONTWRITEBYTECODE (some container images set
# it): without them each xdist worker compiles and rewrites the asserts of every test module
# again at each run (about 10 s of a 2-worker run's collection).
sys.dont_write_bytecode = False
PACKAGES = ("inwards_core", "inwards_cli", "inwards_rules_fastapi")

# The modules whose `run_inwards` runs the installed console script in a subprocess (every
# other calls inwards' main in-process, see tests/e2e/helpers.py): where the process is what
# is tested, and a solid core of end-to-end runs as a user's shell makes them.
SUBPROCESS_MODULES = frozenset(
    {
        "tests/e2e/test_check_examples.py",  # the README's quick start and the examples
        "tests/e2e/test_first_hour_cli.py",  # a new user's first hour, command by command
        "tests/e2e/test_bad_input.py",  # exit statuses and messages of what goes wrong
        "tests/e2e/test_output_options.py",  # --output-file, colour (a terminal or not)
        "tests/e2e/test_findings_output.py",  # what reaches stdout and what stderr
        "tests/e2e/test_cache.py",  # a cache written by one process, read by the next
        "tests/e2e/test_run_memo.py",  # a report remembered across processes
        "tests/e2e/test_startup_budget.py",  # start-up: the fast path without typer
        "tests/e2e/test_watch.py",
        "tests/e2e/test_pre_commit_hooks.py",
        "tests/e2e/test_library_entry_point.py",
        "tests/e2e/test_install_from_wheel.py",
        "tests/families/test_tidy_family.py",  # a family installed from its distribution
    }
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: reads the third-party corpora named by INWARDS_CORPORA (slow)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("INWARDS_CORPORA"):
        return
    skip = pytest.mark.skip(reason="corpus test: set INWARDS_CORPORA to the corpora folder")
    for item in items:
        if "corpus" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _compiled_packages() -> None:
    """inwards' own modules compiled to .pyc before the first `inwards` subprocess, as a pip
    install leaves them: an editable install under PYTHONDONTWRITEBYTECODE has none, and
    each process would compile the ~300 modules it imports again (0.28 s more a run, twice
    the time of a small check). Up-to-date files are only looked at."""
    for package in PACKAGES:
        compileall.compile_dir(REPO / package, quiet=1)


@pytest.fixture(autouse=True, scope="session")
def _no_resident_daemons() -> Iterator[None]:
    """No hook run of the suite starts a resident daemon unless its test asks for one
    (tests/daemon/ does, in a runtime directory of its own, and stops it)."""
    saved = os.environ.get("INWARDS_DAEMON")
    os.environ["INWARDS_DAEMON"] = "0"
    yield
    if saved is None:
        os.environ.pop("INWARDS_DAEMON", None)
    else:
        os.environ["INWARDS_DAEMON"] = saved


@pytest.fixture(autouse=True)
def _cli_process(request: pytest.FixtureRequest) -> Iterator[None]:
    module = request.path.relative_to(request.config.rootpath).as_posix()
    token = REAL_PROCESS.set(module in SUBPROCESS_MODULES)
    yield
    REAL_PROCESS.reset(token)
