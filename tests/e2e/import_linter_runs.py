"""Running import-linter's `lint-imports` and `inwards check` on the same tree, and what
each says per contract: the proof that `inwards import-config` converts exactly.

lint-imports prints one verdict line per contract (`<name> KEPT|BROKEN`) and, for a broken
one, its routes: `- importer -> imported (l.N, l.M)` lines, a head or tail that shares the
other side written as `& module (l.N)` under it, and a head line with no `->` whose imported
module is the next line's. `routes` turns each into (importer, imported, line).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from tests.e2e.helpers import run_inwards

# Where the bench keeps a lint-imports of its own (tests prefer the one installed beside
# this Python: the test extra installs import-linter).
_BENCH_LINT_IMPORTS = Path.home() / ".cache/inwards-bench/import-linter/bin/lint-imports"
_VERDICT = re.compile(r"^(?P<name>.+) (?P<verdict>KEPT|BROKEN)(?: \(\d+ ignored imports?\))?$")
_ROUTE_LINE = re.compile(
    r"^(?P<amp>&\s*)?(?P<importer>[\w.]+)(?:\s*->\s*(?P<imported>[\w.]+))?\s*\((?P<lines>[^)]*)\)$"
)


@attrs.frozen
class LintImports:
    code: int
    verdicts: dict[str, str]  # contract name -> "KEPT" | "BROKEN"
    routes: dict[str, frozenset[tuple[str, str, int]]]  # contract name -> imports
    pairs: dict[str, frozenset[tuple[str, str]]]  # contract name -> (importer, imported)
    output: str


def lint_imports_executable() -> str:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if found is None and _BENCH_LINT_IMPORTS.exists():
        found = str(_BENCH_LINT_IMPORTS)
    if found is None:
        pytest.skip("lint-imports is not installed (pip install -e '.[test]' installs it)")
    return found


def run_lint_imports(project: Path, pythonpath: str = ".") -> LintImports:
    # Which of several equally short chains lint-imports prints depends on the hash seed
    # (four runs of kedro without its ignores printed four different reports): pinned.
    environment = dict(
        os.environ, PYTHONPATH=str(project / pythonpath), NO_COLOR="1", PYTHONHASHSEED="0"
    )
    done = subprocess.run(
        [lint_imports_executable(), "--no-cache"],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = done.stdout + done.stderr
    return LintImports(done.returncode, verdicts(output), routes(output), pairs(output), output)


def verdicts(output: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in output.splitlines():
        match = _VERDICT.match(line.strip())
        if match and not line.startswith(" "):
            found.setdefault(match["name"], match["verdict"])
    return found


def routes(output: str) -> dict[str, frozenset[tuple[str, str, int]]]:
    """Every import each broken contract's routes list, by contract name."""
    section = output.split("Broken contracts", 1)[-1] if "Broken contracts" in output else ""
    lines = section.splitlines()
    found: dict[str, set[tuple[str, str, int]]] = {}
    contract = ""
    block: list[str] = []
    for number, line in enumerate(lines):
        underline = number + 1 < len(lines) and set(lines[number + 1].strip()) == {"-"}
        if underline and line.strip() and not line.startswith((" ", "-")):
            _take(block, found.setdefault(contract, set()))
            block = []
            contract = line.strip()
        elif line.lstrip().startswith("- ") or line.strip() == "-":
            _take(block, found.setdefault(contract, set()))
            block = [line.lstrip()[1:].strip()]
        elif block and line.strip():
            if line.strip().endswith("is not allowed to import") or "not allowed" in line:
                _take(block, found.setdefault(contract, set()))
                block = []
            else:
                block.append(line.strip())
        elif not line.strip():
            _take(block, found.setdefault(contract, set()))
            block = []
    _take(block, found.setdefault(contract, set()))
    return {name: frozenset(items) for name, items in found.items() if name and items}


_PAIR = re.compile(r"^(?P<importer>[\w.]+) is not allowed to import (?P<imported>[\w.]+):$")


def pairs(output: str) -> dict[str, frozenset[tuple[str, str]]]:
    """The (importer, imported) packages each broken contract names: deterministic, where
    the route printed under each depends on the hash seed."""
    section = output.split("Broken contracts", 1)[-1] if "Broken contracts" in output else ""
    lines = section.splitlines()
    found: dict[str, set[tuple[str, str]]] = {}
    contract = ""
    for number, line in enumerate(lines):
        underline = number + 1 < len(lines) and set(lines[number + 1].strip()) == {"-"}
        if underline and line.strip() and not line.startswith((" ", "-")):
            contract = line.strip()
        match = _PAIR.match(line.strip())
        if match and contract:
            found.setdefault(contract, set()).add((match["importer"], match["imported"]))
    return {name: frozenset(items) for name, items in found.items()}


