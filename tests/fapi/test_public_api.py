"""The FAPI family is written as a third party would write one: every import of inwards_core
in `inwards_rules_fastapi` names the public API (`inwards_core.__all__`), and the
repository's own project rule HOUSE003 (with the `fapi` room of its [tool.inwards]) catches
an import of the core's rooms, the INW family or the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree
from tests.families.test_public_api_only import private_imports
from tests.test_house_rules import rooms

REPO = Path(__file__).resolve().parents[2]
FAPI = REPO / "inwards_rules_fastapi"


def test_fapi_uses_only_the_public_api() -> None:
    assert private_imports(FAPI, "inwards_rules_fastapi") == []


def test_the_house_rule_catches_a_private_import(tmp_path: Path) -> None:
    shutil.copy(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(REPO / ".inwards" / "rules", tmp_path / ".inwards" / "rules")
    tree: dict[str, str | bytes] = {}
    for prefix in rooms():
        tree[prefix.replace(".", "/") + "/__init__.py"] = ""
    tree["inwards_rules_fastapi/graph.py"] = (
        "from inwards_core import Family\n"  # the public API: fine
        "from inwards_core.rules import kinds\n"  # a room of the core
        "import inwards_cli\n"  # the CLI, an outer room
    )
    tree["inwards_core/families/__init__.py"] = "import inwards_rules_fastapi\n"  # a sibling
    write_tree(tmp_path, tree)
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=tmp_path)
    assert run.code == 1, run.stdout + run.stderr
    found = sorted(
        (line.split(":")[0], line.split(":")[1], line.split(": ")[1].split()[0])
        for line in run.stdout.splitlines()
        if ": INW" in line or ": HOUSE" in line
    )
    assert found == [
        ("inwards_core/families/__init__.py", "1", "INW001"),
        ("inwards_rules_fastapi/graph.py", "2", "HOUSE003"),
        ("inwards_rules_fastapi/graph.py", "3", "HOUSE003"),
        ("inwards_rules_fastapi/graph.py", "3", "INW001"),
    ], run.stdout


def test_status_counts_each_family_of_one_distribution_apart(tmp_path: Path) -> None:
    """INW and FAPI both ship in inwards-lint: `inwards status` counts each family's own
    core rules, not its distribution's."""
    import json

    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[tool.inwards]\nlayers = [{ name = "a", modules = ["a"] }]\n',
            "a/__init__.py": "",
        },
    )
    run = run_inwards("status", "--json", cwd=tmp_path)
    families = {f["prefix"]: f for f in json.loads(run.stdout)["families"]}
    assert families["FAPI"]["rules"] == len(list((FAPI / "definitions").glob("FAPI*.toml")))
    inw = REPO / "inwards_core" / "families" / "inw" / "definitions"
    assert families["INW"]["rules"] == len(list(inw.glob("INW*.toml")))
