"""Load the bench scripts (bench/ is a folder of scripts, not a package)."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str) -> ModuleType:
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"_inwards_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # attrs needs the module registered to resolve annotations
    spec.loader.exec_module(module)
    return module


def _helper(name: str) -> ModuleType:
    """A module run.py imports by its plain name: the same object the harness uses."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    return importlib.import_module(name)


@pytest.fixture(scope="session")
def generate() -> ModuleType:
    return _load("generate")


@pytest.fixture(scope="session")
def bench_run() -> ModuleType:
    return _load("run")


@pytest.fixture(scope="session")
def bench_corpora() -> ModuleType:
    return _helper("corpora")


@pytest.fixture(scope="session")
def bench_measure() -> ModuleType:
    return _helper("measure")


@pytest.fixture(scope="session")
def bench_report() -> ModuleType:
    return _helper("report")


@pytest.fixture(scope="session")
def bench_trees() -> ModuleType:
    return _helper("trees")


@pytest.fixture(scope="session")
def bench_scaling() -> ModuleType:
    return _helper("scaling")


@pytest.fixture(scope="session")
def bench_startup() -> ModuleType:
    return _helper("startup")


@pytest.fixture(scope="session")
def bench_precision() -> ModuleType:
    return _helper("precision")


@pytest.fixture(scope="session")
def bench_precision_corpora() -> ModuleType:
    return _helper("precision_corpora")


@pytest.fixture(scope="session")
def optin_cost() -> ModuleType:
    return _load("optin_cost")
