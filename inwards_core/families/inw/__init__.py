"""The INW family: architecture rules on imports. A family like any other to the engine."""

from __future__ import annotations

from inwards_core.families.inw import (
    inw000_unsupported_encoding,
    inw001_layer_dependency,
    inw005_pure_domain,
    inw006_unassigned_module,
    inw009_suppression_comment,
    inw010_unknown_first_party,
    inw011_dynamic_import,
    inw020_syntax_error,
    kind_acyclic,
    kind_forbidden,
    kind_independence,
    kind_layers,
    kind_protected,
)
from inwards_core.rules.kinds import Family
from inwards_core.version import inwards_version

# One module per check kind, in code order; each has KIND and EXAMPLES.
KIND_MODULES = (
    inw000_unsupported_encoding,
    inw001_layer_dependency,
    inw005_pure_domain,
    inw006_unassigned_module,
    inw009_suppression_comment,
    inw010_unknown_first_party,
    inw011_dynamic_import,
    inw020_syntax_error,
)

# Generic kinds (import-linter's contracts and more) for user and project rule definitions:
# no core definition names them. One module each, with KIND, EXAMPLES (whose definitions
# use the kind) and GUIDANCE_PARAMS; docs/kinds/<kind id>.md is rendered from them.
GENERIC_KIND_MODULES = (
    kind_forbidden,
    kind_independence,
    kind_layers,
    kind_protected,
    kind_acyclic,
)


def family() -> Family:
    return Family(
        prefix="INW",
        kinds=tuple(module.KIND for module in (*KIND_MODULES, *GENERIC_KIND_MODULES)),
        definitions="inwards_core.families.inw.definitions",
        distribution="inwards",
        version=inwards_version(),
    )
