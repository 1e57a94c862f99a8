"""What identifies the contents of each rule root: a digest that `status` compares with the
one the last check recorded ("changed since the last check")."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from inwards_core.model.findings import RootKind
from inwards_core.ports import RuleDocument
from inwards_core.rules.kinds import Family


def root_digests(
    documents: Sequence[RuleDocument], families: Sequence[Family]
) -> Mapping[RootKind, str]:
    """sha256 per root over the sorted (path inside the root, sha256 of the bytes) of every
    definition file, so adding, deleting, renaming or editing one (same size or not)
    changes it; the core digest also covers each family's distribution and version, the
    org digest each rule pack's (named by its documents)."""
    entries: dict[RootKind, list[str]] = {root: [] for root in RootKind}
    for family in families:
        entries[RootKind.CORE].append(f"family\0{family.distribution}\0{family.version}")
    packs = {
        f"pack\0{document.family}\0{document.family_version}"
        for document in documents
        if document.root is RootKind.ORG and document.family
    }
    entries[RootKind.ORG] += packs
    for document in documents:
        entries[document.root].append(
            f"file\0{document.root_relative}\0{hashlib.sha256(document.data).hexdigest()}"
        )
    return {
        root: hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()
        for root, lines in entries.items()
    }
