"""The README's "Install into your project", followed as a user would: a wheel built from this
tree, installed into a fresh virtualenv by the README's own commands (with `--no-index
--find-links` in place of the package index), then `inwards` run on a small project. A rule
family that requires inwards by its distribution name installs beside it without fetching
anything: the name resolves to this inwards, not to the product that owns `inwards` on PyPI.

The dependencies' wheels come from `.ci/wheels`, which `.ci/run` fills (`pip download --dest
.ci/wheels . "setuptools>=77"`); without it the test is skipped, saying so."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inwards_core.version import DISTRIBUTION, VERSION
from tests.e2e.helpers import NO_USER_CONFIG, REPO, write_tree

pytestmark = pytest.mark.slow  # about 20 to 40 s: a virtualenv, two builds, two installs

WHEELS = REPO / ".ci" / "wheels"
TIDY = REPO / "tests" / "families" / "inwards-rules-tidy"
# What the wheel is built from: the files pyproject.toml packages, and nothing the tests or
# other runs leave in the working tree.
SOURCES = ("pyproject.toml", "README.md", "inwards_core", "inwards_cli", "inwards_rules_fastapi")

PROJECT = {
    "pyproject.toml": (
        "[project]\nname = 'shop'\nversion = '1.0'\n\n"
        "[tool.inwards]\n"
        f'required-version = "{VERSION}"\n'
        'root = "src"\n'
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "application", modules = ["shop.application"] },\n'
        "]\n"
    ),
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "from shop.application.service import place\n",
    "src/shop/application/__init__.py": "",
    "src/shop/application/service.py": "def place() -> None: ...\n",
}


def install_commands() -> list[str]:
    """The console block of the README's section "Install into your project"."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Install into your project", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S)
    assert block is not None, "the README's install section has no console block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def run(command: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith(("INWARDS_", "PIP_", "PYTHON"))
    }
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    environment["PIP_CONFIG_FILE"] = os.devnull  # the machine's index and links play no part
    return subprocess.run(
        command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=timeout
    )


def build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    dist = tmp_path / "dist"
    offline = ["--no-index", "--find-links", str(WHEELS)]
    done = run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *offline, "-w", str(dist), "."],
        cwd=source,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = dist.glob("*.whl")
    assert wheel.name == f"{DISTRIBUTION.replace('-', '_')}-{VERSION}-py3-none-any.whl"
    return dist


@pytest.mark.skipif(
    not WHEELS.is_dir(),
    reason="no dependency wheels in .ci/wheels: bash .ci/run fills it "
    '(pip download --dest .ci/wheels . "setuptools>=77")',
)
def test_the_readme_install_section_works_from_a_built_wheel(tmp_path: Path) -> None:
    dist = build_wheel(tmp_path)
    project = write_tree(tmp_path / "project", PROJECT)
    offline = ["--no-index", "--find-links", str(dist), "--find-links", str(WHEELS)]
    outputs: dict[str, str] = {}  # what each `inwards ...` line printed, by its last word
    for line in install_commands():
        command = shlex.split(line)
        if command[0] == "python3":
            command[0] = sys.executable  # the interpreter running the tests: 3.11 or newer
        if command[1:4] == ["-m", "pip", "install"]:
            command += offline
        done = run(command, cwd=project)
        expected = 1 if command[-1] == "check" else 0  # the project breaks its layers once
        assert done.returncode == expected, (line, done.stdout, done.stderr)
        if command[0].endswith("/inwards"):
            outputs[command[-1]] = done.stdout

    assert outputs["--version"] == f"inwards {VERSION}\n"
    report = outputs["check"]
    assert "src/shop/domain/order.py:1:" in report and "INW001" in report
    assert "docs: inwards rule INW001" in report

    venv = project / ".venv"
    # The distribution is inwards-lint, with the inwards command and the INW family.
    metadata = run([str(venv / "bin/python"), "-m", "pip", "show", DISTRIBUTION], cwd=project)
    assert metadata.returncode == 0 and f"Version: {VERSION}" in metadata.stdout
    # A family requiring "inwards-lint>=0.1" installs beside it, and nothing else is fetched.
    family = run(
        [str(venv / "bin/python"), "-m", "pip", "install", *offline, str(TIDY)], cwd=project
    )
    assert family.returncode == 0, family.stderr
    listed = run([str(venv / "bin/python"), "-m", "pip", "list"], cwd=project).stdout
    assert re.search(r"^inwards-lint\s", listed, flags=re.M)
    assert not re.search(r"^inwards\s", listed, flags=re.M)  # the other product never came
    rules = run([str(venv / "bin/inwards"), "rules"], cwd=project)
    assert rules.returncode == 0, rules.stderr
    assert "TIDY001" in rules.stdout and "core (tidy)" in rules.stdout
    assert "core (inw)" in rules.stdout
    # The FastAPI family ships in the same wheel, found through its entry point.
    assert "FAPI001" in rules.stdout and "core (fapi)" in rules.stdout
