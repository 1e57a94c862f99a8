"""`contexts`, `cycles`, `shape` and `names` through the installed CLI: a bad value is a
configuration error (exit 2, file, line, column and dotted key, nothing on stdout), and
contexts make every file of the project read."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

LAYERS = """\
[tool.inwards]
ignore = ["tests"]
layers = [{ name = "domain", modules = ["app.domain"] }]
"""
CONTEXTS = """\
[[tool.inwards.contexts]]
name = "orders"
modules = ["app.orders"]
depends-on = ["billing"]
[[tool.inwards.contexts]]
name = "billing"
modules = ["app.billing"]
"""


def project(tmp_path: Path, pyproject: str) -> Path:
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": pyproject,
            "app/__init__.py": "",
            "app/domain/__init__.py": "",
            "app/orders/__init__.py": "",
            "app/billing/__init__.py": "",
            "tests/test_orders.py": "import app.orders\n",
        },
    )


def test_contexts_with_layers_load_and_every_file_is_read(tmp_path: Path) -> None:
    without = run_inwards("check", "--format", "json", cwd=project(tmp_path, LAYERS))
    assert without.code == 0, without.stderr
    with_contexts = run_inwards(
        "check", "--format", "json", cwd=project(tmp_path, LAYERS + CONTEXTS)
    )
    assert with_contexts.code in (0, 1), with_contexts.stderr
    assert json.loads(without.stdout)["summary"]["filesChecked"] == 1
    assert json.loads(with_contexts.stdout)["summary"]["filesChecked"] == 5


def test_a_depends_on_naming_no_context(tmp_path: Path) -> None:
    config = LAYERS + CONTEXTS.replace('["billing"]', '["billing", "shipping"]')
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert run.stdout == ""
    assert (
        'pyproject.toml:7:26: tool.inwards.contexts[0].depends-on[1]: "shipping" is not the '
        'name of a context. The contexts are "billing", "orders".'
    ) in run.stderr


def test_a_prefix_in_two_contexts_and_a_bad_cycles_value(tmp_path: Path) -> None:
    config = (
        LAYERS
        + 'cycles = ["modules", "layers"]\n'
        + CONTEXTS.replace('["app.billing"]', '["app.orders"]')
    )
    run = run_inwards("check", "--format", "json", cwd=project(tmp_path, config))
    assert run.code == 2
    assert run.stdout == ""
    assert (
        'pyproject.toml:4:22: tool.inwards.cycles[1]: must be "modules" or "contexts", '
        'not "layers".'
    ) in run.stderr
    assert (
        'pyproject.toml:11:12: tool.inwards.contexts[1].modules[0]: "app.orders" is in two '
        'contexts, "orders" and "billing";'
    ) in run.stderr


def test_a_shadowed_shape_selector_and_a_bad_member_pattern(tmp_path: Path) -> None:
    config = LAYERS + (
        "[[tool.inwards.shape]]\n"
        'packages = ["app.*"]\n'
        'allow = ["domain/", "[z-a]"]\n'
        "[[tool.inwards.shape]]\n"
        'packages = ["app.orders"]\n'
        "[[tool.inwards.names]]\n"
        'pattern = "test_*"\n'
    )
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        'config error: pyproject.toml:6:21: tool.inwards.shape[0].allow[1]: "[z-a]" has the '
        'range "z-a", which runs backwards and matches nothing.',
        'config error: pyproject.toml:8:13: tool.inwards.shape[1].packages[0]: "app.orders" '
        'names only packages that "app.*" at tool.inwards.shape[0].packages[0] names '
        "already, and the first matching entry wins, so this entry never shapes them. Put "
        "the narrower entry first.",
        "config error: pyproject.toml:9:1: tool.inwards.names[0]: has no `only-in`; list "
        'package selectors such as ["shop.tests", "shop.*.tests"].',
    ]
