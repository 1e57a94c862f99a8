"""inw.context-independence: an import into another context that the importing context
doesn't declare in `depends-on`."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import CheckKind, Example, KindDocs, ProjectModel, Violation, quoted
from inwards_core.families.inw.layering.layer_relations import ScopedOptions, imported_name

DOCS = KindDocs(
    what_it_does="""
Reports every import, in a module that a bounded context owns (`[[tool.inwards.contexts]]`),
of code that another context owns when the importing context doesn't list that context in
its `depends-on`. The context of a module is the one with the longest prefix of its name, so
a context declared inside another one is a context of its own. Every file a context owns is
checked, whether a layer owns it or not, and every import counts, as for layer-dependency:
in functions, under `TYPE_CHECKING`, relative ones.

Imports inside one context, and imports from or into code that no context owns, are left
alone. Once a dependency is declared, which modules of the other context may be imported is
public-api-only's question.
""",
    why_is_this_bad="""
Contexts are the parts of a system that can be understood, owned and changed apart. Each
undeclared import ties two of them together without anyone deciding it: the map of who
depends on whom in the configuration stops being true, and the contexts drift into one.
""",
    how_to_fix="""
Decide whether the dependency is wanted. If it is, add the other context to `depends-on` of
the importing one (dependencies are direct: list each context a context imports itself).
If it isn't, remove the import: move the code both need into a context both may depend on,
or turn the call around (the other context publishes an interface or an event this one
implements or listens to).
""",
    limitations="""
Static imports only: a dynamic import (`importlib.import_module`) into another context is
not reported here.
""",
)

GUIDANCE_PARAMS = {
    "context": "the context of the importing module",
    "target_context": "the context that owns what is imported",
    "imported": "what is imported, as the statement names it",
    "statement": "the import statement, as one line",
    "module": "the importing module",
    "depends_on": "the contexts the importing context declares in depends-on, or `none`",
}


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    if not model.config.contexts:
        return
    # Imported here: a project without contexts never loads the context helpers.
    from inwards_core.families.inw.contexts.context_map import crossing_imports

    # Per context, the contexts it may import from: itself and its depends-on.
    allowed = {
        context.name: {context.name, *context.depends_on} for context in model.config.contexts
    }
    for info, source, crossings in crossing_imports(model, options):
        if source is None:
            continue
        may_import = allowed[source.name]
        for fact, _, target in crossings:
            if target.name in may_import:
                continue
            shown = imported_name(fact)
            message = (
                f'Context "{quoted(source.name)}" imports "{shown}" from context '
                f'"{quoted(target.name)}", a dependency its depends-on doesn\'t declare.'
            )
            declared = ", ".join(f'"{quoted(name)}"' for name in source.depends_on)
            yield Violation(
                file=info.file,
                module=info.name,
                span=fact.span,
                message=message,
                params={
                    "context": quoted(source.name),
                    "target_context": quoted(target.name),
                    "imported": shown,
                    "statement": fact.statement,
                    "module": quoted(info.name),
                    "depends_on": quoted(declared or "none"),
                },
            )


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
public = ["shop.billing.api"]

[[tool.inwards.contexts]]
name = "shipping"
modules = ["shop.shipping"]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="Orders reach into shipping, which they don't depend on",
            good=False,
            config=_CONTEXTS,
            files={
                "shop/orders/checkout.py": (
                    "from shop.billing.api import charge\n"
                    "from shop.shipping.labels import print_label  # expect: INW002\n"
                ),
                "shop/billing/api.py": "def charge() -> None: ...\n",
                "shop/shipping/labels.py": (
                    "def print_label() -> None:\n"
                    "    from shop.billing import api  # expect: INW002\n"
                ),
            },
        ),
        Example(
            title="Each context imports only what it declares",
            good=True,
            config=_CONTEXTS,
            files={
                "shop/orders/checkout.py": "from shop.billing.api import charge\n",
                "shop/billing/api.py": "def charge() -> None: ...\n",
                "shop/shipping/labels.py": "from shop.shipping import carriers\n",
                "shop/shipping/carriers.py": "",
            },
        ),
    )


KIND = CheckKind(
    id="inw.context-independence",
    summary="An import into another context that `depends-on` doesn't declare.",
    options_type=ScopedOptions,
    check=check,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
