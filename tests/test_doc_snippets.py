"""Every Python, TOML and shell snippet of README.md and docs/*.md runs, from a folder holding
a copy of the repository's `examples/` (as the README's commands run from its root).

- A ```python block runs as a script (from the folder, or from the one a
  `<!-- run in examples/shop -->` line above its fence names) and must exit 0; when the next block is a ```text block
  marked `<!-- output -->` on the line above its fence, what the script prints must be that
  text, exactly.
- A ```toml block holding `[tool.inwards]` becomes the pyproject.toml of a copy of
  examples/shop-violations, a rule definition (`code = ...`) or an overlay of one
  (`overlays = ...` or an `[overlay]` table naming its `code`, without a `code` of its own)
  a file of its `.inwards/rules/` named after the rule; `inwards check` must then run (exit 0
  or 1: never a configuration error).
- A ```console / ```sh block runs line by line in a copy of examples/shop-violations (a line
  after a `$ ` prompt line that has none is output, and skipped); each command must exit 0,
  or 1 for `inwards check`.
- A block that only illustrates (a quoted part of a file, a fragment, a command that needs
  the network) says so on the line above its fence: `<!-- illustrative: why -->`. README.md
  has none of its own; the README blocks that other tests run are listed in
  `README_ELSEWHERE` with the test that runs them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import attrs
import pytest

from tests.e2e.helpers import EXAMPLES, NO_USER_CONFIG, REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
RUN = ("python", "toml", "console", "sh", "shell", "bash")
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
ILLUSTRATIVE = re.compile(r"<!--\s*illustrative\b")
OUTPUT = re.compile(r"<!--\s*output\s*-->")
RUN_IN = re.compile(r"<!--\s*run in (\S+)\s*-->")

# README blocks outside its library section that another test runs (README.md is edited by
# several hands; these are matched by their first line).
README_ELSEWHERE = {
    "python3 -m venv .venv && .venv/bin/pip install": "the test suite itself, and "
    "tests/e2e/test_check_examples.py for its `inwards check --config ...`",
    "python3 -m venv .venv": "tests/e2e/test_install_from_wheel.py",
    "inwards check [PATHS...]": "a usage synopsis: tests/e2e/test_check_arguments.py",
    "from shop.infrastructure import db  # inwards: ignore": "a line of project code: "
    "the suppression tests (tests/e2e/test_formats.py and docs/rules/INW009.md)",
}


@attrs.frozen
class Block:
    page: str
    line: int
    language: str
    text: str
    illustrative: bool
    output: str | None = None
    run_in: str = "."

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks() -> list[Block]:
    found: list[Block] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        matches = list(FENCE.finditer(text))
        for index, match in enumerate(matches):
            language = match.group(1)
            if language not in RUN:
                continue
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            output = None
            if language == "python" and index + 1 < len(matches):
                following = matches[index + 1]
                between = text[match.end() : following.start()]
                if following.group(1) == "text" and OUTPUT.search(between):
                    output = following.group(2)
            found.append(
                Block(
                    str(page.relative_to(REPO)),
                    text[: match.start()].count("\n") + 1,
                    language,
                    match.group(2),
                    bool(ILLUSTRATIVE.search(before)),
                    output,
                    run_in.group(1) if (run_in := RUN_IN.search(before)) else ".",
                )
            )
    return found


BLOCKS = blocks()


def elsewhere(block: Block) -> str | None:
    if block.page != "README.md":
        return None
    first = block.text.lstrip().split("\n", 1)[0]
    return next((why for start, why in README_ELSEWHERE.items() if first.startswith(start)), None)


RUNNABLE = [b for b in BLOCKS if not b.illustrative and elsewhere(b) is None]


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    env["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["INWARDS_NO_CACHE"] = "1"
    return env


def sandbox(tmp_path: Path) -> Path:
    """A folder holding a copy of examples/, without any cache a manual run left."""
    shutil.copytree(EXAMPLES, tmp_path / "examples", ignore=shutil.ignore_patterns("cache"))
    return tmp_path


def run(command: list[str] | str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        shell=isinstance(command, str),
    )


def test_the_pages_have_runnable_snippets() -> None:
    readme = [b for b in BLOCKS if b.page == "README.md"]
    assert not [b.id for b in readme if b.illustrative], "README snippets must all run"
    assert any(b.output is not None for b in readme)
    assert any(b.page == "docs/library.md" for b in RUNNABLE)
    for block in BLOCKS:
        if block.illustrative:
            continue
        assert block.language != "toml" or _toml_kind(block.text), (
            f"{block.id}: a TOML block that is neither a configuration nor a rule definition "
            f"must be marked <!-- illustrative: why -->"
        )


def test_an_overlay_block_is_a_file_named_after_its_rule() -> None:
    assert _rule_code(tomllib.loads('overlays = "INW014"\nseverity = "warning"')) == "INW014"
    assert _rule_code(tomllib.loads('severity = "warning"\n[overlay]\ncode = "INW014"')) == "INW014"
    assert _rule_code(tomllib.loads('code = "ACME001"\nname = "a"')) == "ACME001"
    assert not _rule_code(tomllib.loads('[project]\nname = "a"'))


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_snippet_runs(block: Block, tmp_path: Path) -> None:
    folder = sandbox(tmp_path)
    if block.language == "python":
        done = run([sys.executable, "-c", block.text], folder / block.run_in)
        assert done.returncode == 0, done.stderr
        if block.output is not None:
            assert done.stdout == block.output
    elif block.language == "toml":
        _run_toml(block, folder / "examples" / "shop-violations")
    else:
        _run_shell(block, folder / "examples" / "shop-violations")


def _toml_kind(text: str) -> str:
    data = tomllib.loads(text)
    if "inwards" in data.get("tool", {}):
        return "config"
    return "definition" if _rule_code(data) else ""


def _rule_code(data: dict[str, object]) -> str:
    """The code a definition or an overlay is about: its file is `<code>.toml`."""
    overlay = data.get("overlay")
    for code in (
        data.get("code"),
        data.get("overlays"),
        overlay.get("code") if isinstance(overlay, dict) else None,
    ):
        if isinstance(code, str) and code:
            return code
    return ""


def _run_toml(block: Block, project: Path) -> None:
    if _toml_kind(block.text) == "config":
        (project / "pyproject.toml").write_text(block.text, encoding="utf-8")
    else:
        rules = project / ".inwards" / "rules"
        rules.mkdir(parents=True, exist_ok=True)
        (rules / f"{_rule_code(tomllib.loads(block.text))}.toml").write_text(block.text, "utf-8")
    done = run(["inwards", "check"], project)
    assert done.returncode in (0, 1), done.stderr


def _run_shell(block: Block, project: Path) -> None:
    lines = block.text.splitlines()
    prompted = any(line.startswith("$ ") for line in lines)
    for line in lines:
        if prompted and not line.startswith("$ "):
            continue  # output shown after the command
        command = line.removeprefix("$ ").strip()
        if not command or command.startswith("#"):
            continue
        done = run(command, project)
        allowed = (0, 1) if re.match(r"inwards check\b", command) else (0,)
        assert done.returncode in allowed, f"{command}: {done.stderr}"
