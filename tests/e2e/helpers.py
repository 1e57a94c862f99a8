"""Run the installed `inwards` as a subprocess, as a user would."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import jsonschema
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
    _validate_printed_document(done.stdout)
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


# -- JSON Schemas: every versioned document the suite makes inwards print is validated ----


@functools.cache
def schema_validator(name: str, *, strict: bool = True) -> jsonschema.protocols.Validator:
    """A validator for the schema `name` (see `inwards schema`), built from the code for the
    families shipped with inwards. `strict` closes every object of an output schema, so a
    field inwards writes but the schema doesn't describe fails the test."""
    from inwards_core.api import installed_families, load_rules
    from inwards_core.authoring.schemas import build_schema, closed_schema
    from inwards_core.version import DISTRIBUTION

    families = tuple(f for f in installed_families() if f.distribution == DISTRIBUTION)
    schema = build_schema(name, families, load_rules(families))
    if strict:
        schema = closed_schema(schema)
    validator_type = jsonschema.validators.validator_for(schema)
    validator_type.check_schema(schema)
    return validator_type(schema, format_checker=validator_type.FORMAT_CHECKER)


def schema_problems(instance: Any, name: str, *, strict: bool = True) -> list[str]:
    """What the schema `name` finds wrong with `instance`, one line per problem."""
    validator = schema_validator(name, strict=strict)
    problems = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: e.json_path):
        # "not valid under any of the given schemas" says little: name the causes in the
        # alternatives of the instance's own type.
        causes = [e for e in error.context or () if e.validator != "type"] or [error]
        problems += [f"{cause.json_path}: {cause.message}" for cause in causes]
    return problems


def assert_valid(instance: Any, name: str, *, strict: bool = True) -> None:
    problems = schema_problems(instance, name, strict=strict)
    assert not problems, f"not valid against the {name} schema:\n" + "\n".join(problems)


def assert_valid_output(document: Any) -> None:
    """Validate a document inwards printed against the schema its `schema` field names
    (`inwards/diagnostics@1`, `inwards/rules@1`, ...), in its strict form."""
    from inwards_core.authoring.schemas import schema_info

    assert isinstance(document, dict), f"not a JSON object: {document!r:.200}"
    info = schema_info(str(document.get("schema", "")))
    assert info is not None and info.document, f"no schema for {document.get('schema')!r}"
    assert_valid(document, info.name)


def _validate_printed_document(stdout: str) -> None:
    """`run_inwards` checks every versioned JSON document a command prints."""
    if not stdout.startswith("{"):
        return
    try:
        document = json.loads(stdout)
    except ValueError:
        return
    if isinstance(document, dict) and str(document.get("schema", "")).startswith("inwards/"):
        assert_valid_output(document)
