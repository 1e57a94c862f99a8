"""inw.unknown-first-party: an import of a module of this project that doesn't exist."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Example,
    ImportFact,
    KindDocs,
    Layer,
    ProjectModel,
    Reach,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import (
    ScopedOptions,
    layered_files,
    outward_layer,
)

DOCS = KindDocs(
    what_it_does="""
Reports a static import, in a layered module, whose module part names first-party code that
isn't there: `from shop.domain.taxes import VAT` when `shop/domain` has no `taxes`, or a
relative import that climbs above the top-level package. Only the module part is checked:
`from shop.domain import pricing` passes when `shop/domain` is a package, whatever `pricing` is.

Existence is probed on the project's files the way Python would find them: modules, packages,
namespace packages, stubs (`.pyi`) and extension modules (`.so`, `.pyd`). Modules produced by
a build step are declared with `generated` (by default `*_pb2`, `*_pb2_grpc`, `_version`), and
packages that installed distributions extend with `namespace-packages`.
In a uv workspace, the portions of a namespace package that other members provide, or that
are installed in the workspace's `.venv`, are found there: `acme.core` imported from the
member holding `acme.api` is not reported (see docs/workspaces.md).
""",
    why_is_this_bad="""
The import fails at run time, or worse, it works only on one machine because something else
on the path provides the module. Either way the layer rules can't judge an import whose
target they can't find.
""",
    how_to_fix="""
Correct the module name (the fix lists the closest modules that exist), create the module,
or declare it in `generated` when a build step writes it.
""",
    limitations="""
