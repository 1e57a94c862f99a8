"""The INW family: architecture rules on imports. A family like any other to the engine,
written as a third party would write one: it imports only inwards_core's public API
(`inwards_core.__all__`) and its own modules."""

from __future__ import annotations

from inwards_core import Family, inwards_distribution, inwards_version
from inwards_core.families.inw.content import (
    inw012_thin_endpoint,
    inw013_async_blocking,
    inw015_construct_only_in,
)
from inwards_core.families.inw.contexts import (
    inw002_context_independence,
    inw003_public_api_only,
    inw004_import_cycles,
)
from inwards_core.families.inw.diagrams import (
    inw017_diagram_unknown_name,
    inw018_diagram_forbidden_edge,
    inw019_diagram_missing_dependency,
)
from inwards_core.families.inw.files import (
    inw000_unsupported_encoding,
    inw009_suppression_comment,
    inw020_syntax_error,
)
from inwards_core.families.inw.generic import (
    kind_acyclic,
    kind_forbidden,
    kind_independence,
    kind_layers,
    kind_protected,
)
from inwards_core.families.inw.layering import (
    inw001_layer_dependency,
    inw005_pure_domain,
    inw006_unassigned_module,
    inw010_unknown_first_party,
    inw011_dynamic_import,
)
from inwards_core.families.inw.orm import inw016_orm_naming
from inwards_core.families.inw.ports import inw014_ports_abstract
from inwards_core.families.inw.rule_scope import with_scope
from inwards_core.families.inw.shapes import inw007_package_shape, inw008_missing_member

# One module per check kind, in code order; each defines its KIND.
KIND_MODULES = (
    inw000_unsupported_encoding,
    inw001_layer_dependency,
    inw002_context_independence,
    inw003_public_api_only,
    inw004_import_cycles,
    inw005_pure_domain,
    inw006_unassigned_module,
    inw007_package_shape,
    inw008_missing_member,
    inw009_suppression_comment,
    inw010_unknown_first_party,
    inw011_dynamic_import,
    inw012_thin_endpoint,
    inw013_async_blocking,
    inw014_ports_abstract,
    inw015_construct_only_in,
    inw016_orm_naming,
    inw017_diagram_unknown_name,
    inw018_diagram_forbidden_edge,
    inw019_diagram_missing_dependency,
    inw020_syntax_error,
)

# Generic kinds (import-linter's contracts and more) for user and project rule definitions:
# no core definition names them. One module each, defining its KIND (whose examples bring
# definitions that use it); docs/kinds/<kind id>.md is rendered from it.
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
        kinds=tuple(with_scope(module.KIND) for module in (*KIND_MODULES, *GENERIC_KIND_MODULES)),
        definitions="inwards_core.families.inw.definitions",
        distribution=inwards_distribution(),
        version=inwards_version(),
    )
