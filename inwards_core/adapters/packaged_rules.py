"""Core rule definitions as shipped inside each family package (package resources).

Reading a family's own package data is not reading the checked project: it stays in the
core so that `import inwards_core` works without the CLI. The user and project roots are read
by adapters in the CLI.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from inwards_core.model.findings import RootKind
from inwards_core.ports import RootReport, RootState, RuleDocument, RuleSources
from inwards_core.rules.kinds import Family


def packaged_documents(families: Sequence[Family]) -> tuple[RuleDocument, ...]:
    documents: list[RuleDocument] = []
    for family in families:
        folder = resources.files(family.definitions)
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".toml") and entry.is_file():
                documents.append(
                    RuleDocument(
                        root=RootKind.CORE,
                        path=f"{family.definitions.replace('.', '/')}/{entry.name}",
                        data=entry.read_bytes(),
                        family=family.distribution,
                        family_version=family.version,
                        relative=f"{family.distribution}/{entry.name}",
                    )
                )
    return tuple(documents)


class PackagedRuleSources(RuleSources):
    """The core root only: what the installed families ship."""

    def __init__(self, families: Sequence[Family]) -> None:
        self._families = tuple(families)
        self._documents: tuple[RuleDocument, ...] | None = None

    def documents(self) -> Sequence[RuleDocument]:
        if self._documents is None:
            self._documents = packaged_documents(self._families)
        return self._documents

    def roots(self) -> Sequence[RootReport]:
        return (packaged_root(self._families),)


def packaged_root(families: Sequence[Family]) -> RootReport:
    return RootReport(RootKind.CORE, ", ".join(f.definitions for f in families), RootState.FOUND)
