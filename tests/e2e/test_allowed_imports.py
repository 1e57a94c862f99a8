"""`allow` on a generic kind through the installed `inwards`: the allowed import is quiet,
an exception that excuses nothing is a warning located in the rule's definition."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

PROJECT = {
    "pyproject.toml": '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n',
    ".inwards/rules/ACME001.toml": (
        'code = "ACME001"\n'
        'name = "independent-contexts"\n'
        'summary = "Contexts import each other."\n'
        'check = "inw.independence"\n'
        "\n"
        "[options]\n"
        'modules = ["shop.contexts.*"]\n'
        "allow = [\n"
        '  "shop.contexts.billing.listeners -> shop.contexts.orders.events",\n'
        '  "shop.contexts.orders -> shop.contexts.billing.api",\n'
        "]\n"
    ),
    "shop/__init__.py": "",
    "shop/contexts/__init__.py": "",
    "shop/contexts/billing/__init__.py": "",
    "shop/contexts/billing/listeners.py": "from shop.contexts.orders.events import Placed\n",
    "shop/contexts/billing/invoice.py": "from shop.contexts.orders.model import Order\n",
    "shop/contexts/orders/__init__.py": "",
    "shop/contexts/orders/events.py": "class Placed: ...\n",
    "shop/contexts/orders/model.py": "class Order: ...\n",
}


def test_allow_through_the_cli(tmp_path: Path) -> None:
    project = write_tree(tmp_path, PROJECT)
    run = run_inwards("check", "--no-cache", "--format", "concise", cwd=project)
    assert (run.code, run.stderr) == (1, ""), run.stdout + run.stderr
    lines = [line for line in run.stdout.splitlines() if "ACME001" in line]
    assert len(lines) == 2, run.stdout
    assert lines[0].startswith("shop/contexts/billing/invoice.py:1:40: ACME001 ")
    assert lines[1].startswith(".inwards/rules/ACME001.toml:1:1: ACME001 (warning) ")
    assert '`options.allow[1]` is "shop.contexts.orders -> shop.contexts.billing.api"' in lines[1]
    assert "listeners.py" not in run.stdout
