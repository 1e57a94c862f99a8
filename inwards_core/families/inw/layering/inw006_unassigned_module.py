"""inw.unassigned-module: code that no layer owns, and layer entries that own nothing."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import (
    CheckKind,
    Example,
    KindDocs,
    Layer,
    ModuleFacts,
    ModuleInfo,
    ProjectModel,
    Reach,
    Severity,
    Span,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import (
    ScopedOptions,
    imported_name,
    layered_files,
)

DOCS = KindDocs(
    what_it_does="""
Finds the places where the declared layers and the code disagree:

- an import, in a layered module, of first-party code that no layer owns (including the
  package above the layers, as in `from shop import settings`): an error. Dynamic imports
  with a readable target count too (`importlib.import_module("shop.common.clock")`,
  `__import__("shop").common`, an import in code given to `exec` as a literal);
- a package or module outside every layer and outside `ignore`: a warning on its first
  file, since no layer rule checks its imports (whole-project runs only);
- a `modules` entry of a layer that matches no module: a warning on the configuration
  (whole-project runs only);
- a layer none of whose entries matches anything: an error on the configuration
  (whole-project runs only).

Imports of modules that don't exist are unknown-first-party's, not this rule's.
""",
    why_is_this_bad="""
Code outside every layer is a hole in the architecture: layered code can lean on it, and it
can import anything. Entries that match nothing usually mean a typo or a moved package, and
the layer silently stopped protecting anything.
""",
    how_to_fix="""
Move the code into the layer it belongs to, or add its package to a layer's `modules`. Code
that is deliberately outside the layers (tests, scripts, migrations) goes in `ignore`. Fix
or remove entries that match nothing.
""",
    limitations="""
