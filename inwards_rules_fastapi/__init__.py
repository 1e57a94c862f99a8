"""FAPI: rules for FastAPI services, shipped as a rule family of its own.

A top-level package of the `inwards-lint` distribution, written exactly as a third party
would write a family: it is found through the `inwards` entry-point group (`fapi =
"inwards_rules_fastapi.plugin"` in `pyproject.toml`), it imports only `inwards_core`'s
public API (`inwards_core.__all__`) and its own modules (the project rule HOUSE003 and the
repository's `[tool.inwards]` keep it so), and its rule definitions are package data in
`inwards_rules_fastapi/definitions`. Every rule is opt-in (`extend-select = ["FAPI"]`).

The rules share one model of the project's FastAPI structure, built in `graph.py` from the
content facts of the files that import `fastapi`; see that module's docstring.
"""

from __future__ import annotations

from types import ModuleType

from inwards_core import Family, inwards_distribution, inwards_version
from inwards_rules_fastapi import (
    fapi001_endpoint_metadata,
    fapi002_undocumented_error_response,
    fapi003_router_wiring,
    fapi005_route_shadowing,
    fapi006_lifespan_events,
    fapi007_yield_dependency_swallows,
    fapi008_duplicate_operation_id,
    fapi009_depends_called,
)

# One module per check kind, in code order; each defines its KIND. Imported only when the
# family is registered, and each keeps its own imports light: a default run, with no FAPI
# rule on, must not pay for the graph.
KIND_MODULES: tuple[ModuleType, ...] = (
    fapi001_endpoint_metadata,
    fapi002_undocumented_error_response,
    fapi003_router_wiring,
    fapi005_route_shadowing,
    fapi006_lifespan_events,
    fapi007_yield_dependency_swallows,
    fapi008_duplicate_operation_id,
    fapi009_depends_called,
)


def family() -> Family:
    return Family(
        prefix="FAPI",
        kinds=tuple(module.KIND for module in KIND_MODULES),
        definitions="inwards_rules_fastapi.definitions",
        distribution=inwards_distribution(),
        version=inwards_version(),
    )
