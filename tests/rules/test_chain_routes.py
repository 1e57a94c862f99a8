"""A chain finding lists the other imports of its route, as import-linter's route lines do:
every import from the source into the chain's first middle module (heads) and every import
from its last middle module into the target (tails), each with file and line, in one
finding per pair located at the chain's first import."""

from __future__ import annotations

from inwards_core.families.inw.generic.import_chains import Route
from tests.rules.test_kinds import definition, only, run

FILES = {
    # two heads into shop.hub: order.py (line 1) and price.py (line 2)
    "shop/domain/order.py": "from shop.hub import link\n",
    "shop/domain/price.py": "\nimport shop.hub\n",
    "shop/domain/tax.py": "x = 1\n",
    # the hub: one statement over four lines (shown at its first), two more imports
    "shop/hub.py": (
        "from shop.adapters.db import (\n"
        "    save,\n"
        "    load,\n"
        ")\n"
        "from shop.adapters.mail import send\n"
        "import shop.adapters.web\n"
    ),
    "shop/adapters/db.py": "def save() -> None: ...\ndef load() -> None: ...\n",
    "shop/adapters/mail.py": "def send() -> None: ...\n",
    "shop/adapters/web.py": "x = 1\n",
}


def _rule(kind: str, options: str) -> dict[str, str]:
    guidance = '\n[guidance]\nsummary = "Cut {chain}"\nsteps = ["{heads}", "{tails}"]\n'
    return {"ACME009.toml": definition("ACME009", kind, options, guidance)}


LAYERS = 'layers = ["shop.domain", "shop.adapters"]\nindirect = true'


def test_one_finding_per_pair_at_the_first_head_listing_every_head_and_tail() -> None:
    (finding,) = only(run(FILES, _rule("inw.layers", LAYERS)), "ACME009")
    assert (finding.file, finding.span.line) == ("shop/domain/order.py", 1)
    assert finding.message.endswith(
        "Chain: shop.domain.order (shop/domain/order.py:1) -> shop.hub (shop/hub.py:1) -> "
        "shop.adapters.db. Also into shop.hub: shop.domain.price (shop/domain/price.py:2). "
        "Also from shop.hub: shop.adapters.mail (shop/hub.py:5), shop.adapters.web "
        "(shop/hub.py:6)."
    )
    assert finding.fix.steps == (
        "shop.domain.order:1, shop.domain.price:2",
        "shop.hub:1 -> shop.adapters.db, shop.hub:5 -> shop.adapters.mail, "
        "shop.hub:6 -> shop.adapters.web",
    )


def test_the_stable_message_leaves_the_route_out() -> None:
    (finding,) = only(run(FILES, _rule("inw.layers", LAYERS)), "ACME009")
    assert "Also" not in finding.stable_message and "price" not in finding.stable_message


def test_independence_lists_the_route_too_and_forbidden_its_chains() -> None:
    # A forbidden contract's chains are import-linter's: each search takes away the imports
    # of the chains found, so price -> hub (not yet taken) starts a second chain, which ends
    # with the hub's next import of the adapters.
    forbidden = 'modules = ["shop.domain"]\nforbidden = ["shop.adapters"]\nindirect = true'
    (finding,) = only(run(FILES, _rule("inw.forbidden", forbidden)), "ACME009")
    assert "Also into shop.hub: shop.domain.price (shop/domain/price.py:2)." in finding.message
    assert finding.message.endswith(
        "Other routes (1): shop.domain.price (shop/domain/price.py:2) -> shop.hub "
        "(shop/hub.py:5) -> shop.adapters.mail (also into shop.hub: shop.domain.order "
        "(shop/domain/order.py:1)) (also from shop.hub: shop.adapters.db (shop/hub.py:1), "
        "shop.adapters.web (shop/hub.py:6))."
    )
    independence = 'modules = ["shop.domain", "shop.adapters"]\nindirect = true'
    (finding,) = only(run(FILES, _rule("inw.independence", independence)), "ACME009")
    assert "Also from shop.hub: shop.adapters.mail (shop/hub.py:5)" in finding.message


def test_an_allowed_import_is_no_head() -> None:
    options = LAYERS + '\nallow = ["shop.domain.price -> shop.hub"]'
    (finding,) = only(run(FILES, _rule("inw.layers", options)), "ACME009")
    assert "Also into" not in finding.message


def test_a_direct_import_fills_heads_and_tails_with_itself() -> None:
    files = {**FILES, "shop/domain/tax.py": "from shop.adapters.web import x\n"}
    found = only(run(files, _rule("inw.layers", LAYERS)), "ACME009")
    direct = next(f for f in found if f.file == "shop/domain/tax.py")
    assert direct.fix.steps == (
        "shop.domain.tax:1",
        "shop.domain.tax:1 -> shop.adapters.web",
    )


def test_a_route_is_a_chain_with_its_other_imports() -> None:
    route = Route(())
    assert route == () and route.heads == () and route.tails == ()


def test_the_other_routes_of_a_pair_each_with_its_own_heads_and_tails() -> None:
    files = {
        "shop/domain/order.py": "from shop.hub import link\nfrom shop.side import step\n",
        "shop/domain/price.py": "from shop.side import step\n",
        "shop/hub.py": "from shop.adapters.db import save\n",
        "shop/side.py": "from shop.far import go\n",
        "shop/far.py": "from shop.adapters.mail import send\nfrom shop.adapters.web import x\n",
        "shop/adapters/db.py": "x = 1\n",
        "shop/adapters/mail.py": "x = 1\n",
        "shop/adapters/web.py": "x = 1\n",
    }
    (finding,) = only(run(files, _rule("inw.layers", LAYERS)), "ACME009")
    assert finding.message.endswith(
        "-> shop.adapters.db. Other routes (1): shop.domain.order (shop/domain/order.py:2) -> "
        "shop.side (shop/side.py:1) -> shop.far (shop/far.py:1) -> shop.adapters.mail (also "
        "into shop.side: shop.domain.price (shop/domain/price.py:1)) (also from shop.far: "
        "shop.adapters.web (shop/far.py:2))."
    )


def test_a_link_in_the_middle_is_taken_once() -> None:
    files = {
        "shop/domain/order.py": "from shop.hub import a\n",
        "shop/domain/price.py": "from shop.spoke import b\n",
        "shop/hub.py": "from shop.core import c\n",
        "shop/spoke.py": "from shop.core import c\n",
        "shop/core.py": "from shop.adapters.db import save\n",
        "shop/adapters/db.py": "x = 1\n",
    }
    (finding,) = only(run(files, _rule("inw.layers", LAYERS)), "ACME009")
    # the second route would end with core -> adapters.db again, which the first took
    assert "Other routes" not in finding.message
