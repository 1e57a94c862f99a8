"""`.pre-commit-hooks.yaml`: the hooks are well formed and their entries run as pre-commit
would run them (the entry, then the staged file names when `pass_filenames` is on)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import yaml

from tests.e2e.helpers import REPO, run_inwards

# The keys pre-commit accepts in a hook definition (its manifest schema).
HOOK_KEYS = {
    "id", "name", "entry", "language", "alias", "files", "exclude", "types", "types_or",
    "exclude_types", "additional_dependencies", "args", "always_run", "fail_fast",
    "pass_filenames", "description", "language_version", "log_file", "minimum_pre_commit_version",
    "require_serial", "stages", "verbose",
}  # fmt: skip


def hooks() -> list[dict[str, Any]]:
    loaded = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, list)
    return loaded


def test_hooks_are_well_formed() -> None:
    found = hooks()
    assert [hook["id"] for hook in found] == ["inwards", "inwards-files"]
    for hook in found:
        assert set(hook) <= HOOK_KEYS, set(hook) - HOOK_KEYS
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert hook["language"] == "python"  # pre-commit pip-installs this repository
        assert shlex.split(hook["entry"])[0] == "inwards"


def test_each_hook_runs_like_pre_commit_runs_it(copy_example) -> None:  # type: ignore[no-untyped-def]
    project: Path = copy_example("shop-violations")
    staged = ["src/shop/domain/discounts.py", "src/shop/application/reports.py"]
    for hook in hooks():
        command = shlex.split(hook["entry"])[1:] + list(hook.get("args", []))
        if hook.get("pass_filenames", True):
            command += staged
        done = run_inwards(*command, cwd=project)
        assert done.code == 1, (hook["id"], done.stderr)
        lines = [line for line in done.stdout.split("\n") if ": INW" in line]
        files = {line.split(":", 1)[0] for line in lines}
        if hook.get("pass_filenames", True):
            assert files == set(staged), hook["id"]
        else:
            assert len(files) > 2 and "pyproject.toml" in files, hook["id"]
