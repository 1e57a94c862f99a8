"""The daemon's identity: what makes a client take its daemon for another installation."""

from __future__ import annotations

import os
from pathlib import Path

from inwards_cli.daemon.place import _folder_stamps, identity


def _package(root: Path) -> Path:
    package = root / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "mod.py").write_text("A = 1\n")
    return package


def test_a_pycache_folder_appearing_is_no_new_installation(tmp_path: Path) -> None:
    """The first import of a module in a fresh checkout writes `__pycache__` beside it,
    which changes its folder's time: a daemon started before must still be the same one."""
    package = _package(tmp_path)
    before = _folder_stamps(str(package))
    (package / "sub" / "__pycache__").mkdir()
    (package / "sub" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\0")
    (package / "__pycache__").mkdir()
    assert _folder_stamps(str(package)) == before


def test_a_module_replaced_or_added_is_a_new_installation(tmp_path: Path) -> None:
    package = _package(tmp_path)
    before = _folder_stamps(str(package))
    # An editor's save (or a checkout): a new file renamed over the old one.
    replacement = package / "sub" / "mod.py.new"
    replacement.write_text("A = 2\n")
    os.replace(replacement, package / "sub" / "mod.py")
    replaced = _folder_stamps(str(package))
    assert replaced != before
    (package / "sub" / "other.py").write_text("")
    assert _folder_stamps(str(package)) != replaced


def test_the_identity_of_this_installation_is_stable() -> None:
    assert identity() == identity()
    assert len(identity()) == 32
