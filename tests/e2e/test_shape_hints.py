"""A shape's `hints` written as a list of sentences, through the installed `inwards`: each a
step of the INW007 fix, as written; from a template too; a bad entry is exit 2 at its line,
column and key; the pyproject schema takes both forms."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

CONFIG = """\
[tool.inwards]
layers = [{ name = "domain", modules = ["shop.domain"] }]

[[tool.inwards.shape]]
packages = ["shop.domain"]
allow = ["order.py"]
hints = ["Value objects go into order.py.", "helpers -> order", '{member} %s {0} \\1']
"""
FILES = {
    "pyproject.toml": CONFIG,
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": "",
    "shop/domain/helpers.py": "",
}


def _fix(stdout: str) -> dict[str, object]:
    diagnostics = json.loads(stdout)["diagnostics"]
    (finding,) = [f for f in diagnostics if f["code"] == "INW007"]
    fix = finding["fix"]
    assert isinstance(fix, dict)
    return fix


def test_each_sentence_is_a_step_as_written(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", FILES)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1, run.stderr
    steps = _fix(run.stdout)["steps"]
    assert steps == [
        'Package "shop.domain" may hold: `order.py`.',
        "Value objects go into order.py.",
        "helpers -> order",
        "{member} %s {0} \\1",
        "Move the code of `shop/domain/helpers.py` into the member it belongs with (or into "
        "another package), update the imports of it, then delete `helpers.py`.",
        'If "shop.domain" really needs a member like "helpers.py", change the '
        "[[tool.inwards.shape]] entry that shapes it (tool.inwards.shape[0]): its `allow` or "
        "`forbid`.",
    ]
    text = run_inwards("check", cwd=project)
    assert "    2. Value objects go into order.py.\n    3. helpers -> order\n" in text.stdout


def test_sentences_from_a_template(tmp_path: Path) -> None:
    config = CONFIG.replace(
        "hints = [", 'template = "kernel"\n\n[tool.inwards.templates.kernel]\nhints = ['
    )
    project = write_tree(tmp_path / "p", {**FILES, "pyproject.toml": config})
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1, run.stderr
    assert _fix(run.stdout)["steps"][1] == "Value objects go into order.py."  # type: ignore[index]


def test_an_empty_sentence_is_a_config_error_at_its_key(tmp_path: Path) -> None:
    config = CONFIG.replace('"helpers -> order"', '""')
    project = write_tree(tmp_path / "p", {**FILES, "pyproject.toml": config})
    run = run_inwards("check", cwd=project)
    assert run.code == 2
    column = config.splitlines()[6].index('""') + 1
    assert (
        f"pyproject.toml:7:{column}: tool.inwards.shape[0].hints[1]: is empty; write a sentence "
        "that tells where such code goes."
    ) in run.stderr


def test_the_schema_takes_both_forms() -> None:
    as_list = tomllib.loads(CONFIG)
    assert_valid(as_list, "pyproject")
    as_table = tomllib.loads(
        CONFIG.replace(CONFIG.splitlines()[6], 'hints = { helpers = "order.py" }')
    )
    assert_valid(as_table, "pyproject")
