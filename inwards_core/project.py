"""The immutable project model every check kind receives.

The engine builds it once per run: the configuration, the module index (which file is
which module, who owns what), and the facts of every file it read.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core.config.model import Config
from inwards_core.facts import ImportFact, ModuleFacts
from inwards_core.index import ModuleIndex, ModuleInfo
from inwards_core.suppressions import CommentVerdict


@attrs.frozen
class ProjectModel:
    """`facts` maps a file (POSIX, relative to the project dir) to its facts; it holds
    every file that was read, which is at least every file in `checked`. `checked` are the
    files per-file checks report on (all of them on a whole-project run, the named ones
    with PATHS). `whole_project` tells project-scope kinds whether they may run."""

    config: Config
    index: ModuleIndex
    facts: Mapping[str, ModuleFacts]
    checked: tuple[ModuleInfo, ...]
    whole_project: bool
    # Filled for review kinds (which run after suppressions are applied).
    suppression_verdicts: tuple[CommentVerdict, ...] = ()

    # Per-file resolved import targets, shared by every kind (filled on first use).
    _resolved: dict[str, tuple[tuple[ImportFact, str | None], ...]] = attrs.field(
        factory=dict, eq=False, repr=False, alias="_resolved"
    )

    def facts_of(self, info: ModuleInfo) -> ModuleFacts:
        return self.facts[info.file]

    def resolved_imports(self, info: ModuleInfo) -> tuple[tuple[ImportFact, str | None], ...]:
        """Each static import of the file with the module or name it reaches
        (`ModuleIndex.resolve_target`), computed once per run."""
        found = self._resolved.get(info.file)
        if found is None:
            resolve = self.index.resolve_target
            found = tuple((fact, resolve(fact)) for fact in self.facts[info.file].imports)
            self._resolved[info.file] = found
        return found
