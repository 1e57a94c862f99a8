"""Reading the facts of the modules a check needs: from the extraction cache by content key,
or parsed (in this process or, through `ParseMany`, in workers) and put in the cache. The
engine decides which modules; this module reads them, the same way for the first pass and for
a kind that asks for one more module (`ProjectModel.extended_at`, `ProjectModel.top_names`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core.extraction import EXTRACTOR_ID
from inwards_core.index.naming import ModuleInfo
from inwards_core.model.facts import FileProblemKind, ModuleFacts
from inwards_core.model.findings import NotChecked
from inwards_core.ports import (
    CacheKey,
    ExtractionCache,
    GrammarBinaries,
    ProjectFiles,
)
from inwards_core.verification import CachedFactsDiffer, CacheMismatch, facts_difference

if TYPE_CHECKING:
    pass


@attrs.frozen
class ParseJob:
    """One file to extract: everything `extract` needs, picklable."""

    file: str
    data: bytes
    module: str
    is_package: bool
    check_syntax: bool = True
    names: bool = False  # read ModuleFacts.names too (`ProjectModel.top_names` asks)
    content: bool = False  # read ModuleFacts.content only (`ProjectModel.content` asks)


ParseMany = Callable[[Sequence[ParseJob], GrammarBinaries], list[ModuleFacts]]


def parse_job(job: ParseJob, grammars: GrammarBinaries) -> ModuleFacts:
    from inwards_core.extraction.pipeline import extract  # only when something is parsed

    return extract(
        job.data,
        module=job.module,
        is_package=job.is_package,
        grammars=grammars,
        check_syntax=job.check_syntax,
        names=job.names,
        content=job.content,
    )


def parse_serially(jobs: Sequence[ParseJob], grammars: GrammarBinaries) -> list[ModuleFacts]:
    return [parse_job(job, grammars) for job in jobs]


def extractor_key(
    grammars: GrammarBinaries,
    *,
    check_syntax: bool = True,
    names: bool = False,
    content: bool = False,
) -> str:
    """Goes into every cache key: a new extractor or grammar never reads old facts, and
    facts read without the whole-file syntax check (or without the top-level names) never
    stand in for checked ones (or ones with names). Content facts are entries of their
    own, whatever the syntax check (they don't depend on it)."""
    if content:
        from inwards_core.extraction.content import CONTENT_ID  # content rules only

        return "|".join((EXTRACTOR_ID, CONTENT_ID, *grammars.grammar_ids))
    mode = ("checked" if check_syntax else "imports-only") + ("+names" if names else "")
    return "|".join((EXTRACTOR_ID, mode, *grammars.grammar_ids))


def read_facts(
    selected: Iterable[ModuleInfo],
    files: ProjectFiles,
    cache: ExtractionCache,
    grammars: GrammarBinaries,
    parse_many: ParseMany,
    check_syntax: bool,
    *,
    verify: bool = False,
    names: bool = False,
    content: bool = False,
    kept: dict[str, bytes] | None = None,
    digests: Mapping[str, str] | None = None,
    changed: list[str] | None = None,
) -> tuple[dict[str, ModuleFacts], list[NotChecked]]:
    """The facts of the selected modules, from the cache or parsed; with `kept`, each
    file's bytes are left there too (the frames of the findings are cut from them).

    `digests` are the files' digests as the run already knows them (`source_digests`): a
    file whose cached facts are found under its digest is not read at all. A file that
    must be parsed is read, and the digest of the bytes read decides its key; a file whose
    bytes are no longer those of its digest in `digests` is added to `changed`."""
    extractor = extractor_key(grammars, check_syntax=check_syntax, names=names, content=content)
    facts: dict[str, ModuleFacts] = {}
    unreadable: list[NotChecked] = []
    misses: list[tuple[ParseJob, CacheKey]] = []
    from_cache: dict[str, ModuleFacts] = {}  # to verify: file -> what the cache holds
    known = {} if verify or kept is not None or digests is None else digests
    # A cache that keeps nothing needs no keys; a check of changes (`changed`) still does.
    keyed = not cache.keeps_nothing or changed is not None
    for info in selected:
        digest = known.get(info.file)
        if digest is not None:
            cached = cache.get(CacheKey(digest, info.name, info.is_package, extractor))
            if cached is not None:
                facts[info.file] = cached
                continue
        try:
            data = files.read_bytes(info.file)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            unreadable.append(
                NotChecked(
                    info.file, f"{info.file} could not be read ({reason}), so it was not checked."
                )
            )
            continue
        if kept is not None:
            kept[info.file] = data
        digest = hashlib.sha256(data).hexdigest() if keyed else ""
        key = CacheKey(digest, info.name, info.is_package, extractor)
        if changed is not None and digests is not None and digests.get(info.file) != key.digest:
            changed.append(info.file)  # edited during the run
        cached = cache.get(key)
        if cached is not None and not verify:
            facts[info.file] = cached
        elif content and not _may_hold_content(data):
            # No trigger in its bytes: nothing to parse, and no job for a worker to take.
            from inwards_core.extraction.content import NO_CONTENT

            facts[info.file] = NO_CONTENT
            if cached != NO_CONTENT:
                cache.put(key, NO_CONTENT)
        else:
            if cached is not None:
                from_cache[info.file] = cached
            job = ParseJob(
                info.file, data, info.name, info.is_package, check_syntax, names, content
            )
            misses.append((job, key))
    if misses:
        parsed = parse_many([job for job, _ in misses], grammars)
        for (job, key), result in zip(misses, parsed, strict=True):
            facts[job.file] = result
            if from_cache.get(job.file) == result:
                continue  # verified: the entry stands as it is
            # A file stopped by a limit is tried again next run (the limit may have been
            # the machine's load, not the file).
            if result.problem is None or result.problem.kind is not FileProblemKind.LIMIT:
                cache.put(key, result)
    differ = [
        CacheMismatch(file, facts_difference(cached, facts[file]))
        for file, cached in sorted(from_cache.items())
        if cached != facts[file]
    ]
    if differ:
        cache.flush(prune=False)  # the fresh facts replace the entries that differed
        raise CachedFactsDiffer(differ)
    return facts, unreadable


def _may_hold_content(data: bytes) -> bool:
    from inwards_core.extraction.content import may_hold_content  # content rules only

    return may_hold_content(data)
