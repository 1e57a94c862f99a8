"""Where a new module may live, for `inwards mcp`'s `where_should_this_go`: the places to
probe (each layer's packages and, where contexts are declared, each context's package in
it), the words of a description matched against their names, and the ranking of the
places that accept the module.

Nothing here checks anything: `McpProject` checks each probe through the warm session, with
the probe's text as unsaved contents, and `ranked` orders the verdicts. The matching is
plain word matching, said as such in the answer; it understands no more than that.
"""

from __future__ import annotations

import ast
import os
import re
import tokenize
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from inwards_core.config.contexts import owning_context
from inwards_core.config.feature_values import Context
from inwards_core.config.values import Config
from inwards_core.index.modules import ModuleIndex
from inwards_core.model.findings import Report

PROBE_NAME = "inwards_probe"
# Checks one call may run: each layer's best place first, then the best of the others.
MAX_PROBES = 24
MAX_WORDS = 20
# Modules below a place whose names are matched against the description, at most.
MAX_NEAR = 200
# A package's docstring is looked for in the first bytes of its __init__, and its start
# matched.
MAX_DOCSTRING_READ = 16 * 1024
MAX_DOCSTRING = 1000
_SKIPPED_TOKENS = frozenset(
    {tokenize.ENCODING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT}
)

RANKING = (
    "Places that accept the module come first, innermost layer first (the architecture "
    "prefers inner layers: fewer parts may break them). Within a layer, the place whose "
    "names (layer, context, package, the modules already in it) and package docstring "
    "share more words with the description comes first, then packages before existing "
    "modules, then by name. A word matches a name when they begin with the same letters, "
    "all but the last letter of the shorter and at least four."
)

# Words that say nothing about where code goes.
_STOP_WORDS = frozenset(
    """about after also and any are but can code does each for from function functions has
    have into its module modules new not one only our should some than that the their them
    then there these this those uses using what when where which while will with would
    write""".split()  # noqa: SIM905 (a paragraph reads better than a column)
)


@attrs.frozen
class Place:
    """One probe: the module checked (`module`, file `path`) in `package`, owned by
    `layer` (its `rank`, 0 innermost) and `context`. `existing`: `module` is a module of
    the project, probed with the imports added to its text; otherwise a new module holding
    only them. `base`: the probe's lines before the imports. `matched` pairs each
    description word with the name it matched; `near` lists the modules below the package
    whose names matched."""

    layer: str | None
    rank: int | None
    context: str | None
    package: str
    module: str
    path: str
    existing: bool = False
    base: int = 0
    matched: tuple[tuple[str, str], ...] = ()
    near: tuple[str, ...] = ()

    @property
    def score(self) -> int:
        return len({word for word, _ in self.matched})


def description_words(description: str | None) -> tuple[str, ...]:
    """The words of `description` worth matching: lowercase, three letters or more, not a
    stop word, each once, at most MAX_WORDS."""
    found: dict[str, None] = {}
    for word in re.findall(r"[a-z][a-z0-9]*", (description or "").lower()):
        if len(word) >= 3 and word not in _STOP_WORDS:
            found.setdefault(word, None)
    return tuple(found)[:MAX_WORDS]


def _matches(word: str, name: str) -> bool:
    shared = 0
    for left, right in zip(word, name, strict=False):
        if left != right:
            break
        shared += 1
    return shared >= max(4, min(len(word), len(name)) - 1) or word == name


def _segments(name: str) -> list[str]:
    return [part for part in re.split(r"[._\-\s]+", name.lower()) if part]


def _matched(words: Sequence[str], names: Iterable[str]) -> list[tuple[str, str]]:
    """(word, name) for each word that matches a segment of one of `names`."""
    pairs: list[tuple[str, str]] = []
    for name in names:
        for word in words:
            if any(_matches(word, segment) for segment in _segments(name)):
                pairs.append((word, name))
    return pairs


