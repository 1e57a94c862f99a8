"""The places `where_should_this_go` probes (`inwards_cli.mcp_server.placement`), on an
in-memory project: how many, which first when there are too many, and the word matching
that orders them inside a layer."""

from __future__ import annotations

from pathlib import Path

from inwards_cli.mcp_server.placement import (
    MAX_PROBES,
    Places,
    _matches,
    description_words,
)
from inwards_core import Session

FEATURES = [f"feature{n:02}" for n in range(30)]
PYPROJECT = (
    "[tool.inwards]\nlayers = [\n"
    '  { name = "core", modules = ["app.core"] },\n'
    f'  {{ name = "features", modules = {[f"app.{f}" for f in FEATURES]!r} }},\n'
    '  { name = "main", modules = ["app.main"] },\n]\n'
).replace("'", '"')


def _places() -> Places:
    sources = {"app/__init__.py": "", "app/core/__init__.py": "", "app/main.py": ""}
    for feature in FEATURES:
        sources[f"app/{feature}/__init__.py"] = ""
    sources["app/feature17/invoices.py"] = ""
    session = Session.in_memory(sources, pyproject=PYPROJECT)
    return Places(session.config, session.tree().index, Path("/project"))


def test_the_probes_stop_at_the_bound_with_each_layer_kept() -> None:
    places, skipped = _places().all(description_words("print the invoices"))
    assert len(places) == MAX_PROBES
    assert len(skipped) == 2 + len(FEATURES) - MAX_PROBES
    layers = [place.layer for place in places]
    assert layers[0] == "core" and layers[-1] == "main"  # every layer probed, in order
    # The feature whose modules the description names is kept, and first in its layer.
    assert places[1].package == "app.feature17"
    assert places[1].near == ("app.feature17.invoices",)
    assert places[-1].existing and places[-1].path == "app/main.py"


def test_words_match_names_by_their_first_letters() -> None:
    assert description_words("Stores the ORDERS in sql, for a new module") == (
        "stores",
        "orders",
        "sql",
    )
    assert _matches("orders", "order") and _matches("invoice", "invoicing")
    assert _matches("sql", "sql") and not _matches("sql", "sqlite")
    assert not _matches("domain", "document") and not _matches("notification", "notifier")