A package counts as holding a layer only when a module below it is owned by a layer.
""",
)


# What each finding fills in its guidance templates; a finding leaves empty what it lacks.
GUIDANCE_PARAMS = {
    "layer": "the layer of the importing module (empty for a package or a `modules` entry)",
    "imported": "what is imported (for a package or an entry: its name)",
    "statement": "the import statement, as one line (empty for a package or an entry)",
    "target": "the module, package or `modules` entry that no layer owns",
    "last_part": "the last part of the name of a package or module outside every layer, "
    "as `ignore` takes it (empty for the other findings)",
    "root": "the `root` of [tool.inwards], for a `modules` entry that matches nothing "
    "(empty for the other findings)",
}


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    yield from _imports_of_unowned_code(model, options)
    if not model.whole_project:
        return
    yield from _unassigned_packages(model, options)
    yield from _dead_entries(model)
    yield from _empty_layers(model)


def _params(**given: str) -> dict[str, str]:
    """Every guidance parameter, empty where a finding has no value for it."""
    return {name: given.get(name, "") for name in GUIDANCE_PARAMS}


def _imports_of_unowned_code(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    """Imports, in layered code, of first-party code that exists and no layer owns."""
    index = model.index
    for info, layer, facts in layered_files(model, options):
        yield from _dynamic_imports_of_unowned_code(model, info, layer, facts)
        for fact, name in model.resolved_imports(info):
            if name is None or not index.is_first_party(name):
                continue
            if index.layer_of(name) is not None:
                continue
            if fact.module is None or not index.exists(fact.module if fact.name else name):
                continue  # a module that doesn't exist is unknown-first-party's
            shown = imported_name(fact)
            stable = f'Layer "{quoted(layer.name)}" imports "{shown}", which belongs to no layer.'
            yield Violation(
                file=info.file,
                module=info.name,
                span=fact.span,
                message=f"{stable} No layer rule checks what that code imports.",
                stable_message=stable,
                params=_params(
                    layer=quoted(layer.name),
                    imported=shown,
                    statement=fact.statement,
                    target=quoted(name),
                ),
            )


def _dynamic_imports_of_unowned_code(
    model: ProjectModel, info: ModuleInfo, layer: Layer, facts: ModuleFacts
) -> Iterator[Violation]:
    """Dynamic imports, in layered code, of first-party code that exists and no layer
    owns: the same finding as for a static import, naming the loader."""
    index = model.index
    for dyn in facts.dynamic_imports:
        target = dyn.target
        if target is None or not index.is_first_party(target):
            continue
        if dyn.module is not None and not index.exists(target):
            target = dyn.module  # `exec("from shop import settings")`: a name of `shop`
        if index.layer_of(target) is not None or not index.exists(target):
            continue  # a module that doesn't exist can't be judged here
        shown = quoted(target)
        stable = (
            f'Layer "{quoted(layer.name)}" imports "{shown}", which belongs to no layer, '
            f"through a dynamic import ({dyn.loader})."
        )
        yield Violation(
            file=info.file,
            module=info.name,
            span=dyn.span,
            message=f"{stable} No layer rule checks what that code imports.",
            stable_message=stable,
            params=_params(
                layer=quoted(layer.name), imported=shown, statement=dyn.statement, target=shown
            ),
        )


def _unassigned_packages(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    """A warning on the first file of each package or module outside every layer."""
    for package in model.index.unassigned_packages():
        if not options.applies_to(package.name):
            continue
        what = "Package" if package.is_package else "Module"
        name = quoted(package.name)
        message = f'{what} "{name}" belongs to no layer, so no layer rule checks its imports.'
        yield Violation(
            file=package.file,
            module=package.name,
            span=Span.start_of_file(),
            message=message,
            severity=Severity.WARNING,
            variant="unassigned-package",
            params=_params(
                imported=name, target=name, last_part=quoted(package.name.split(".")[-1])
            ),
        )


def _dead_entries(model: ProjectModel) -> Iterator[Violation]:
    """A warning on each `modules` entry of a layer that matches no module."""
    config = model.config
    for layer, position in model.index.unmatched_patterns():
        entry = layer.modules[position]
        line, column = config.locate(f"{layer.key}.modules[{position}]")
        shown, layer_name = quoted(entry), quoted(layer.name)
        yield Violation(
            file=config.file,
            module=None,
            span=Span(line, column, line, column + len(entry) + 2),
            message=f'"{shown}" (layer "{layer_name}") matches no module of this project.',
            severity=Severity.WARNING,
            variant="dead-entry",
            params=_params(
                imported=shown, layer=layer_name, target=shown, root=quoted(config.root)
            ),
        )


def _empty_layers(model: ProjectModel) -> Iterator[Violation]:
    """An error on each layer that owns no module at all."""
    config = model.config
    for layer in model.index.empty_layers():
        line, column = config.locate(layer.key)
        yield Violation(
            file=config.file,
            module=None,
            span=Span(line, column, line, column + 1),
            message=f'Layer "{quoted(layer.name)}" owns no module: none of its `modules` entries matches any code.',
            variant="empty-layer",
            params=_params(layer=quoted(layer.name)),
        )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Layered code leans on a package outside the layers",
            good=False,
            files={
                "shop/common/__init__.py": "# expect: INW006\n",
                "shop/common/clock.py": "def now() -> int:\n    return 0\n",
                "shop/application/checkout.py": (
                    "import importlib\n"
                    "from shop.common.clock import now  # expect: INW006\n"
                    'settings = importlib.import_module("shop.common")  # expect: INW006\n'
                ),
                "shop/domain/order.py": "",
                "shop/infrastructure/db.py": "",
            },
        ),
        Example(
            title="Tests are outside the layers on purpose",
            good=True,
            config=(
                "[tool.inwards]\n"
                'ignore = ["tests"]\n'
                "layers = [\n"
                '  { name = "domain", modules = ["shop.domain"] },\n'
                '  { name = "application", modules = ["shop.application"] },\n'
                '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
                "]\n"
            ),
            files={
                "shop/domain/order.py": "",
                "shop/application/checkout.py": "from shop.domain import order\n",
                "shop/infrastructure/db.py": "",
                "tests/test_order.py": "from shop.domain import order\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.unassigned-module",
    reach=Reach.FILE,
    summary="Code that no layer owns, and layer entries that own nothing.",
    options_type=ScopedOptions,
    check=check,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
