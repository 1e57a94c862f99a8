"""The bundled standard-library list."""

from __future__ import annotations

import sys

import pytest

from inwards_core.index import stdlib
from inwards_core.index.stdlib import STDLIB_MODULES, is_stdlib


def test_running_interpreter_stdlib_is_covered() -> None:
    missing = set(sys.stdlib_module_names) - STDLIB_MODULES
    assert not missing, f"regenerate inwards_core/index/stdlib.py: {sorted(missing)}"


def test_literal_is_sorted_and_without_duplicates() -> None:
    written = stdlib._NAMES.split()
    assert written == sorted(written)
    assert len(written) == len(set(written))


@pytest.mark.parametrize(
    "name",
    # removed in 3.12 and in 3.13 (PEP 594), still the standard library's
    [
        "distutils",
        "imp",
        "asynchat",
        "asyncore",
        "smtpd",
        "cgi",
        "cgitb",
        "crypt",
        "telnetlib",
        "lib2to3",
        "nntplib",
        "uu",
        "xdrlib",
        "pipes",
        "aifc",
        "audioop",
        "chunk",
        "imghdr",
        "mailcap",
        "msilib",
        "nis",
        "ossaudiodev",
        "sndhdr",
        "spwd",
        "sunau",
    ],
)
def test_removed_modules_are_kept(name: str) -> None:
    assert name in STDLIB_MODULES


@pytest.mark.parametrize("name", ["tomllib", "annotationlib", "compression", "_pyrepl"])
def test_newer_modules_are_included(name: str) -> None:
    assert name in STDLIB_MODULES


def test_is_stdlib_by_top_level_segment() -> None:
    assert is_stdlib("os.path")
    assert is_stdlib("xml.etree.ElementTree")
    assert is_stdlib("__future__")
    assert is_stdlib("_thread")
    assert not is_stdlib("sqlalchemy.orm")
    assert not is_stdlib("osx")
    assert not is_stdlib("typing_extensions")
