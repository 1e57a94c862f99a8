"""Workspace discovery (`inwards_cli/workspace.py`): members as uv finds them, the nearest
configuration of a path, what one configuration sees of the other members."""

from __future__ import annotations

from pathlib import Path

import pytest

from inwards_cli.workspace import (
    Member,
    Workspace,
    WorkspaceError,
    find_workspace,
    foreign_packages,
    nearest_config,
)
from inwards_cli.workspace_root import view_for_config
from tests.e2e.helpers import write_tree

TABLE = '[tool.inwards]\nroot = "src"\nlayers = [{ name = "a", modules = ["acme"] }]\n'


def workspace_of(root: Path, members: str, exclude: str = "") -> Workspace:
    text = f"[tool.uv.workspace]\nmembers = {members}\n"
    if exclude:
        text += f"exclude = {exclude}\n"
    (root / "pyproject.toml").write_text(text)
    found = find_workspace(root)
    assert found is not None
    return found


def relatives(workspace: Workspace) -> list[str]:
    return [member.relative for member in workspace.members]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write_tree(
        tmp_path,
        {
            "packages/core/pyproject.toml": TABLE,
            "packages/api/pyproject.toml": TABLE,
            "packages/a1/pyproject.toml": "[project]\n",
            "packages/notes/README.md": "no pyproject here\n",
            "libs/deep/x/pyproject.toml": "[project]\n",
            "libs/deep/x/inner/pyproject.toml": TABLE,
        },
    )
    return tmp_path


def test_star_stays_within_one_segment_and_needs_a_pyproject(tree: Path) -> None:
    assert relatives(workspace_of(tree, '["packages/*"]')) == [
        "packages/a1",
        "packages/api",
        "packages/core",
    ]
    assert relatives(workspace_of(tree, '["*"]')) == []


def test_double_star_question_mark_and_classes(tree: Path) -> None:
    assert relatives(workspace_of(tree, '["libs/**"]')) == ["libs/deep/x", "libs/deep/x/inner"]
    assert relatives(workspace_of(tree, '["packages/a?"]')) == ["packages/a1"]
    assert relatives(workspace_of(tree, '["packages/[c]*"]')) == ["packages/core"]
    assert relatives(workspace_of(tree, '["./packages/core/"]')) == ["packages/core"]


def test_exclude_takes_members_out(tree: Path) -> None:
    workspace = workspace_of(tree, '["packages/*"]', '["packages/a*"]')
    assert relatives(workspace) == ["packages/core"]


def test_the_table_and_the_source_root_of_each_member(tree: Path) -> None:
    (tree / "packages/a1/src").mkdir()
    members = {m.relative: m for m in workspace_of(tree, '["packages/*"]').members}
    assert members["packages/core"].has_table
    assert members["packages/core"].source_root == tree / "packages/core/src"
    assert not members["packages/a1"].has_table
    assert members["packages/a1"].source_root == tree / "packages/a1/src"


@pytest.mark.parametrize(
    ("members", "problem"),
    [
        ('"packages/*"', "must be an array of strings"),
        ("[1]", "must be an array of strings"),
        ('["/abs/*"]', "an absolute path"),
    ],
)
def test_unusable_members_are_errors_naming_the_key(
    tmp_path: Path, members: str, problem: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.uv.workspace]\nmembers = {members}\n")
    with pytest.raises(WorkspaceError, match=problem) as caught:
        find_workspace(tmp_path)
    assert "tool.uv.workspace.members" in str(caught.value)


def test_the_nearest_config_is_the_deepest_member(tree: Path) -> None:
    workspace = workspace_of(tree, '["libs/**", "packages/*"]')
    inner = tree / "libs/deep/x/inner/mod.py"
    owner = nearest_config(workspace, inner)
    assert isinstance(owner, Member) and owner.relative == "libs/deep/x/inner"
    assert nearest_config(workspace, tree / "libs/deep/y.py") is workspace
    assert nearest_config(workspace, tree.parent) is None
    assert workspace.members_inside(tree / "libs/deep/x") == ("inner",)


def test_other_members_packages_and_shared_namespace_portions(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "packages/core/pyproject.toml": TABLE,
            "packages/core/src/acme/core/__init__.py": "",
            "packages/core/src/acme_tools.py": "",
            "packages/api/pyproject.toml": TABLE,
            "packages/api/src/acme/api/__init__.py": "",
            ".venv/pyvenv.cfg": "",
            ".venv/lib/python3.11/site-packages/acme/billing/__init__.py": "",
            ".venv/lib/python3.11/site-packages/acme/api/__init__.py": "",
            ".venv/lib/python3.11/site-packages/requests/__init__.py": "",
        },
    )
    workspace = workspace_of(tmp_path, '["packages/*"]')
    packages, portions = foreign_packages(workspace, tmp_path / "packages/api/src")
    assert packages == ("acme.core", "acme_tools")
    assert portions == ("acme.billing",)  # acme.api is this project's; requests no portion


def test_a_check_of_one_member_sees_the_workspace(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "packages/core/pyproject.toml": TABLE,
            "packages/core/src/acme/core/__init__.py": "",
            "packages/api/pyproject.toml": TABLE,
            "packages/api/src/acme/api/__init__.py": "",
            "elsewhere/pyproject.toml": TABLE,
        },
    )
    workspace_of(tmp_path, '["packages/*"]')
    view = view_for_config(tmp_path / "packages/api/pyproject.toml")
    assert view is not None and view.workspace_packages == ("acme.core",)
    root_view = view_for_config(tmp_path / "pyproject.toml")
    assert root_view is not None and root_view.excluded == ("packages/api", "packages/core")
    assert view_for_config(tmp_path / "elsewhere/pyproject.toml") is None
