"""Run the installed `inwards` as a subprocess, as a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import attrs
import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
NO_USER_CONFIG = REPO / "tests" / "fixtures" / "no-user-config"  # never created


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
    *args: str, cwd: Path, env: Mapping[str, str] | None = None, timeout: float = 120
) -> Run:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    # Hermetic by default: the developer's own ~/.config/inwards/rules never leaks in.
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    environment.update(env or {})
    done = subprocess.run(
        [*inwards_executable(), *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root
