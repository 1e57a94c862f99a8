"""docs/writing-a-family.md quotes the TIDY family; every quoted line must still be real."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "writing-a-family.md"
FAMILY = REPO / "tests" / "families" / "inwards-rules-tidy"
BLOCK = re.compile(r"^```(python|toml)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
CAPTION = re.compile(r"# [\w./-]+\.py\n")


def _family_lines() -> set[str]:
    lines: set[str] = set()
    for path in FAMILY.rglob("*"):
        parts = path.relative_to(FAMILY).parts
        if path.suffix in (".py", ".toml") and not {"build", "docs"} & set(parts):
            lines.update(line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return lines


def _quoted_lines() -> list[str]:
    quoted: list[str] = []
    for _language, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8")):
        for line in body.splitlines():
            text = line.strip()
            # Elisions and the file-name captions the guide puts above a quote.
            if not text or text == "..." or re.fullmatch(r"# [\w./-]+\.(py|toml)", text):
                continue
            quoted.append(text)
    return quoted


def test_the_guide_quotes_real_code() -> None:
    quoted = _quoted_lines()
    assert len(quoted) > 100  # the guide has its quotes, and the pattern finds them
    family = _family_lines()
    assert [line for line in quoted if line not in family] == []


def test_the_check_catches_a_made_up_line() -> None:
    assert "yield Violation(file=info.file, message='made up')" not in _family_lines()


def _whole_files() -> list[str]:
    """The Python quotes that stand for a file (a `# path.py` caption, no `...` elision):
    copied as they are, they must import what they use."""
    return [
        body
        for language, body in BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
        if language == "python"
        and CAPTION.match(body)
        and "..." not in (line.strip() for line in body.splitlines())
    ]


def _undefined_names(source: str) -> str:
    ruff = Path(sys.executable).parent / "ruff"
    options = ["--isolated", "--select", "F821", "--output-format", "concise"]
    done = subprocess.run(
        [str(ruff), "check", *options, "--stdin-filename", "quote.py", "-"],
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done.stdout if done.returncode else ""


@pytest.mark.parametrize("body", _whole_files(), ids=lambda body: body.split("\n", 1)[0][2:])
def test_a_quoted_file_imports_what_it_uses(body: str) -> None:
    assert _undefined_names(body) == ""


def test_the_import_check_catches_a_missing_import() -> None:
    assert len(_whole_files()) >= 2  # plugin.py and __init__.py
    assert "F821 Undefined name `Sequence`" in _undefined_names("x: Sequence[int] = []\n")
