"""`inwards explain-module` through the installed CLI: the layer and the entry that won it,
the context and its public modules, shapes, what a module may import, and a name that is no
module of the project (exit 2 with close names, as `inwards rule UNKNOWN`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.e2e.helpers import EXAMPLES, run_inwards, write_tree
from tests.e2e.test_context_rules import FILES as CONTEXT_FILES


def shop(tmp_path: Path) -> Path:
    return Path(shutil.copytree(EXAMPLES / "shop", tmp_path / "shop"))


def test_text_names_the_layer_the_entry_it_beat_and_what_it_may_import(tmp_path: Path) -> None:
    run = run_inwards("explain-module", "shop.adapters.outbound.sql_orders", cwd=shop(tmp_path))
    assert run.code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert (
        lines[0] == "shop.adapters.outbound.sql_orders (src/shop/adapters/outbound/sql_orders.py)"
    )
    assert lines[1].startswith(
        "  layer:    outbound (tool.inwards.layers[2][0].modules[0]): the prefix "
        "'shop.adapters.outbound' covers it and wins over 'shop.adapters' (bootstrap)"
    )
    # Its own layer and the inner ones; inbound, its sibling, is not among them.
    assert "  may import layers: domain, application, outbound" in lines
    # The project rule that guards it, as its options say.
    assert lines[-2:] == [
        "  rules:",
        "    SHOP001 adapters-wired-in-bootstrap: only shop.bootstrap may import it",
    ]


def test_json_document(tmp_path: Path) -> None:
    run = run_inwards("explain-module", "shop.domain.order", "--json", cwd=shop(tmp_path))
    assert run.code == 0, run.stderr
    document = json.loads(run.stdout)
    assert list(document) == [
        "module", "file", "is_package", "layer", "context", "ignored", "generated",
        "shapes", "may_import", "rules",
    ]  # fmt: skip
    assert document["layer"]["name"] == "domain"
    assert document["layer"]["kind"] == "prefix"
    assert document["layer"]["also_matching"] == []
    assert document["context"] is None
    assert document["may_import"]["layers"] == ["domain"]
    # The innermost layer gets INW005's default deny list.
    assert "sqlalchemy" in document["may_import"]["libraries"]["deny"]
    assert document["may_import"]["libraries"]["allow"] is None
    # The shop's project rule SHOP001 (inw.protected) guards the outbound adapters only.
    assert document["rules"] == []


def test_an_unknown_name_is_a_usage_error_with_close_names(tmp_path: Path) -> None:
    run = run_inwards("explain-module", "shop.adapters.outbnd", cwd=shop(tmp_path))
    assert run.code == 2
    assert "not a module of this project" in run.stderr
    assert "shop.adapters.outbound" in run.stderr


def test_contexts_public_modules_and_depends_on(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", CONTEXT_FILES)
    run = run_inwards("explain-module", "shop.orders.checkout", "--json", cwd=project)
    assert run.code == 0, run.stderr
    context = json.loads(run.stdout)["context"]
    assert context["name"] == "orders"
    assert context["prefix"] == "shop.orders"
    assert context["public"] is False
    assert json.loads(run.stdout)["may_import"]["contexts"] == ["orders", "billing"]
    public = run_inwards("explain-module", "shop.billing", cwd=project)
    assert public.code == 0, public.stderr
    assert (
        "  context:  billing (longest prefix 'shop.billing'; public through '=shop.billing')"
        in (public.stdout.splitlines())
    )