class Places:
    """The places of one project's layout (`config`, the session's module `index`)."""

    def __init__(self, config: Config, index: ModuleIndex, project_dir: Path) -> None:
        self.config = config
        self.index = index
        root = Path(config.root)
        self.source_root = root if root.is_absolute() else project_dir / root
        self.project_dir = project_dir
        self._owners: Mapping[str, Context] = {
            module: context for context in config.contexts for module in context.modules
        }

    def path_of(self, module: str) -> str:
        """The file a new module `module` would be, relative to the project directory."""
        path = self.source_root / Path(*module.split(".")).with_suffix(".py")
        return Path(os.path.relpath(path, self.project_dir)).as_posix()

    def one(self, module: str, words: Sequence[str]) -> Place:
        """The place of exactly `module` (its own file with the imports added, when it is
        a module of the project)."""
        info = self.index.module(module)
        layer = self.index.layer_of(module)
        context = owning_context(self._owners, module)
        path = info.file if info is not None else self.path_of(module)
        package = module if info is not None and info.is_package else module.rpartition(".")[0]
        place = Place(
            None if layer is None else layer.name,
            None if layer is None else layer.rank,
            None if context is None else context.name,
            package or module,
            module,
            path,
            existing=info is not None,
        )
        return self._with_matches(place, words)

    def all(self, words: Sequence[str]) -> tuple[list[Place], list[str]]:
        """A place per package of each layer (its literal modules, and the packages of
        contexts inside them), at most MAX_PROBES: each layer's best first; and the
        packages left out."""
        by_layer: dict[str, list[Place]] = {}
        for layer in self.config.layers:
            packages = [m for m in layer.modules if _literal(m)]
            for context in self.config.contexts:
                for owned in context.modules:
                    if any(owned.startswith(m + ".") for m in packages):
                        packages.append(owned)
            places = by_layer.setdefault(layer.name, [])
            for package in dict.fromkeys(packages):
                owner = self.index.layer_of(package)
                if owner is None or owner.name != layer.name:
                    continue  # a narrower layer owns it
                places.append(self._with_matches(self._place(package, layer.rank), words))
            places.sort(key=_within_layer)
        chosen = [places[0] for places in by_layer.values() if places]
        rest = sorted(
            (p for places in by_layer.values() for p in places[1:]),
            key=lambda p: (-p.score, p.rank if p.rank is not None else 0, p.package),
        )
        room = max(0, MAX_PROBES - len(chosen))
        chosen += rest[:room]
        probed = {id(place) for place in chosen}
        order = [p for places in by_layer.values() for p in places if id(p) in probed]
        return order, [p.package for p in rest[room:]]

    def _place(self, package: str, rank: int) -> Place:
        layer = self.index.layer_of(package)
        context = owning_context(self._owners, package)
        info = self.index.module(package)
        layer_name = None if layer is None else layer.name
        context_name = None if context is None else context.name
        if info is not None and not info.is_package:  # a module: add the imports to it
            return Place(layer_name, rank, context_name, package, package, info.file, existing=True)
        module = f"{package}.{PROBE_NAME}"
        return Place(layer_name, rank, context_name, package, module, self.path_of(module))

    def _with_matches(self, place: Place, words: Sequence[str]) -> Place:
        if not words:
            return place
        names = [name for name in (place.layer, place.context) if name]
        names += [place.package]
        matched = _matched(words, names)
        near: list[str] = []
        prefix = place.package + "."
        below = [
            info.name
            for info in self.index.modules_under(_folder(place.path))
            if info.name.startswith(prefix)
            and info.name != place.module
            and self._same(place, info.name)
        ][:MAX_NEAR]
        for name in sorted(below):
            pairs = _matched(words, [name.removeprefix(prefix)])
            if pairs:
                near.append(name)
                matched += [(word, name) for word, _ in pairs]
        told = description_words(self._docstring(place.package))
        matched += [
            (word, f'{place.package} docstring: "{said}"')
            for said in told
            for word in words
            if _matches(word, said)
        ]
        return attrs.evolve(place, matched=tuple(dict.fromkeys(matched)), near=tuple(near))

    def _docstring(self, package: str) -> str:
        """The start of a package's docstring, when its `__init__` opens with one: read
        up to its first token, never parsed further (cheap on any file)."""
        info = self.index.module(package)
        if info is None or not info.is_package:
            return ""
        try:
            with (self.project_dir / info.file).open("rb") as opened:
                head = opened.read(MAX_DOCSTRING_READ)
        except OSError:
            return ""
        return _first_string(head)[:MAX_DOCSTRING]

    def _same(self, place: Place, module: str) -> bool:
        """Whether `module` is owned by the layer and context that own `place`."""
        layer = self.index.layer_of(module)
        context = owning_context(self._owners, module)
        return (None if layer is None else layer.name) == place.layer and (
            None if context is None else context.name
        ) == place.context


