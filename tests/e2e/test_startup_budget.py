"""The start-up budget of `inwards check FILE`, the command an editor or a hook runs after
every edit: what it must not import. Each entry is a library or a module of ours that a
plain text-format check never uses and that costs milliseconds to import (measured with
`python bench/startup.py`); the time itself is measured in `bench/`, never here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.helpers import NO_USER_CONFIG, write_tree

PROJECT = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        'root = "src"\n'
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "adapters", modules = ["shop.adapters"] },\n'
        "]\n"
    ),
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "from shop.adapters import db\n",
    "src/shop/adapters/__init__.py": "",
    "src/shop/adapters/db.py": "import json\n",
}

# Libraries and modules the one-file text check must leave alone, with what they cost.
NOT_ON_THE_FAST_PATH = {
    "typer": "the CLI framework: every other command pays for it",
    "click": "typer's parser",
    "rich": "typer's help formatting",
    "pydantic": "typer 0.29's parameter adapters",
    "tomlkit": "TOML editing (rules shadow, baseline), not reading",
    "libcst": "the parser of files CPython's parser can't read, in a worker",
    "sarif_om": "the SARIF format",
    "secrets": "random, hmac and base64 for a temp-file name",
    "importlib.resources": "tempfile, shutil and zipfile to list a package folder",
    "concurrent.futures": "the pool used only where fork is missing",
    "inwards_core.reporting.sarif": "the SARIF format",
    "inwards_core.reporting.json": "the JSON format",
    "inwards_core.reporting.github": "the github format",
    "inwards_core.authoring": "rule documentation and schemas",
    "inwards_cli.typer_app": "the typer application",
    "inwards_cli.adapters.workers": "the supervised workers of a whole-project run",
    "inwards_cli.commands.cache_verification": "the message of --verify-cache",
    "inwards_core.baseline.reading": "parsing a baseline, where there is one",
    "inwards_core.baseline.matching": "applying a baseline, where there is one",
    "inwards_core.model.content_facts": "the content records of the opt-in content rules",
    "inwards_core.extraction.content": "reading content facts, for the opt-in content rules",
    "inwards_core.families.inw.content.content_names": "names as the content rules resolve them",
    "inwards_core.families.inw.content.endpoints": "INW012's endpoint recognisers",
    "inwards_core.families.inw.content.endpoint_work": "INW012's measure of an endpoint",
    "inwards_core.families.inw.content.blocking_families": "INW013's tables of blocking calls",
    "inwards_core.families.inw.orm.english_words": "INW016's plural heuristic",
    "inwards_core.diagrams.mermaid": "the Mermaid reader of the diagram rules",
    "inwards_core.diagrams.plantuml": "the PlantUML reader of the diagram rules",
    "inwards_core.extraction.documents": "reading the files `diagrams` names",
    "inwards_cli.workspace": "the members of a uv workspace (only where there is one)",
    "inwards_cli.commands.check.workspace": "the check at a uv workspace root",
    "inwards_core.reporting.merge": "merging a workspace's reports",
}

# What only a check with the cache uses: a check with --no-cache imports none of it.
NOT_WITHOUT_THE_CACHE = {
    "inwards_cli.adapters.disk_cache": "the extraction pack's reader and writer",
    "inwards_cli.adapters.pack_entries": "the extraction pack's entries",
    "inwards_cli.adapters.rule_manifest": "the parsed rule definitions kept in the cache",
}


def imported_modules(
    *args: str,
    cwd: Path,
    stdin: str = "",
    env: dict[str, str] | None = None,
    expect: str = "inwards_cli.commands.check.run",
    codes: tuple[int, ...] = (0, 1),
) -> set[str]:
    """The modules a run of `python -X importtime -m inwards_cli ARGS` imported (`expect`
    among them, or the report was not read)."""
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "inwards_cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=stdin,
        env={
            "XDG_CONFIG_HOME": str(NO_USER_CONFIG),
            "PATH": "/usr/bin:/bin",
            "INWARDS_DAEMON": "0",
            **(env or {}),
        },
        timeout=120,
    )
    assert run.returncode in codes, run.stderr[-2000:]
    names = set()
    for line in run.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.add(name)
    assert expect in names, "the importtime report was not read"
    return names


@pytest.mark.parametrize("cache", [["--no-cache"], []], ids=["no-cache", "cache"])
def test_one_file_check_imports_nothing_it_does_not_use(tmp_path: Path, cache: list[str]) -> None:
    project = write_tree(tmp_path, PROJECT)
    imported = imported_modules("check", "src/shop/domain/order.py", *cache, cwd=project)
    budget = {**NOT_ON_THE_FAST_PATH, **(NOT_WITHOUT_THE_CACHE if cache else {})}
    found = {
        name: why
        for name, why in budget.items()
        if name in imported or any(module.startswith(name + ".") for module in imported)
    }
    assert not found, f"a one-file check imported: {found}"


def test_the_budget_can_fail(tmp_path: Path) -> None:
    """The same reading sees a module a format does import: the check above can fail."""
    project = write_tree(tmp_path, PROJECT)
    imported = imported_modules(
        "check", "src/shop/domain/order.py", "--no-cache", "--format", "json", cwd=project
    )
    assert "inwards_core.reporting.json" in imported


def test_the_agent_hook_imports_neither_typer_nor_the_cache(tmp_path: Path) -> None:
    """`inwards hook claude-code` runs on every edit of an agent: no typer, and no module of
    the extraction cache (the hooks never trust one)."""
    import json

    project = write_tree(tmp_path, PROJECT)
    payload = {
        "session_id": "s",
        "hook_event_name": "PostToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": str(project / "src/shop/domain/order.py")},
        "tool_use_id": "t",
    }
    imported = imported_modules(
        "hook",
        "claude-code",
        cwd=project,
        stdin=json.dumps(payload),
        env={"CLAUDE_PROJECT_DIR": str(project), "HOME": str(tmp_path)},
        expect="inwards_cli.agents.post_edit",
        codes=(2,),
    )
    budget = {**NOT_ON_THE_FAST_PATH, **NOT_WITHOUT_THE_CACHE}
    found = {
        name: why
        for name, why in budget.items()
        if name in imported or any(module.startswith(name + ".") for module in imported)
    }
    assert not found, f"a PostToolUse hook run imported: {found}"
