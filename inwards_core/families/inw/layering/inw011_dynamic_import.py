"""inw.dynamic-import: a dynamic import that reaches an outer layer, or can't be read."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    CheckKind,
    DynamicImportFact,
    Example,
    KindDocs,
    ProjectModel,
    Reach,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import (
    ScopedOptions,
    breach,
    direction,
    layered_files,
)

DOCS = KindDocs(
    what_it_does="""
Reads calls that import by name at run time: `importlib.import_module`, `__import__`
(also through `builtins` and `importlib`), `importlib.util.find_spec`, `runpy.run_module` and
`pkgutil.resolve_name`, also through aliases (`import importlib as il`,
`from importlib import import_module as load`). Targets are read from literals and folded
from constants (`"shop." + "bootstrap"`, `"%s.%s" % ("shop", "bootstrap")`, module-level
constants, constant f-strings, `".".join([...])`); relative names use the literal `package=`.

Code run from text is read too: the import statements (and the loader calls) in a literal
given to `exec`, `eval` or `compile` (also through `builtins`) are imports of the module
that runs it, read again inside literals that code runs, three levels deep.

A readable target in an outer or sibling layer is reported like a static import would be. In
every layer but the outermost, a target that can't be read (a variable, a run-time f-string
field, a call), or code given to `exec`, `eval` or `compile` that isn't a literal, is
reported as unverifiable: nothing can promise it stays inside the rules.
""",
    why_is_this_bad="""
A dynamic import is still a dependency. Hiding an outward import in a string defeats the
layering as surely as a plain import, and is harder to find.
""",
    how_to_fix="""
Invert the dependency as for a static import: a port in the inner layer, its implementation
in the outer layer, wired in the composition root. Plugin registries that need to load by name
belong in the outermost layer.
""",
    limitations="""
Loaders passed as arguments or stored in containers are not followed. Code given as a
literal is read when it is at most 100,000 characters long and nested at most three
literals deep; past that it counts as unreadable. `exec(compile(source, ...))` is reported
once, at the `compile` call. A target in no layer is unassigned-module's (INW006), as for a
static import.
""",
)


# The functions that run code given as text: what they can't read is code, not a name.
_RUNS_CODE = frozenset({"exec", "eval", "compile"})


@attrs.frozen
class DynamicImportOptions(ScopedOptions):
    """`report-unreadable`: report targets that can't be read, in every layer but the outermost."""

    report_unreadable: bool = True


def check(model: ProjectModel, options: DynamicImportOptions) -> Iterator[Violation]:
    flow = direction(model.config)
    outermost = model.config.ranks - 1
    for info, layer, facts in layered_files(model, options):
        for dyn in facts.dynamic_imports:
            params = {
                "layer": quoted(layer.name),
                "loader": dyn.loader,
                "statement": dyn.statement,
                "imported": quoted(dyn.target or ""),
            }
            if dyn.target is None:
                if not options.report_unreadable or layer.rank >= outermost:
                    continue
                yield _unreadable(info.file, info.name, dyn, params)
                continue
            target_layer = model.index.layer_of(dyn.target)
            if target_layer is None:
                continue
            where = breach(layer, target_layer)
            if where is None:
                continue
            stable = (
                f'Layer "{params["layer"]}" imports "{params["imported"]}" from {where} through '
                f"a dynamic import ({dyn.loader})."
            )
            yield Violation(
                file=info.file,
                module=info.name,
                span=dyn.span,
                message=f"{stable} Imports may only point inwards: {flow}.",
                stable_message=stable,
                params={**params, "target_layer": quoted(target_layer.name)},
            )


def _unreadable(
    file: str, module: str, dyn: DynamicImportFact, params: dict[str, str]
) -> Violation:
    reason = dyn.reason or "not a constant"
    if dyn.loader in _RUNS_CODE:
        message = (
            f'Layer "{params["layer"]}" runs code that inwards can\'t read ({reason}) '
            f"through {dyn.loader}: any import in it goes unchecked."
        )
        variant = "unreadable-code"
    else:
        message = (
            f'Layer "{params["layer"]}" imports a module whose name inwards can\'t read '
            f"({reason}) through {dyn.loader}."
        )
        variant = "unreadable-target"
    return Violation(
        file=file, module=module, span=dyn.span, message=message, params=params, variant=variant
    )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="An outward import hidden in a string",
            good=False,
            files={
                "shop/domain/discounts.py": (
                    "import importlib\n\n"
                    'PACKAGE = "shop.infrastructure"\n\n'
                    "def load():\n"
                    '    return importlib.import_module(PACKAGE + ".db")  # expect: INW011\n'
                ),
                "shop/infrastructure/db.py": "",
            },
        ),
        Example(
            title="A name read at run time in an inner layer",
            good=False,
            files={
                "shop/application/plugins.py": (
                    "from importlib import import_module\n\n"
                    "def load(name: str):\n"
                    "    return import_module(name)  # expect: INW011\n"
                ),
            },
        ),
        Example(
            title="Imports in code run from text",
            good=False,
            files={
                "shop/domain/rules.py": (
                    'exec("from shop.infrastructure import db")  # expect: INW011\n\n'
                    "def run(code: str) -> None:\n"
                    "    exec(code)  # expect: INW011\n"
                ),
                "shop/infrastructure/db.py": "",
            },
        ),
        Example(
            title="Loading plugins in the outermost layer",
            good=True,
            files={
                "shop/infrastructure/plugins.py": (
                    "import importlib\n\n"
                    "def load(name: str):\n"
                    "    return importlib.import_module(name)\n"
                ),
                "shop/domain/order.py": "import importlib\nrules = importlib.import_module('shop.domain.rules')\n",
                "shop/domain/rules.py": "",
            },
        ),
    )


KIND = CheckKind(
    id="inw.dynamic-import",
    reach=Reach.FILE,
    summary="A dynamic import that reaches an outer layer, or whose target can't be read.",
    options_type=DynamicImportOptions,
    check=check,
    guidance_params={
        "layer": "the layer of the importing module",
        "loader": "the function that imports (`importlib.import_module`, `__import__`, ...)",
        "statement": "the call, as one line",
        "imported": "the module it loads (empty when that can't be read)",
        "target_layer": "the outer layer it reaches (only when it reaches one)",
    },
    docs=DOCS,
    examples=examples,
)
