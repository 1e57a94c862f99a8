"""Core rule definitions as shipped inside each family package (package resources).

Reading a family's own package data is not reading the checked project: it stays in the
core so that `import inwards_core` works without the CLI. The user and project roots are read
by adapters in the CLI.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Sequence

from inwards_core.model.findings import RootKind
from inwards_core.ports import RootReport, RootState, RuleDocument, RuleSources
from inwards_core.rules.kinds import Family


def packaged_documents(families: Sequence[Family]) -> tuple[RuleDocument, ...]:
    documents: list[RuleDocument] = []
    for family in families:
        for name, data in sorted(_toml_files(family.definitions)):
            documents.append(
                RuleDocument(
                    root=RootKind.CORE,
                    path=f"{family.definitions.replace('.', '/')}/{name}",
                    data=data,
                    family=family.distribution,
                    family_version=family.version,
                    relative=f"{family.distribution}/{name}",
                )
            )
    return tuple(documents)


def _toml_files(package: str) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of each `.toml` file of a package. A package in a directory is listed
    directly; `importlib.resources` (about 5 ms of imports on every start-up) only reads
    one that isn't (in a zip, say)."""
    # The name comes from an installed family's registration, never from the checked project.
    module = importlib.import_module(package)  # inwards: ignore[INW011] reason="a family's"
    file = getattr(module, "__file__", None)
    if file is not None:
        folder = os.path.dirname(file)
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".toml") and entry.is_file():
                    with open(entry.path, "rb") as stream:
                        yield entry.name, stream.read()
        return
    from importlib import resources

    for resource in resources.files(package).iterdir():
        if resource.name.endswith(".toml") and resource.is_file():
            yield resource.name, resource.read_bytes()


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
