"""INW005's default deny list is printed by `inwards rule INW005` and on its page, from the
same tuple the check uses."""

from __future__ import annotations

from pathlib import Path

from inwards_core.families.inw.layering.inw005_pure_domain import DEFAULT_DENY
from tests.e2e.helpers import REPO, run_inwards


def test_rule_inw005_lists_the_default_deny_list(tmp_path: Path) -> None:
    done = run_inwards("rule", "INW005", cwd=tmp_path)
    assert done.code == 0, done.stderr
    for name in DEFAULT_DENY:
        assert f"`{name}`" in done.stdout
    page = (REPO / "docs" / "rules" / "INW005.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in page for name in DEFAULT_DENY)
