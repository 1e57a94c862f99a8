"""Validate SARIF the tests produce: always against the SARIF 2.1.0 JSON schema, and with
Microsoft's SARIF multitool (schema plus GitHub's ingestion rules) where it is installed."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "tests" / "fixtures" / "sarif-schema-2.1.0.json"
# Where .ci/run installs the multitool (npm, into a folder git ignores).
CI_MULTITOOL = (
    REPO / ".ci" / "node" / "node_modules" / "@microsoft" / "sarif-multitool-linux"
    / "Sarif.Multitool"
)  # fmt: skip


@functools.cache
def _validator() -> Any:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def schema_errors(document: Any) -> list[str]:
    return [
        f"{error.json_path}: {error.message}"
        for error in sorted(_validator().iter_errors(document), key=str)
    ]


def valid_sarif(text: str) -> dict[str, Any]:
    """Parse SARIF text, fail the test if the schema rejects it, and return the document."""
    document = json.loads(text)
    problems = schema_errors(document)
    assert not problems, "\n".join(problems[:20])
    return document  # type: ignore[no-any-return]


def multitool() -> Path | None:
    """The multitool binary: INWARDS_SARIF_MULTITOOL, .ci/node, or Sarif.Multitool on PATH."""
    named = os.environ.get("INWARDS_SARIF_MULTITOOL")
    if named:
        return Path(named)
    if CI_MULTITOOL.is_file():
        return CI_MULTITOOL
    found = shutil.which("Sarif.Multitool")
    return Path(found) if found else None


def require_multitool() -> Path:
    tool = multitool()
    if tool is None:
        pytest.skip(
            "Microsoft's SARIF multitool is not installed (.ci/run installs it with npm into "
            ".ci/node; or set INWARDS_SARIF_MULTITOOL): GitHub's ingestion rules not checked"
        )
    return tool


def multitool_problems(tool: Path, logs: dict[str, str]) -> dict[str, list[str]]:
    """What `validate --rule-kind "Gh;Sarif" --level "Error;Warning"` reports on each log
    (name -> SARIF text), as one line per problem (rule id, region, message). All logs go
    to one run of the tool, which costs seconds to start. Its exit status is 0 whatever it
    finds, so its own SARIF output is read."""
    problems: dict[str, list[str]] = {name: [] for name in logs}
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for name, text in logs.items():
            path = Path(folder) / f"{name}.sarif"
            path.write_text(text, encoding="utf-8")
            paths.append(str(path))
        out = Path(folder) / "validation.json"
        environment = {**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1"}
        done = subprocess.run(
            [
                str(tool), "validate", *paths, "--rule-kind", "Gh;Sarif",
                "--level", "Error;Warning", "--output", str(out), "--log", "ForceOverwrite",
            ],
            capture_output=True, text=True, timeout=120, env=environment, check=False,
        )  # fmt: skip
        assert out.is_file(), f"the multitool wrote no log:\n{done.stdout}\n{done.stderr}"
        report = json.loads(out.read_text(encoding="utf-8-sig"))
    for run in report.get("runs", []):
        for notification in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
            if notification.get("level") == "error":
                raise AssertionError(f"the multitool failed: {notification['message']}")
        for result in run.get("results", []):
            location = result.get("locations", [{}])[0].get("physicalLocation", {})
            name = Path(location.get("artifactLocation", {}).get("uri", "?")).stem
            message = result.get("message", {})
            problems.setdefault(name, []).append(
                f"{result.get('ruleId')} {result.get('level', 'warning')} at "
                f"{location.get('region')}: {message.get('text') or message.get('arguments')}"
            )
    return problems
