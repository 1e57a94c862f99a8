"""tidy.star-import: `from x import *` in code a layer owns."""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

from inwards_core import (
    CheckKind,
    Example,
    ImportFact,
    ImportStyle,
    KindDocs,
    ProjectModel,
    Violation,
    option,
)

DOCS = KindDocs(
    what_it_does="""
Reports every star import (`from x import *`, also relative ones such as
`from .money import *`) in a module that a layer owns. With the option `allow-in-init`
(on in the shipped definition) a package's `__init__.py` may star-import, which is how many
packages gather their public names; `allowed` lists modules that may always be
star-imported.
""",
    why_is_this_bad="""
A star import hides which names a module uses and where they come from: a reader, a type
checker or an AI agent editing the file can't tell whether `Money` is defined here or
imported, and a new public name in the imported module silently shadows a local one. The
module's dependencies are then larger than anything the code shows.
""",
    how_to_fix="""
Import the names the module uses, by name. If the star import gathers a package's public
API, move it into the package's `__init__.py` (or list the names there and in `__all__`).
""",
    limitations="""
Only modules a layer owns are judged, whatever other rules read. A star import of a module that defines `__all__` is
reported too: the names are still invisible where they are used.
""",
)

_DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _check_module_names(value: tuple[str, ...]) -> str | None:
    """An options validator: the message for the first bad entry, None when all are fine."""
    for entry in value:
        if not _DOTTED_NAME.match(entry):
            return f'"{entry}" is not a dotted module name (like "tkinter" or "shop.constants").'
    return None


@attrs.frozen
class StarImportOptions:
    """`allow-in-init`: a package's `__init__.py` may star-import.
    `allowed`: modules (and the modules below them) that may always be star-imported."""

    allow_in_init: bool = False
    allowed: tuple[str, ...] = option((), check=_check_module_names)

    def allows(self, imported: str) -> bool:
        return any(imported == name or imported.startswith(f"{name}.") for name in self.allowed)


def _imported(fact: ImportFact) -> str:
    """The module a star import reads: resolved when it is relative, else as written."""
    return fact.module or fact.raw_module or "?"


def check(model: ProjectModel, options: StarImportOptions) -> Iterator[Violation]:
    for info in model.checked:
        # Other rules may have modules outside the layers read; this one judges layered code.
        if info.layer is None or (info.is_package and options.allow_in_init):
            continue
        facts = model.facts.get(info.file)
        if facts is None:
            continue
        for fact in facts.imports:
            if fact.style is not ImportStyle.STAR:
                continue
            imported = _imported(fact)
            if options.allows(imported):
                continue
            yield Violation(
                file=info.file,
                module=info.name,
                span=fact.span,
                message=(
                    f'Star import from "{imported}": which of its names this module uses '
                    "can't be seen here."
                ),
                params={"imported": imported, "statement": fact.statement},
                # In a package's `__init__.py` the main fix (move it there) is no help.
                variant="in-init" if info.is_package else "",
            )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A use case star-imports the domain",
            good=False,
            files={
                "shop/domain/money.py": "class Money: ...\n",
                "shop/application/pricing.py": (
                    "from shop.domain.money import *  # expect: TIDY001\n"
                    "\n"
                    "def zero() -> Money:\n"
                    "    return Money()\n"
                ),
            },
        ),
        Example(
            title="Relative star imports count too",
            good=False,
            files={
                "shop/domain/__init__.py": "",
                "shop/domain/money.py": "class Money: ...\n",
                "shop/domain/order.py": "from .money import *  # expect: TIDY001\n",
            },
        ),
        Example(
            title="Names imported by name; the package gathers its API in __init__.py",
            good=True,
            files={
                "shop/domain/__init__.py": "from shop.domain.money import *\n",
                "shop/domain/money.py": "__all__ = ['Money']\n\nclass Money: ...\n",
                "shop/application/pricing.py": (
                    "from shop.domain.money import Money\n\ndef zero() -> Money:\n    return Money()\n"
                ),
            },
        ),
    )


KIND = CheckKind(
    id="tidy.star-import",
    summary="A star import in code a layer owns.",
    options_type=StarImportOptions,
    check=check,
    guidance_params={
        "imported": "the module star-imported from",
        "statement": "the import statement, as one line",
    },
    docs=DOCS,
    examples=examples,
)
