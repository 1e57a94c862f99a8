"""inw.layers: an extra layering, innermost first, optionally repeated in every container."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import attrs

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Fix,
    ImportEdge,
    KindDocs,
    ModuleInfo,
    ProjectModel,
    ReadScope,
    Violation,
    option,
    quoted,
)
from inwards_core.families.inw.generic.allowed_imports import (
    UNUSED_ALLOW_PARAMS,
    AllowedImports,
    allow_option,
)
from inwards_core.families.inw.generic.ignored_imports import (
    IGNORED_IMPORT_PARAMS,
    IMPORT_OPTIONS_DOCS,
    dynamic_option,
    honours_import_options,
    ignore_imports_option,
    missing_modules_option,
    reads_ignored_importers,
    type_checking_option,
    unmatched_ignore_option,
)
from inwards_core.families.inw.generic.import_chains import (
    OTHER_ROUTES_DOCS,
    ROUTE_PARAMS,
    Chain,
    chain_violation,
    direct_params,
    shortest_chains,
    via,
)
from inwards_core.families.inw.generic.kind_layers_examples import examples
from inwards_core.families.inw.generic.layer_entries import (
    RuleLayer,
    breach_of,
    check_layers,
    check_missing_layers,
    check_together,
    entry_names,
    missing_layers,
    owning_layer,
    parse_entry,
    rule_layers,
    undeclared_children,
)
from inwards_core.families.inw.module_entries import (
    DEAD_ENTRY_PARAMS,
    dead_entries,
    expand,
    module_list,
)

DOCS = KindDocs(
    what_it_does="""
`layers` lists layers innermost first, as `[tool.inwards] layers` does:
`["domain", "application", "adapters"]` means adapters may import application and domain,
application may import domain, and domain imports neither. An entry `"inbound | outbound"`
puts independent siblings on one level: they may import the layers inside them, not each
other; `"inbound : outbound"` puts siblings on one level that may also import each other (an
entry uses `|` or `:`, not both). A single entry of siblings is a rule of its own: siblings
that may not import each other.

Without `containers`, each layer is a module prefix or selector (`shop.domain`,
`shop.*.domain`). With `containers = ["shop.orders", "shop.billing"]` (prefixes or selectors
such as `shop.*`), layer names are relative to each container, and the layering is checked
inside each container on its own: `shop.orders.domain` may not import
`shop.orders.adapters`. A layer that a container lacks, and a container or layer that
matches nothing, is reported as a warning in the rule's definition; with
`missing-layers = "error"`, a missing layer is an error of the rule instead, which fails the
run. A layer written in parentheses, `"(tasks)"`, may be missing.

With `exhaustive = true` (only with `containers`), every direct child of each container,
module or package, must be a layer or have its last name in `exhaustive-ignores`: each other
child is reported at the first line of its module. As in import-linter, a child's name is
compared with each layer as written: a layer `"framework.cli"` does not name the child
`framework`.

Reports every import from a layer into an outer or sibling layer. With `indirect = true` the
rule also follows chains of imports through modules outside the layers: for each layer and
each layer it may not reach, the shortest chain is reported once, at its first import, with
every step (module, file and line). The message also lists the other imports of the chain's
route, as import-linter prints them: every other import from the layer into the chain's
first module in the middle, and every other import from its last module in the middle into
the layer it reaches (module, file and line).
"""
    + OTHER_ROUTES_DOCS
    + """
`allow` lists the imports the rule lets through, as `"importer -> imported"` with module
prefixes or selectors on both sides (`"shop.*.domain.events -> shop.*.adapters.clock"`): they
are not reported and no chain goes through them. An entry that lets no import through is
reported as a warning in the rule's definition.
"""
    + IMPORT_OPTIONS_DOCS,
    why_is_this_bad="""
A layering only holds while every dependency points inwards. An inner layer that imports an
outer one, even through a helper module, can no longer be understood, tested or reused
without it.
""",
    how_to_fix="""
