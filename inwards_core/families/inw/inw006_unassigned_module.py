"""inw.unassigned-module: code that no layer owns, and layer entries that own nothing."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import (
    CheckKind,
    Example,
    KindDocs,
    ProjectModel,
    Severity,
    Span,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering import ScopedOptions, imported_name, layered_files

DOCS = KindDocs(
    what_it_does="""
Finds the places where the declared layers and the code disagree:

- an import, in a layered module, of first-party code that no layer owns (including the
  package above the layers, as in `from shop import settings`): an error;
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


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    index = model.index
    config = model.config
    for info, layer, _facts in layered_files(model, options):
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
                params={
                    "layer": quoted(layer.name),
                    "imported": shown,
                    "statement": fact.statement,
                    "target": quoted(name),
                    "last_part": "",
                    "root": "",
                },
            )
    if not model.whole_project:
        return
    for package in index.unassigned_packages():
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
            params={
                "imported": name,
                "layer": "",
                "statement": "",
                "target": name,
                "last_part": quoted(package.name.split(".")[-1]),
                "root": "",
            },
        )
    for layer, position in index.unmatched_patterns():
        entry = layer.modules[position]
        key = f"{layer.key}.modules[{position}]"
        line, column = config.locate(key)
        shown, layer_name = quoted(entry), quoted(layer.name)
        yield Violation(
            file=config.file,
            module=None,
            span=Span(line, column, line, column + len(entry) + 2),
            message=f'"{shown}" (layer "{layer_name}") matches no module of this project.',
            severity=Severity.WARNING,
            variant="dead-entry",
            params={
                "imported": shown,
                "layer": layer_name,
                "statement": "",
                "target": shown,
                "last_part": "",
                "root": quoted(config.root),
            },
        )
    for layer in index.empty_layers():
        line, column = config.locate(layer.key)
        yield Violation(
            file=config.file,
            module=None,
            span=Span(line, column, line, column + 1),
            message=f'Layer "{quoted(layer.name)}" owns no module: none of its `modules` entries matches any code.',
            variant="empty-layer",
            params={
                "imported": "",
                "layer": quoted(layer.name),
                "statement": "",
                "target": "",
                "last_part": "",
                "root": "",
            },
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
                "shop/application/checkout.py": "from shop.common.clock import now  # expect: INW006\n",
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
    summary="Code that no layer owns, and layer entries that own nothing.",
    options_type=ScopedOptions,
    check=check,
    guidance_params={
        "layer": "the layer of the importing module (empty for a package or a `modules` entry)",
        "imported": "what is imported (for a package or an entry: its name)",
        "statement": "the import statement, as one line (empty for a package or an entry)",
        "target": "the module, package or `modules` entry that no layer owns",
        "last_part": "the last part of the name of a package or module outside every layer, "
        "as `ignore` takes it (empty for the other findings)",
        "root": "the `root` of [tool.inwards], for a `modules` entry that matches nothing "
        "(empty for the other findings)",
    },
    docs=DOCS,
    examples=examples,
)
