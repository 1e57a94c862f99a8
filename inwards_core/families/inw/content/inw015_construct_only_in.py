"""inw.construct-only-in: a module outside the composition root imports or builds what only
the composition root may (the adapters of a role)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    CheckKind,
    ProjectModel,
    ReadScope,
    Violation,
    option,
)
from inwards_core.families.inw.content.inw015_docs import DOCS
from inwards_core.families.inw.content.inw015_examples import examples
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.module_entries import check_patterns


@attrs.frozen
class ConstructOnlyInOptions(ScopedOptions):
    """`role`: the modules only the composition root may import and build. `allowed-in`: the
    modules that may. `check-tests`: judge test modules too."""

    role: tuple[str, ...] = option(
        (),
        check=check_patterns,
        needed_when_on=True,
        description="The modules (prefixes or selectors) whose classes only the `allowed-in` "
        "modules may import and build: the adapters. A project that turns the rule on must "
        "set it (or a template's roles give it).",
    )
    allowed_in: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="The modules (prefixes or selectors) that may import and build the role's "
        "classes: the composition root and the wiring.",
    )
    check_tests: bool = option(
        False,
        description="Also judge test modules (a `tests` or `test` segment, `test_*`, "
        "`*_test`, `conftest`), which are skipped by default.",
    )


def reads(options: ConstructOnlyInOptions) -> ReadScope:
    """Content (for the calls) of the modules whose runtime imports reach a class of the
    role, through re-exports or a package above it: `check` finds them from the import
    facts and reads them in one batch of its own; the role's modules are read on demand."""
    return ReadScope(content=bool(options.role), content_batch=False)


def check(model: ProjectModel, options: ConstructOnlyInOptions) -> Iterator[Violation]:
    from inwards_core.families.inw.content.role_findings import find  # only when the rule runs

    return find(model, options)


KIND = CheckKind(
    id="inw.construct-only-in",
    summary="A module outside the composition root imports or builds an adapter of a role.",
    options_type=ConstructOnlyInOptions,
    check=check,
    reads=reads,
    guidance_params={
        "imported": "the name imported or the class built (the module, for `import x.y`)",
        "source": "the role module it comes from",
        "role": "the `role` entry that covers that module",
        "allowed_in": "the `allowed-in` entries, quoted (`no module outside the role` when "
        "there are none)",
        "statement": "the import statement, as one line (for a build, the import that "
        "brought the name in)",
        "via": "the modules the class was re-exported through, outermost first (empty for "
        "an import)",
    },
    docs=DOCS,
    examples=examples,
)