Invert the dependency: declare what the inner code needs as a `typing.Protocol` in the
inner layer, implement it in the outer layer, and pass the implementation in from where the
application is wired. For a chain, the module in the middle usually belongs in one of the
layers.
""",
    limitations="""
Chains are followed only through modules inwards reads: code in `ignore` is not followed.
Layers in different containers are not checked against each other. With
`inwards check PATHS`, only direct imports are checked.
""",
)

_names = entry_names


@attrs.frozen
class LayersOptions:
    """An extra layering, innermost first.

    `layers` names the layers, innermost first (at least two, or one entry of siblings):
    module prefixes, or names relative to each container when there are containers;
    `"a | b"` makes siblings that may not import each other, `"a : b"` siblings that may,
    and `"(a)"` a layer that may be missing. `containers` are the packages (prefixes or
    selectors) in which the same layering repeats. `indirect` also reports chains through other first-party modules.
    `allow` lists imports the rule lets through, as `"importer -> imported"`.
    """

    layers: tuple[str, ...] = option((), check=check_layers, required=True)
    containers: tuple[str, ...] = module_list()
    indirect: bool = False
    allow: tuple[str, ...] = allow_option()
    ignore_imports: tuple[str, ...] = ignore_imports_option()
    unmatched_ignore: str = unmatched_ignore_option()
    type_checking: bool = type_checking_option()
    dynamic: bool = dynamic_option()
    missing_modules: bool = missing_modules_option()
    missing_layers: str = option(
        "warning",
        check=check_missing_layers,
        description=(
            'What a layer that matches no module is: "warning" (the default), or "error", '
            "a finding of the rule that fails the run. A layer written `(name)` may be missing."
        ),
    )
    exhaustive: bool = option(
        False,
        description=(
            "With `containers`: every direct child of each container must be a layer or be "
            "listed in `exhaustive-ignores`; each other child is a finding."
        ),
    )
    exhaustive_ignores: tuple[str, ...] = option(
        (),
        description=(
            "The children (last name segments) that `exhaustive = true` lets be no layer, "
            'such as "_version".'
        ),
    )

    def check_together(self) -> tuple[str, str] | None:
        checks_presence = self.exhaustive or self.missing_layers == "error"
        return check_together(self.layers, self.containers, self.exhaustive, checks_presence)


@reads_ignored_importers
def reads(options: LayersOptions) -> ReadScope:
    if options.containers:
        texts = [
            f"{container}.{name}"
            for container in options.containers
            for entry in options.layers
            for name in _names(entry)
        ]
    else:
        texts = [name for entry in options.layers for name in _names(entry)]
    return ReadScope(modules=tuple(texts), import_graph=options.indirect)


GUIDANCE_PARAMS = {
    "module": "the module that imports (for a chain: the first one)",
    "imported": "what is imported (for a chain: the module at its end)",
    "statement": "the import statement (for a chain: the first one), as one line",
    "layer": "the layer of the module, as written in `layers`",
    "target_layer": "the outer or sibling layer it reaches",
    "container": "the container both belong to (empty without `containers`)",
    "chain": "every step as `module:line`, ending with the imported module",
    "via": "the modules in the middle of a chain, joined by ` -> ` (empty for a direct import)",
    **ROUTE_PARAMS,
    **DEAD_ENTRY_PARAMS,
    **UNUSED_ALLOW_PARAMS,
    **IGNORED_IMPORT_PARAMS,
}


def _flow(options: LayersOptions) -> str:
    entries = [parse_entry(entry) for entry in options.layers]
    flow = " <- ".join(f" {e.separator} ".join(map(quoted, e.names)) for e in entries)
    return quoted(flow, LIST_LIMIT)


def _layer_finder(layers: Sequence[RuleLayer]) -> Callable[[str], RuleLayer | None]:
    """`owning_layer` kept per module name: a chain search asks for the same names once per
    layer and import (34,000 times on usethis' 189 modules)."""
    known: dict[str, RuleLayer | None] = {}

    def layer_of(name: str) -> RuleLayer | None:
        if name not in known:
            known[name] = owning_layer(name, layers)
        return known[name]

    return layer_of


@honours_import_options
def check(model: ProjectModel, options: LayersOptions) -> Iterator[Violation]:
    flow = _flow(options)
    containers: Sequence[str | None]
    if options.containers:
        containers = sorted({c for entry in options.containers for c in expand(model, entry)})
    else:
        containers = [None]
    allowed = AllowedImports(options.allow)
    for container in containers:
        layers = rule_layers(options.layers, container)
        layer_of = _layer_finder(layers)
        of = f' of "{quoted(container)}"' if container else ""
        members: dict[str, list[ModuleInfo]] = {}
        for info in model.checked:
            layer = layer_of(info.name) if info.file in model.facts else None
            if layer is not None:
                members.setdefault(layer.name, []).append(info)
        for layer in layers:
            for info in members.get(layer.name, ()):
                for edge in model.import_edges(info):
                    target = layer_of(edge.target) if edge.first_party else None
                    where = None if target is None else breach_of(layer, target)
                    if target is None or where is None or allowed.permits(edge):
                        continue
                    stable = (
                        f'Layer "{layer.shown}"{of} imports "{quoted(edge.target)}" from {where}.'
                    )
                    yield Violation(
                        file=info.file,
                        module=info.name,
                        span=edge.span,
                        message=f"{stable} Imports may only point inwards: {flow}.",
                        stable_message=stable,
                        params={
                            **direct_params(edge),
                            "layer": layer.shown,
                            "target_layer": target.shown,
                            "container": quoted(container or ""),
                        },
                        fallback=Fix(
                            f'Invert the dependency of "{layer.shown}" on "{target.shown}".',
                            (
                                f"Delete `{edge.statement}`.",
                                f'Declare a typing.Protocol in "{layer.shown}" for what the code '
                                f'needs, and implement it in "{target.shown}".',
                            ),
                        ),
                    )
        if options.indirect and model.whole_project:
            found = (layers, layer_of, members)
            yield from _chains(model, found, (container, flow), allowed)
        if model.whole_project:
            as_error = options.missing_layers == "error"
            yield from missing_layers(model, layers, container, as_error=as_error)
        if model.whole_project and options.exhaustive and container is not None:
            declared = (*(layer.name for layer in layers), *options.exhaustive_ignores)
            yield from undeclared_children(model, container, declared)
    yield from dead_entries(model, "containers", options.containers)
    yield from allowed.unused(model)


def _chains(
    model: ProjectModel,
    # the layers, the memo of which layer owns a module, and each layer's modules
    found: tuple[
        Sequence[RuleLayer], Callable[[str], RuleLayer | None], dict[str, list[ModuleInfo]]
    ],
    where: tuple[str | None, str],  # the container (None without containers) and the flow
    allowed: AllowedImports,
) -> Iterator[Violation]:
    container, flow = where
    layers, layer_of, members = found
    of = f' of "{quoted(container)}"' if container else ""
    for layer in layers:

        def hit(edge: ImportEdge, layer: RuleLayer = layer) -> str | None:
            target = layer_of(edge.target) if edge.first_party else None
            if target is None or breach_of(layer, target) is None:
                return None
            return target.name

        chains = shortest_chains(
            model,
            members.get(layer.name, ()),
            hit=hit,
            passable=lambda name: layer_of(name) is None,
            follows=allowed.follows,
        )
        for target in layers:
            chain: Chain | None = chains.get(target.name)
            if chain is None:
                continue
            stable = (
                f'Layer "{layer.shown}"{of} reaches the layer "{target.shown}" through '
                f"{via(chain)}: imports may only point inwards ({flow}), not even "
                "through other modules."
            )
            yield chain_violation(
                chain,
                stable,
                layer.name,
                target.name,
                {
                    "layer": layer.shown,
                    "target_layer": target.shown,
                    "container": quoted(container or ""),
                },
            )


KIND = CheckKind(
    id="inw.layers",
    summary="An import from a layer into an outer or sibling layer of an extra layering.",
    options_type=LayersOptions,
    check=check,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
