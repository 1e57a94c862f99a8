"""`inwards init --style auto`: roles from names, the closest style, and its table."""

from __future__ import annotations

from inwards_core.config.load import build_config
from inwards_core.config.values import NoPositions
from inwards_core.presets import PresetTarget
from inwards_core.presets.auto import propose, role_of


def test_reference_example_is_clean() -> None:
    modules = ["app", "app.utils", "app.domain", "app.services", "app.infrastructure", "app.api"]
    proposal = propose(modules, "app")
    roles = {item.module: item.role for item in proposal.assignments}
    assert roles == {
        "app.utils": "kernel",
        "app.domain": "domain",
        "app.services": "application",
        "app.infrastructure": "infrastructure",
        "app.api": "presentation",
    }
    assert proposal.preset == "clean"
    assert proposal.unassigned == ()
    reasons = {item.module: item.reason for item in proposal.assignments}
    assert reasons["app.services"] == "`services` is a usual name for the application layer"
    table = proposal.table(PresetTarget("app", "src", "0.1.0", tuple(modules)))
    assert table["layers"] == [
        {"name": "kernel", "modules": ["app.utils"]},
        {"name": "domain", "modules": ["app.domain"]},
        {"name": "application", "modules": ["app.services"]},
        {"name": "infrastructure", "modules": ["app.infrastructure"]},
        {"name": "presentation", "modules": ["app.api"]},
    ]
    build_config(table, file="pyproject.toml", positions=NoPositions())


def test_names_fold_plural_and_case() -> None:
    assert role_of("Entities") == "domain"
    assert role_of("repository") == role_of("repositories") == "infrastructure"
    assert role_of("route") == "presentation"
    assert role_of("stuff") is None


def test_adapters_split_in_two_is_hexagonal_with_siblings() -> None:
    modules = [
        "shop.domain",
        "shop.application.ports",
        "shop.adapters.inbound.cli",
        "shop.adapters.outbound.db",
        "shop.bootstrap",
    ]
    proposal = propose(modules, "shop")
    assert proposal.preset == "hexagonal"
    assert any("inbound/outbound" in signal for signal in proposal.signals)
    table = proposal.table(PresetTarget("shop"))
    assert table["layers"] == [
        {"name": "domain", "modules": ["shop.domain"]},
        {"name": "application", "modules": ["shop.application"]},
        [
            {"name": "outbound", "modules": ["shop.adapters.outbound"]},
            {"name": "inbound", "modules": ["shop.adapters.inbound"]},
        ],
        {"name": "bootstrap", "modules": ["shop.adapters", "shop.bootstrap"]},
    ]
    build_config(table, file="pyproject.toml", positions=NoPositions())


def test_persistence_leans_layered() -> None:
    proposal = propose(["s.domain", "s.persistence", "s.services", "s.web"], "s")
    assert proposal.preset == "layered"
    layers = proposal.table(PresetTarget("s"))["layers"]
    assert [layer["name"] for layer in layers] == [
        "domain",
        "persistence",
        "services",
        "presentation",
    ]


def test_django_apps_win_over_names() -> None:
    modules = ["site.orders.models", "site.orders.views", "site.users.models", "site.users.apps"]
    proposal = propose(modules, "site")
    assert proposal.preset == "django"
    table = proposal.table(PresetTarget("site", ".", "0.1.0", tuple(modules)))
    assert [context["name"] for context in table["contexts"]] == ["orders", "users"]


def test_fastapi_domains_with_routers() -> None:
    modules = ["api.auth.router", "api.auth.service", "api.posts.router", "api.config"]
    assert propose(modules, "api").preset == "fastapi"


def test_packages_with_their_own_layers_are_bounded_contexts() -> None:
    modules = ["m.orders.domain", "m.orders.api", "m.billing.domain", "m.billing.application"]
    proposal = propose(modules, "m")
    assert proposal.preset == "bounded-contexts"
    assert proposal.unassigned == ("m.billing", "m.orders")


def test_slices_under_features() -> None:
    modules = ["m.features.orders.domain", "m.features.orders.api", "m.shared"]
    assert propose(modules, "m").preset == "vertical-slices"


def test_nothing_known_proposes_no_layers() -> None:
    proposal = propose(["x", "x.foo", "x.bar"], "x")
    assert proposal.assignments == ()
    assert proposal.unassigned == ("x.bar", "x.foo")
    assert proposal.table(PresetTarget("x"))["layers"] == []


def test_same_names_same_proposal() -> None:
    modules = ["a.domain", "a.api", "a.db"]
    assert propose(modules, "a") == propose(list(reversed(modules)), "a")