def _first_string(head: bytes) -> str:
    """The string literal a module's text opens with (after comments and blank lines), or
    "" when it opens with anything else or can't be read."""
    lines = iter(head.splitlines(keepends=True))
    try:
        for token in tokenize.tokenize(lambda: next(lines, b"")):
            if token.type in _SKIPPED_TOKENS:
                continue
            if token.type == tokenize.STRING:
                value = ast.literal_eval(token.string)
                return value if isinstance(value, str) else ""
            return ""
    except (SyntaxError, ValueError, tokenize.TokenError, MemoryError, RecursionError):
        return ""
    return ""


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def _literal(module: str) -> bool:
    return not any(char in module for char in "*?[")


def _within_layer(place: Place) -> tuple[int, bool, str]:
    return (-place.score, place.existing, place.package)


def probe_text(description: str | None, imports: Sequence[str]) -> tuple[str, int]:
    """A new module holding `imports` (the description as a comment), and how many lines
    come before them."""
    lines = ['"""A module inwards checks where it might go (never written)."""', ""]
    if description:
        lines.insert(1, "# " + " ".join(description.split())[:500])
    return "\n".join(lines + import_lines(imports)) + "\n", len(lines)


def import_lines(imports: Sequence[str]) -> list[str]:
    lines = []
    for name in imports:
        parent, _, last = name.rpartition(".")
        lines.append(f"from {parent} import {last}" if parent else f"import {name}")
    return lines


def verdict(place: Place, report: Report, imports: Sequence[str]) -> dict[str, Any]:
    """A probe's answer: accepted when no error is reported on the lines of `imports`
    (which follow the probe's first `place.base` lines); each finding names the import of
    its line."""
    mine = [f for f in report.findings if f.file == place.path and f.span.line > place.base]
    reasons = [(f.severity.value, _reason(f.to_json(), place, imports)) for f in mine]
    refusals = [reason for severity, reason in reasons if severity == "error"]
    notes = [reason for severity, reason in reasons if severity != "error"]
    return {
        "layer": place.layer,
        "context": place.context,
        "package": place.package,
        "module": place.module,
        "path": place.path,
        "existing": place.existing,
        "accepted": not refusals,
        "refusals": refusals,
        "notes": notes,
        "matched": [{"word": word, "name": name} for word, name in place.matched],
        "near": list(place.near),
    }


def _reason(diagnostic: Mapping[str, Any], place: Place, imports: Sequence[str]) -> dict[str, Any]:
    keys = ("code", "message", "severity", "fix")
    reason = {key: diagnostic[key] for key in keys if key in diagnostic}
    position = int(diagnostic.get("line", 0)) - place.base - 1
    reason["import"] = imports[position] if 0 <= position < len(imports) else None
    return reason


def ranked(places: Sequence[Place], verdicts: Sequence[dict[str, Any]]) -> list[int]:
    """The positions of `places` in the answer's order: accepted first (innermost layer,
    then more matched words, packages before modules, by name), then refused ones in
    layer order."""

    def key(position: int) -> tuple[bool, int, int, bool, str]:
        place = places[position]
        rank = place.rank if place.rank is not None else 1 << 30
        accepted = bool(verdicts[position]["accepted"])
        score = place.score if accepted else 0
        return (not accepted, rank, -score, place.existing, place.package)

    return sorted(range(len(places)), key=key)
