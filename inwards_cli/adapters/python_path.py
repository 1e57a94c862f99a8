"""Which entries of `sys.path` hold installed code, and not the checked project's.

`python -m inwards_cli` puts the working directory first on `sys.path` (so do `python -c`
and a script beside the project), and a checkout holding `evil-1.0.dist-info/
entry_points.txt` and `evil.py` would otherwise have its plugin found and run, or a module
named like one inwards imports stand in for it. Nothing here imports more than `os`, `sys`
and `site`: `main` calls `forget_working_directory` before anything else.
"""

from __future__ import annotations

import os
import site
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def _real(path: str) -> str:
    return os.path.realpath(path or os.curdir)


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _site_directories() -> set[str]:
    # `site` computes these from sys.prefix; `sysconfig` would say the same and costs 1 ms.
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return {_real(folder) for folder in folders if folder}


def installed_paths(project_dir: Path | None = None) -> list[str]:
    """The entries of `sys.path` that hold installed code: not the working directory
    (`''`, or its path, as `python -m` and `python -c` add it), nor anything inside the
    checked project, but the interpreter's site-packages wherever they are."""
    site_directories = _site_directories()
    excluded = [_real(os.curdir)]
    if project_dir is not None:
        excluded.append(_real(str(project_dir)))
    kept: list[str] = []
    for entry in sys.path:
        real = _real(entry)
        if real in site_directories or not any(_inside(real, top) for top in excluded):
            kept.append(entry)
    return kept


def forget_working_directory() -> None:
    """Take the working directory off `sys.path` (where `python -m inwards_cli` puts it), so
    that no module of the checked project can stand in for one inwards imports later (a
    plugin, libcst). Kept when inwards itself runs from there (a source checkout)."""
    here = _real(os.curdir)
    ours = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))  # holds inwards_cli
    if ours == here:
        return
    sys.path[:] = [entry for entry in sys.path if _real(entry) != here]
