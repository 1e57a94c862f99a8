"""Taking the working directory off `sys.path`, first thing, so that the checked project
can't stand in for code inwards imports.

`python -m inwards_cli` puts the working directory first on `sys.path` (so do `python -c`
and a script beside the project), and a checkout holding a module named like one inwards
imports later (a plugin, libcst) would otherwise be imported in its place. Rule families
are looked for only in the installed environment anyway (`installed_paths` in
`inwards_core.adapters.entry_points`). Nothing here imports more than `os` and `sys`:
`main` calls `forget_working_directory` before anything else.
"""

from __future__ import annotations

import os
import sys


def _real(path: str) -> str:
    return os.path.realpath(path or os.curdir)


def forget_working_directory() -> None:
    """Take the working directory off `sys.path` (where `python -m inwards_cli` puts it), so
    that no module of the checked project can stand in for one inwards imports later (a
    plugin, libcst). Kept when inwards itself runs from there (a source checkout)."""
    here = _real(os.curdir)
    # inwards_cli/adapters/python_path.py: three levels up is the folder holding inwards_cli.
    ours = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    if ours == here:
        return
    sys.path[:] = [entry for entry in sys.path if _real(entry) != here]
