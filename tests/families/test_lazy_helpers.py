"""The helpers of contexts, cycles and shapes are loaded on first need: a project that
declares none of them checks without importing their readers, values or kind helpers."""

from __future__ import annotations

import subprocess
import sys

_FEATURE_MODULES = (
    "inwards_core.config.contexts",
    "inwards_core.config.shapes",
    "inwards_core.config.templates",
    "inwards_core.config.template_reading",
    "inwards_core.config.template_rules",
    "inwards_core.config.feature_values",
    "inwards_core.config.toml_scanner",
    "inwards_core.families.inw.contexts.context_map",
    "inwards_core.families.inw.contexts.cycle_graph",
    "inwards_core.families.inw.shapes.shape_rules",
)

_LAYERS = '[tool.inwards]\\nlayers = [{ name = "domain", modules = ["shop.domain"] }]\\n'
_FEATURES = (
    '[[tool.inwards.contexts]]\\nname = "orders"\\nmodules = ["shop.domain"]\\n'
    '[[tool.inwards.shape]]\\npackages = ["shop.domain"]\\nrequire = ["order.py"]\\n'
    '[tool.inwards.templates.t]\\nroles = ["x"]\\n'
)


def _loaded_after_check(pyproject: str) -> list[str]:
    script = (
        "import sys\n"
        "from inwards_core import check_sources\n"
        "sources = {'shop/__init__.py': '', 'shop/domain/__init__.py': '',\n"
        "           'shop/domain/order.py': 'import os\\n'}\n"
        f"check_sources(sources, pyproject='{pyproject}')\n"
        f"print(*(name for name in {_FEATURE_MODULES!r} if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_project_without_contexts_shapes_or_templates_loads_none_of_their_code() -> None:
    assert _loaded_after_check(_LAYERS) == []


def test_a_project_with_them_loads_their_code() -> None:
    loaded = _loaded_after_check(_LAYERS + _FEATURES)
    for name in (
        "inwards_core.config.contexts",
        "inwards_core.config.shapes",
        "inwards_core.config.templates",
        "inwards_core.config.feature_values",
        "inwards_core.families.inw.contexts.context_map",
        "inwards_core.families.inw.contexts.cycle_graph",
        "inwards_core.families.inw.shapes.shape_rules",
    ):
        assert name in loaded
