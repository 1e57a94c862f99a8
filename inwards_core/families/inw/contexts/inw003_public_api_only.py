"""inw.public-api-only: an import, from outside a context, of one of its modules that isn't
public."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Example,
    ImportStyle,
    KindDocs,
    ModuleInfo,
    ProjectModel,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import ScopedOptions, imported_name

if TYPE_CHECKING:
    from inwards_core import Context
    from inwards_core.families.inw.contexts.context_map import ContextMap, CrossingImport

# The context helpers are imported by the functions that use them: a project without
# contexts never loads them.

DOCS = KindDocs(
    what_it_does="""
Reports every import, from outside a bounded context, of a module of that context that
isn't public. A context's public modules are its `public` entries: each a module and
everything below it, or with a leading `=` that module alone (`"=shop.billing"` makes the
package's `__init__` its facade without opening its subpackages). A context that lists no
`public` entries has no public modules. The importer may be another context or code that no
context owns, layered or not; imports inside a context are its own business.

An import from a context that doesn't declare the dependency at all is
context-independence's alone: one import, one finding.

The fix names a public module of the context that already offers the imported name: one
whose top level defines it (`def`, `class`, an assignment) or imports it (`from ... import
name`, `import ... as name`).
""",
    why_is_this_bad="""
A context's public modules are the promise it makes to the rest of the system; everything
else may change without notice. Code that imports a private module ties itself to the
context's inside, so the context can no longer be reorganised without breaking its users.
""",
    how_to_fix="""
Import the name from the public module that offers it. When none does, decide with the
context's owners: offer the name from a public module (re-export it there), or, if the
module is meant to be used from outside, list it in the context's `public`.
""",
    limitations="""
Static imports only. A public module counts as offering a name when its top level binds it,
not when it is bound inside an `if` or `try` block or by a star import. With `inwards
check PATHS`, a public module that isn't among the named files isn't read, so the fix then
lists the public modules without saying which one offers the name.
""",
)

GUIDANCE_PARAMS = {
    "importer": 'the importing context as `context "name"`, or `module "name"` outside any',
    "target_context": "the context that owns the imported module",
    "imported": "what is imported, as the statement names it",
    "private_module": "the module of that context the import reaches, which isn't public",
    "name": "the name imported from it (empty when a whole module is imported)",
    "public_module": "a public module of the context that offers the name (when one does)",
    "public_modules": "the public modules of the context (the first few), or `none`",
    "statement": "the import statement, as one line",
    "module": "the importing module",
}

_LISTED = 5  # public modules named in a fix


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    if not model.config.contexts:
        return
    from inwards_core.families.inw.contexts.context_map import (
        CrossingImport,
        context_imports,
        crossing_imports,
        is_public,
        undeclared,
    )

    public = _PublicModules(model, model.shared(context_imports).contexts)
    private: dict[str, bool] = {}  # per name reached: not one of its context's public modules
    for info, source, crossings in crossing_imports(model, options):
        for fact, reached, target in crossings:
            hidden = private.get(reached)
            if hidden is None:
                hidden = private[reached] = not is_public(target, reached)
            if not hidden:
                continue
            if source is not None and undeclared(source, target):
                continue  # an undeclared dependency is context-independence's alone
            crossing = CrossingImport(info, fact, reached, source, target)
            yield _violation(model, crossing, public.of(target))


def _violation(
    model: ProjectModel, crossing: CrossingImport, public: tuple[ModuleInfo, ...]
) -> Violation:
    info, fact, target = crossing.info, crossing.fact, crossing.target
    from_module = fact.style is ImportStyle.FROM and crossing.reached == fact.module
    name = fact.name or "" if from_module else ""
    offering = _offering(model, public, name) if name else None
    importer = (
        f'context "{quoted(crossing.source.name)}"'
        if crossing.source is not None
        else f'module "{quoted(info.name)}"'
    )
    shown = imported_name(fact)
    private = quoted(crossing.reached)
    stable = (
        f'{importer[0].upper()}{importer[1:]} imports "{shown}", but "{private}" is not a '
        f'public module of context "{quoted(target.name)}".'
    )
    if offering is not None:
        variant = ""
    elif public:
        variant = "no-module-offers-it"
    else:
        variant = "no-public-modules"
    listed = ", ".join(f"`{quoted(module.name)}`" for module in public[:_LISTED])
    if len(public) > _LISTED:
        listed += f" and {len(public) - _LISTED} more"
    return Violation(
        file=info.file,
        module=info.name,
        span=fact.span,
        message=stable,
        params={
            "importer": importer,
            "target_context": quoted(target.name),
            "imported": shown,
            "private_module": private,
            "name": quoted(name),
            "public_module": quoted(offering.name) if offering is not None else "",
            "public_modules": quoted(listed or "none", LIST_LIMIT),
            "statement": fact.statement,
            "module": quoted(info.name),
        },
        variant=variant,
    )


def _offering(model: ProjectModel, public: tuple[ModuleInfo, ...], name: str) -> ModuleInfo | None:
    """The first public module (in name order) whose top level binds `name`."""
    for info in public:
        names = model.top_names(info)
        if names is not None and name in names:
            return info
    return None


class _PublicModules:
    """The public modules of each context, in name order, found on first need."""

    def __init__(self, model: ProjectModel, contexts: ContextMap) -> None:
        self._model = model
        self._contexts = contexts
        self._found: dict[str, tuple[ModuleInfo, ...]] | None = None

    def of(self, context: Context) -> tuple[ModuleInfo, ...]:
        if self._found is None:
            from inwards_core.families.inw.contexts.context_map import is_public

            found: dict[str, list[ModuleInfo]] = {}
            for name, info in sorted(self._model.index.modules.items()):
                owner = self._contexts.owner(name)
                if owner is not None and is_public(owner, name):
                    found.setdefault(owner.name, []).append(info)
            self._found = {key: tuple(infos) for key, infos in found.items()}
        return self._found.get(context.name, ())


_CONTEXTS = """\
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing.api", "=shop.billing"]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Orders import billing's inside instead of its API",
            good=False,
            config=_CONTEXTS,
            files={
                "shop/orders/checkout.py": (
                    "from shop.billing.invoices import issue_invoice  # expect: INW003\n"
                    "from shop.billing.tax import rates  # expect: INW003\n"
                ),
                "shop/billing/__init__.py": "",
                "shop/billing/api.py": (
                    "from shop.billing.invoices import issue_invoice\n\n__all__ = ['issue_invoice']\n"
                ),
                "shop/billing/invoices.py": "def issue_invoice() -> None: ...\n",
                "shop/billing/tax/__init__.py": "",
                "shop/billing/tax/rates.py": "VAT = 20\n",
            },
        ),
        Example(
            title="Orders go through billing's public modules",
            good=True,
            config=_CONTEXTS,
            files={
                "shop/orders/checkout.py": (
                    "from shop.billing.api import issue_invoice\nfrom shop.billing import Money\n"
                ),
                "shop/billing/__init__.py": "class Money: ...\n",
                "shop/billing/api.py": "from shop.billing.invoices import issue_invoice\n",
                "shop/billing/invoices.py": "def issue_invoice() -> None: ...\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.public-api-only",
    summary="An import, from outside a context, of one of its modules that isn't public.",
    options_type=ScopedOptions,
    check=check,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
