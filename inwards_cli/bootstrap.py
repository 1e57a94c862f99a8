"""The composition root: the only place where adapters are constructed."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_cli.adapters.org_rules import org_root
from inwards_cli.adapters.parallel import parse_in_processes
from inwards_cli.adapters.rule_roots import LocalRuleSources, UserRoot, user_rules_directory
from inwards_core.adapters.caches import NullExtractionCache
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.engine import Ports
from inwards_core.extraction.facts_reading import ParseMany, extractor_key
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import ExtractionCache, GrammarBinaries, ProjectFiles
from inwards_core.rules.kinds import Family

if TYPE_CHECKING:
    from inwards_cli.adapters.file_stamps import StampedProjectFiles
    from inwards_cli.adapters.progress import Progress
    from inwards_cli.adapters.run_memo import DiskRunMemo

CACHE_DIR = Path(".inwards") / "cache"


def cache_disabled(no_cache: bool) -> bool:
    return no_cache or os.environ.get("INWARDS_NO_CACHE", "") not in ("", "0")


@attrs.frozen
class Adapters:
    __repr__ = value_repr

    files: ProjectFiles
    cache: ExtractionCache
    grammars: GrammarBinaries
    parse_many: ParseMany
    memo: DiskRunMemo | None = None  # with the files' stamps: a whole-project `check`
    stamped: StampedProjectFiles | None = None  # the files that keep those stamps

    @property
    def ports(self) -> Ports:
        return Ports(self.files, self.cache, self.grammars, self.parse_many, self.memo)


def bootstrap(
    project_dir: Path,
    *,
    no_cache: bool = False,
    progress: Progress | None = None,
    memo_context: str | None = None,
    verify: bool = False,
) -> Adapters:
    """With `memo_context` (see `run_memo.memo_context`) and the cache on, the files'
    digests come from their stamps where they can, and the run's report is remembered."""
    grammars = StandardGrammars()
    cache: ExtractionCache
    files: ProjectFiles = LocalProjectFiles(project_dir)
    memo = None
    stamped = None
    if cache_disabled(no_cache):
        cache = NullExtractionCache()
    else:
        # Imported here: the pack's reader and writer (hashlib, json, fcntl) are not used
        # by a check without the cache.
        from inwards_cli.adapters.disk_cache import DiskExtractionCache

        cache = DiskExtractionCache(project_dir / CACHE_DIR, extractor_key(grammars))
        if memo_context is not None:
            # Imported here: a check of named files (the one-file path) never uses them.
            from inwards_cli.adapters.file_stamps import FileStamps, StampedProjectFiles
            from inwards_cli.adapters.run_memo import DiskRunMemo

            stamps = FileStamps(project_dir / CACHE_DIR)
            files = stamped = StampedProjectFiles(project_dir, stamps, verify=verify)
            memo = DiskRunMemo(project_dir / CACHE_DIR, memo_context, extractor_key(grammars))
    return Adapters(
        files=files,
        memo=memo,
        stamped=stamped,
        cache=cache,
        grammars=grammars,
        parse_many=(
            parse_in_processes
            if progress is None
            else functools.partial(parse_in_processes, progress=progress)
        ),
    )


def rule_sources(
    families: tuple[Family, ...],
    *,
    project_dir: Path | None,
    user_rules: str,
    isolated: bool,
) -> LocalRuleSources:
    """Core, org, user and project roots; the user root is skipped with `--isolated` or
    when the project says `user-rules = "off"` (the org root is kept: it is the
    environment's, like the families)."""
    directory, note, warning = user_rules_directory(os.environ)
    if isolated:
        ignored = "--isolated"
    elif user_rules == "off":
        ignored = 'user-rules = "off" in [tool.inwards]'
    else:
        ignored = ""
    return LocalRuleSources(
        families,
        project_dir=project_dir,
        user=UserRoot(directory, note, warning, ignored),
        org=org_root(os.environ, project_dir),
    )
