"""Rule roots reached through a place that can't be looked into (a link to `/proc/1/cwd`,
which only its own process may resolve): the root is reported unreadable, as the same link
in the source tree is, never an internal error. The project root's problem is a
configuration error (exit 2), the user and org roots' a warning (the check goes on)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hostile.harness import LAYERED_CONFIG, Budget, run_limited

QUICK = Budget(seconds=15, memory_mb=2048)
SHUT = "/proc/1/cwd"


def _unresolvable() -> bool:
    try:
        os.path.realpath(SHUT, strict=True)
    except PermissionError:
        return True
    except OSError:
        return False
    return False


pytestmark = pytest.mark.skipif(
    not _unresolvable(), reason=f"{SHUT} can be resolved here, so it shuts nothing out"
)


def _project(root: Path) -> Path:
    for layer in ("domain", "adapters"):
        (root / "src" / "shop" / layer).mkdir(parents=True)
        (root / "src" / "shop" / layer / "__init__.py").write_text("")
    (root / "pyproject.toml").write_text(LAYERED_CONFIG)
    (root / "src" / "shop" / "__init__.py").write_text("")
    return root


def test_a_project_rule_link_that_cant_be_resolved_is_a_config_error(tmp_path: Path) -> None:
    project = _project(tmp_path / "shop-project")
    (project / ".inwards" / "rules").mkdir(parents=True)
    (project / ".inwards" / "rules" / "elsewhere").symlink_to(SHUT)
    run = run_limited("check", cwd=project, budget=QUICK)
    assert run.code == 2, run.output
    assert ".inwards/rules/elsewhere: can't be read: permission denied." in run.stderr
    assert "internal error" not in run.output


@pytest.mark.parametrize("root", ["user", "org"])
def test_a_user_or_org_root_that_cant_be_resolved_is_a_warning(tmp_path: Path, root: str) -> None:
    project = _project(tmp_path / "shop-project")
    environment: dict[str, str] = {}
    if root == "user":
        config_home = tmp_path / "config"
        (config_home / "inwards").mkdir(parents=True)
        (config_home / "inwards" / "rules").symlink_to(SHUT)
        environment["XDG_CONFIG_HOME"] = str(config_home)
    else:
        link = tmp_path / "org-rules"
        link.symlink_to(SHUT)
        environment["INWARDS_ORG_RULES_DIR"] = str(link)
    run = run_limited("check", cwd=project, budget=QUICK, env=environment)
    assert run.code == 0, run.output
    assert "can't be read: permission denied" in run.stderr
    assert "internal error" not in run.output
