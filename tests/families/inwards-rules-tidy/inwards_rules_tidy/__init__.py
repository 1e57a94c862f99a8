"""The TIDY rule family for inwards: import hygiene (star imports, import fan-out).

A third-party family: it uses only inwards_core's public API, registers itself through the
`inwards` entry-point group (see `plugin`), and ships its core rule definitions as package
data in `inwards_rules_tidy.definitions`.
"""

from __future__ import annotations

from inwards_core import Family
from inwards_rules_tidy import tidy001_star_import, tidy002_import_fanout

__version__ = "0.3.0"
DISTRIBUTION = "inwards-rules-tidy"

# One module per check kind, in code order; each defines its KIND.
KIND_MODULES = (tidy001_star_import, tidy002_import_fanout)


def family() -> Family:
    return Family(
        prefix="TIDY",
        kinds=tuple(module.KIND for module in KIND_MODULES),
        definitions="inwards_rules_tidy.definitions",
        distribution=DISTRIBUTION,
        version=__version__,
    )