What a package's `__init__` adds at run time can't be read off the files, so these are not
reported: a module missing from a package whose `__init__` extends or replaces `__path__`
(`__path__ = pkgutil.extend_path(__path__, __name__)`, `__path__.append(...)`, `__path__ +=
[...]`, as when another distribution provides `pkg.sdk`), and a name at or below one that
the `__init__` of a package above it puts in `sys.modules` (`sys.modules["pkg.cli.run"] =
run`, `sys.modules[__name__ + ".compat"] = compat`), and any name below a package whose
`__init__` adds an import hook to `sys.meta_path` (`sys.meta_path.insert(0, Finder())`, as
a finder serving old module names from the modules that replaced them); for each such
package the report has one note naming the file and line of the hook and how many imports
it left unjudged (`note:` after a text report, `notes` in JSON, a notification in SARIF).
Those `__init__` files are read for it even when no layer owns them. A regular package below a package that
extends `__path__` is still judged (its `__path__` is its own directory), and so is a module
replacing itself (`sys.modules[__name__] = ...`). A name put in `sys.modules`, or a hook
added, by any other module is not seen: Python has it only if that module happened to run
first.
""",
)


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    index = model.index
    for info, layer, facts in layered_files(model, options):
        for fact in facts.imports:
            if fact.module is None:
                top = quoted(info.name.split(".")[0])
                raw_module = quoted(fact.raw_module)
                message = (
                    f'The relative import "{raw_module}" climbs above the top-level '
                    f'package "{top}".'
                )
                yield Violation(
                    file=info.file,
                    module=info.name,
                    span=fact.span,
                    message=message,
                    params={
                        "imported": raw_module,
                        "statement": fact.statement,
                        "closest": "",
                        "layer": quoted(layer.name),
                        "module": quoted(info.name),
                        "depth": str(info.name.count(".")),
                        "top": top,
                    },
                    variant="climbs-above-top",
                )
                continue
            probed = _missing_first_party(model, layer, fact)
            if probed is None:
                continue
            if model.extended_at(probed) is not None:
                continue  # the files alone can't tell what is below it
            missing = index.missing_part(probed)
            if missing is None:
                continue
            parent, segment = missing
            closest = index.closest_modules(probed)
            parent, segment = quoted(parent), quoted(segment)
            where = f'"{parent}" has no "{segment}"' if parent else f'there is no "{segment}"'
            message = f'"{quoted(probed)}" is not a module of this project: {where}.'
            yield Violation(
                file=info.file,
                module=info.name,
                span=fact.span,
                message=message,
                params={
                    "imported": quoted(probed),
                    "statement": fact.statement,
                    "closest": quoted(", ".join(f"`{quoted(c)}`" for c in closest), LIST_LIMIT)
                    or "none",
                    "layer": quoted(layer.name),
                    "depth": "",
                    "top": "",
                },
            )


def _missing_first_party(model: ProjectModel, layer: Layer, fact: ImportFact) -> str | None:
    """The first-party module an import names that no file stands for, when this kind
    would judge it (an outward import is layer-dependency's alone); else None."""
    index = model.index
    probed = fact.module if fact.name is not None else (fact.target or fact.module)
    if probed is None or not index.is_first_party(probed) or index.exists(probed):
        return None
    if outward_layer(index, layer, probed) is not None:
        return None
    return probed


def notes(model: ProjectModel, options: ScopedOptions) -> Iterator[str]:
    """A line for each package whose import hook kept this run from judging imports below
    it: where the hook is added, and how many imports it left unjudged."""
    hooked = model.import_hooks()
    if not hooked:
        return  # most projects: nothing to count, and no pass over the imports
    below = tuple(f"{package}." for package in sorted(hooked))
    unjudged: dict[tuple[str, str, int], int] = {}  # (package, file, line): imports
    for _info, layer, facts in layered_files(model, options):
        for fact in facts.imports:
            if fact.module is None or not fact.module.startswith(below):
                continue
            probed = _missing_first_party(model, layer, fact)
            dynamic = None if probed is None else model.extended_at(probed)
            hook = None if dynamic is None else model.import_hook(dynamic)
            if dynamic is not None and hook is not None:
                key = (dynamic, *hook)
                unjudged[key] = unjudged.get(key, 0) + 1
    for (package, file, line), count in sorted(unjudged.items()):
        imports = "an import" if count == 1 else f"{count} imports"
        yield (
            f'{file}:{line}: the package "{quoted(package)}" adds an import hook to '
            f"sys.meta_path, which may serve any module below it, so {imports} of modules "
            "below it that no file stands for were not reported as unknown first-party "
            "modules."
        )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A typo in a module name",
            good=False,
            files={
                "shop/domain/__init__.py": "",
                "shop/domain/pricing.py": "VAT = 20\n",
                "shop/domain/order.py": "from shop.domain.pricng import VAT  # expect: INW010\n",
                "shop/application/__init__.py": "",
                "shop/infrastructure/__init__.py": "",
            },
        ),
        Example(
            title="A package that other distributions extend",
            good=True,
            files={
                "shop/__init__.py": (
                    "import pkgutil\n\n__path__ = pkgutil.extend_path(__path__, __name__)\n"
                ),
                "shop/domain/__init__.py": "",
                "shop/domain/order.py": "from shop.sdk.money import Money\n",
                "shop/application/__init__.py": "",
                "shop/infrastructure/__init__.py": "",
            },
        ),
        Example(
            title="Generated modules and attributes of packages are fine",
            good=True,
            files={
                "shop/domain/__init__.py": "VERSION = 1\n",
                "shop/domain/order.py": (
                    "from shop.domain import VERSION\nimport shop.domain.orders_pb2\n"
                ),
                "shop/application/__init__.py": "",
                "shop/infrastructure/__init__.py": "",
            },
        ),
    )


KIND = CheckKind(
    id="inw.unknown-first-party",
    reach=Reach.FILE,
    summary="An import of a module of this project that doesn't exist.",
    options_type=ScopedOptions,
    check=check,
    guidance_params={
        "imported": "the module the import names, which doesn't exist",
        "statement": "the import statement, as one line",
        "closest": "the closest existing modules, quoted and comma-separated (or `none`)",
        "layer": "the layer of the importing module",
        "depth": "how many packages below its top-level package the importing module sits "
        "(for a relative import that climbs above it; empty otherwise)",
        "top": "the top-level package of the importing module (for a relative import that "
        "climbs above it; empty otherwise)",
    },
    docs=DOCS,
    examples=examples,
    notes=notes,
)
