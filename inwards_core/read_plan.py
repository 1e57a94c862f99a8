"""What a run reads: which modules' facts (the layers' and what the enabled rules ask for,
`ReadScope`), which named paths hold something to check, and which modules' content facts
the first batch reads. The engine (`inwards_core.engine`) decides with these; they read no
file except the bytes `content_wanted` tests for a rule's words."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from inwards_core.config.patterns import ModulePattern, parse_module_pattern
from inwards_core.config.values import Config
from inwards_core.index.modules import ModuleIndex, ModuleInfo
from inwards_core.model.findings import NotChecked
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.kinds import ReadScope, Scope
from inwards_core.rules.project import ProjectModel
from inwards_core.rules.selection import ActiveRule


def normalise_root(root: str) -> str:
    root = root.strip().strip("/")
    return "" if root in ("", ".") else root


def under(path: str, prefix: str) -> bool:
    return prefix == "" or path == prefix or path.startswith(prefix + "/")


def modules_to_read(index: ModuleIndex, needs: ReadNeeds) -> list[ModuleInfo]:
    """A whole-project run reads the code a layer owns, and what an enabled rule asks for
    beyond it (see `ReadScope`): the rules judge imports made from layers, and what the
    other modules are (packages in no layer) the index knows from the listing alone. With
    contexts declared it reads every module, ignored ones too: a context's rules judge
    imports from anywhere, and its cycles may run through code no layer owns."""
    return [info for info in index.modules.values() if needs.wants(info, index)]


def listing_judges(
    enabled: Sequence[ActiveRule], index: ModuleIndex
) -> tuple[Callable[[ModuleInfo], bool], ...]:
    """With PATHS, the tests of the enabled per-file kinds that judge a named module from
    the file listing alone (`CheckKind.judges_listed`)."""
    judges: list[Callable[[ModuleInfo], bool]] = []
    for rule in enabled:
        kind = rule.rule.kind
        if kind.judges_listed is not None and kind.scope is Scope.FILE:
            judge = kind.judges_listed(index, rule.options)
            if judge is not None:
                judges.append(judge)
    return tuple(judges)


def named_modules_to_read(
    paths: Sequence[str],
    config: Config,
    index: ModuleIndex,
    needs: ReadNeeds,
    judges: Sequence[Callable[[ModuleInfo], bool]] = (),
) -> tuple[list[ModuleInfo], tuple[ModuleInfo, ...], list[NotChecked]]:
    """The modules under the named paths that a whole-project run would read, in file
    order; the others there that a kind judges from the listing alone (their facts are
    not read); and a note for each path that holds neither, saying why."""
    root = normalise_root(config.root)
    chosen: dict[str, ModuleInfo] = {}
    judged: dict[str, ModuleInfo] = {}
    refused: list[NotChecked] = []
    for path in paths:
        norm = path.strip("/")
        norm = "" if norm == "." else norm
        inside = index.modules_under(norm)
        matched: list[ModuleInfo] = []
        listed_here = False
        for info in inside:
            if needs.wants(info, index):
                matched.append(info)
            elif judges and any(judge(info) for judge in judges):
                judged[info.file] = info
                listed_here = True
        if not matched and not listed_here:
            if root and not (under(norm, root) or under(root, norm)):
                reason = f'is outside root "{config.root}"'
            elif inside:
                reason = (
                    "holds no module that a layer or an enabled rule covers"
                    if needs.beyond_layers
                    else "holds no module that a layer owns"
                )
            else:
                reason = "holds no Python module"
            refused.append(
                NotChecked(path or ".", f"{path or '.'} {reason}, so it was not checked.")
            )
        for info in matched:
            chosen[info.file] = info
    listed = tuple(judged[file] for file in sorted(judged) if file not in chosen)
    return [chosen[file] for file in sorted(chosen)], listed, refused


@attrs.frozen
class ReadNeeds:
    """The union of what the enabled rules need read (`CheckKind.reads`)."""

    __repr__ = value_repr

    patterns: tuple[ModulePattern, ...] = ()
    every_module: bool = False
    chains_skipped: tuple[str, ...] = ()  # file-scope rules whose chains need the project
    every_file: bool = False  # contexts are declared: ignored modules are read too
    # Content rules: whether any runs, and per rule that wants a first batch, the imports
    # and words that narrow which checked modules' content it holds (empty: no narrowing).
    content: bool = False
    content_batches: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()

    @classmethod
    def of(
        cls, enabled: Sequence[ActiveRule], *, whole_project: bool, contexts: bool = False
    ) -> ReadNeeds:
        patterns: dict[str, ModulePattern] = {}
        every_module = False
        chains_skipped: list[str] = []
        content_batches: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        content = False
        for rule in enabled:
            kind = rule.rule.kind
            if kind.reads is None or kind.scope is Scope.REVIEW:
                continue
            if kind.scope is Scope.PROJECT and not whole_project:
                continue  # skipped with PATHS
            scope: ReadScope = kind.reads(rule.options)
            for text in scope.modules:
                try:
                    patterns.setdefault(text, parse_module_pattern(text))
                except ValueError:
                    continue  # the kind's options class rejects it first
            every_module = every_module or scope.every_module
            if scope.content:
                content = True
                if scope.content_batch:
                    content_batches.append((scope.content_imports, scope.content_words))
            if scope.import_graph:
                if whole_project:
                    every_module = True
                elif kind.scope is Scope.FILE:
                    chains_skipped.append(rule.code)
        return cls(
            tuple(patterns.values()),
            every_module,
            tuple(chains_skipped),
            contexts,
            content,
            tuple(content_batches),
        )

    def content_wanted(
        self, model: ProjectModel, read_bytes: Callable[[str], bytes | None]
    ) -> list[ModuleInfo]:
        """The checked modules whose content facts the first batch reads: those some
        content rule wants, by the packages they import (`ReadScope.content_imports`) and
        the words their text holds (`ReadScope.content_words`, tested on the bytes, so a
        module without them is neither decoded nor parsed)."""
        wanted: list[ModuleInfo] = []
        for info in model.checked:
            held: bytes | None = None
            for imports, words in self.content_batches:
                if imports and not model.imports_any(info, imports):
                    continue
                if words:
                    if held is None:
                        held = read_bytes(info.file) or b""
                    if not any(word.encode() in held for word in words):
                        continue
                wanted.append(info)
                break
        return wanted

    @property
    def beyond_layers(self) -> bool:
        return bool(self.patterns) or self.every_module or self.every_file

    def wants(self, info: ModuleInfo, index: ModuleIndex) -> bool:
        if info.layer is not None or self.every_file:
            return True
        if any(pattern.matches(info.name) for pattern in self.patterns):
            return True
        return self.every_module and not index.is_ignored(info.name)
