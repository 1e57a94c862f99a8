"""What the context rules (INW002-INW004) cost a run: the top-level names are read only for
the public modules a public-api-only fix asks about, through the cache, and the passes the
three kinds share are made once per run (`ProjectModel.shared`)."""

from __future__ import annotations

from inwards_core import ModuleInfo, ProjectModel, check, load_config_text
from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.index.modules import ModuleIndex

CONTEXTS = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing.api", "=shop.billing"]
"""

FILES = {
    "shop/orders/cart.py": "from shop.billing.invoices import Invoice\n",
    "shop/orders/lines.py": "from shop.billing.api import charge\n",
    "shop/billing/__init__.py": "",
    "shop/billing/api.py": "from shop.billing.invoices import Invoice\ndef charge(): ...\n",
    "shop/billing/invoices.py": "class Invoice: ...\n",
}


def run(cache: DictExtractionCache, files: dict[str, str] = FILES) -> list[tuple[str, str]]:
    report = check(load_config_text(CONTEXTS), InMemoryProjectFiles(files), cache=cache)
    return [(f.code, f.fix.summary) for f in report.findings]


def with_names(cache: DictExtractionCache) -> list[str]:
    """The modules whose cache entries hold the top-level names."""
    return sorted(key.module for key in cache.entries if "+names" in key.extractor)


def test_names_are_read_only_for_the_public_modules_a_fix_asks_about() -> None:
    cache = DictExtractionCache()
    cold = run(cache)
    assert cold == [
        (
            "INW003",
            'Import "Invoice" from "shop.billing.api", the public module of "billing" that '
            "offers it.",
        )
    ]
    # The public modules in name order until one binds the name; no other file.
    assert with_names(cache) == ["shop.billing", "shop.billing.api"]
    others = [facts for key, facts in cache.entries.items() if "+names" not in key.extractor]
    assert len(others) == len(FILES) and not any(facts.names for facts in others)
    assert run(cache) == cold  # warm: the same fix, from the cache


def test_no_finding_reads_no_names() -> None:
    cache = DictExtractionCache()
    clean = dict(FILES, **{"shop/orders/cart.py": "from shop.billing.api import Invoice\n"})
    assert run(cache, clean) == []
    assert with_names(cache) == []


def test_a_shared_pass_is_computed_once_per_model() -> None:
    calls: list[int] = []

    def modules(model: ProjectModel) -> tuple[ModuleInfo, ...]:
        calls.append(1)
        return model.checked

    config = load_config_text(CONTEXTS)
    index = ModuleIndex.build(config, InMemoryProjectFiles(FILES).listing(""))
    model = ProjectModel(config, index, {}, (), True)
    assert model.shared(modules) is model.shared(modules)
    assert calls == [1]