def _take(block: list[str], into: set[tuple[str, str, int]]) -> None:
    pending: list[tuple[str, list[int]]] = []  # head importers waiting for their imported
    last_importer = ""
    for text in block:
        match = _ROUTE_LINE.match(text)
        if match is None:
            continue
        numbers = [int(n) for n in re.findall(r"l\.(\d+)", match["lines"])]
        importer, imported = match["importer"], match["imported"]
        if imported is not None:
            for head, head_lines in pending:
                into.update((head, imported, n) for n in head_lines)
            pending = []
            into.update((importer, imported, n) for n in numbers)
            last_importer = importer
        elif match["amp"] and last_importer and not pending:
            into.update((last_importer, importer, n) for n in numbers)  # a tail's sibling
        else:
            pending.append((importer, numbers))


@attrs.frozen
class InwardsCheck:
    code: int
    findings: tuple[dict[str, Any], ...]
    output: str

    def broken(self, code: str) -> bool:
        return any(f["code"] == code and f["severity"] == "error" for f in self.findings)

    def reports(self, code: str, importer_file: str, imported: str, line: int) -> bool:
        """Whether a finding of `code` shows the import of `imported` at `importer_file`
        line `line`: as its own location, or as a step of the chain it lists."""
        place = f"{importer_file}:{line}"
        for finding in self.findings:
            if finding["code"] != code:
                continue
            text = json.dumps(finding)
            at_location = finding["file"] == importer_file and finding["line"] == line
            if (at_location or place in text) and imported in text:
                return True
        return False


def covers(check: InwardsCheck, code: str, importer: str, imported: str) -> bool:
    """Whether a finding of `code` starts in `importer` (a package or module) and names a
    module of `imported`."""
    for finding in check.findings:
        module = str(finding.get("module", ""))
        inside = module == importer or module.startswith(importer + ".")
        if finding["code"] == code and inside and imported in json.dumps(finding):
            return True
    return False


def run_check(project: Path) -> InwardsCheck:
    done = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    try:
        document = json.loads(done.stdout)
    except json.JSONDecodeError:
        return InwardsCheck(done.code, (), done.stdout + done.stderr)
    return InwardsCheck(done.code, tuple(document["diagnostics"]), done.stdout + done.stderr)


def module_file(root: Path, module: str) -> str:
    """The file of `module` under `root`, relative to the project (`root`'s parent when
    `root` is `src`), as findings name it."""
    base = root / Path(*module.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate.relative_to(root.parent if root.name == "src" else root).as_posix()
    return f"{module.replace('.', '/')}.py"


def contract_codes(import_config_output: str) -> dict[str, str]:
    """Contract name -> rule code, from `inwards import-config`'s report lines."""
    pattern = r"^  (?P<code>IL\d{3}) (?P<name>'.*'|\".*\") \(.*\): converted"
    return {
        ast.literal_eval(m["name"]): m["code"]
        for m in re.finditer(pattern, import_config_output, re.MULTILINE)
    }


_CHAIN_STEP = re.compile(r"^(?P<importer>[\w.]+) -> (?P<imported>[\w.]+) \([^)]*\)$")


def forbidden_chains(output: str) -> dict[str, frozenset[tuple[str, ...]]]:
    """The chains lint-imports prints for each broken forbidden contract, each as the
    modules it goes through (`- a -> b (l.1)` then `b -> c (l.2)` under it: `(a, b, c)`)."""
    section = output.split("Broken contracts", 1)[-1] if "Broken contracts" in output else ""
    lines = section.splitlines()
    found: dict[str, set[tuple[str, ...]]] = {}
    contract = ""
    chain: list[str] = []

    def close() -> None:
        if contract and chain:
            found.setdefault(contract, set()).add(tuple(chain))
        chain.clear()

    for number, line in enumerate(lines):
        underline = number + 1 < len(lines) and set(lines[number + 1].strip()) == {"-"}
        if underline and line.strip() and not line.startswith((" ", "-")):
            close()
            contract = line.strip()
            continue
        text = line.strip()
        if text.startswith("- "):
            close()
            text = text[2:].strip()
        match = _CHAIN_STEP.match(text)
        if match is None:
            close()
        elif not chain:
            chain.extend((match["importer"], match["imported"]))
        else:
            chain.append(match["imported"])
    close()
    return {name: frozenset(items) for name, items in found.items()}


_OUR_CHAIN = re.compile(r"(?:[\w.]+ \([^()]*\) -> )+\w+(?:\.\w+)*")
_OUR_DIRECT = re.compile(r'^"(?P<importer>[\w.]+)" imports "(?P<imported>[\w.]+)"')


def our_chains(check: InwardsCheck, code: str) -> frozenset[tuple[str, ...]]:
    """The chains the findings of `code` name, as `forbidden_chains` gives lint-imports':
    a direct import as `(importer, imported)`, a chain finding's chain and other routes
    each as the modules they go through."""
    found: set[tuple[str, ...]] = set()
    for finding in check.findings:
        if finding["code"] != code:
            continue
        message = str(finding["message"])
        if "Chain: " in message:
            for text in _OUR_CHAIN.findall(message.split("Chain: ", 1)[1]):
                found.add(tuple(re.sub(r" \([^()]*\)", "", text).split(" -> ")))
        elif direct := _OUR_DIRECT.match(message):
            found.add((direct["importer"], direct["imported"]))
    return frozenset(found)
