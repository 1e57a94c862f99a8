"""What package-shape (INW007) and missing-member (INW008) share: which `[[tool.inwards.shape]]`
entry shapes a package, how a member pattern matches a member, and how messages name
packages and their directories.

Shape selectors name packages, not prefixes: `a.b` is that package alone, `a.*` each package
one segment below `a`, `a.**` every package below `a` at any depth (never `a` itself). Member
patterns are `fnmatchcase` globs on a member's name: `name` matches a module or a subpackage,
`name/` a subpackage only, `name.py` (or `name.pyi`) a module only.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

import attrs

from inwards_core import LIST_LIMIT, Config, quoted
from inwards_core.families.inw.module_entries import pattern_of

if TYPE_CHECKING:  # the index's members module is loaded when a shape is first checked
    from inwards_core import PackageMember, Shape

GLOB_CHARACTERS = frozenset("*?[")
MODULE_SUFFIXES = (".py", ".pyi")


def selector_matches(selector: str, package: str) -> bool:
    """Whether a shape selector (or an `only-in` entry) names `package` itself."""
    try:
        match = pattern_of(selector).match(package)
    except ValueError:  # the loader refuses it first; a bad entry names nothing
        return False
    return match is not None and match.depth == package.count(".") + 1


def split_pattern(pattern: str) -> tuple[str, bool | None]:
    """A member pattern's name glob and the kind it takes: True a subpackage only, False a
    module only, None either."""
    if pattern.endswith("/"):
        return pattern[:-1], True
    for suffix in MODULE_SUFFIXES:
        if pattern.endswith(suffix):
            return pattern[: -len(suffix)], False
    return pattern, None


def member_matches(pattern: str, member: PackageMember) -> bool:
    glob, kind = split_pattern(pattern)
    if kind is not None and kind != member.is_package:
        return False
    return fnmatch.fnmatchcase(member.name, glob)


def first_match(patterns: Sequence[str], member: PackageMember) -> str | None:
    return next((pattern for pattern in patterns if member_matches(pattern, member)), None)


def is_literal(pattern: str) -> bool:
    return not GLOB_CHARACTERS.intersection(pattern)


class MemberPatterns:
    """Member patterns compiled once per run (a whole-project run matches every member of
    every shaped package): a literal name is compared, a glob is a regular expression."""

    __slots__ = ("_compiled", "patterns")

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = tuple(patterns)
        self._compiled = tuple(_compiled(pattern) for pattern in self.patterns)

    def first(self, name: str, is_package: bool) -> str | None:
        """The first pattern that matches a member `name` of that kind, or None."""
        for pattern, (matches, kind) in zip(self.patterns, self._compiled, strict=True):
            if (kind is None or kind is is_package) and matches(name):
                return pattern
        return None


def _compiled(pattern: str) -> tuple[Callable[[str], object], bool | None]:
    glob, kind = split_pattern(pattern)
    if is_literal(glob):
        return glob.__eq__, kind
    return re.compile(fnmatch.translate(glob)).match, kind


@attrs.frozen
class ShapeRule:
    """A shape with its member patterns compiled: `forbid` is None when the shape forbids
    nothing, `allowed` None when it has no `allow` (anything goes), else its `allow` and
    `require` entries; `required` holds each `require` entry on its own."""

    shape: Shape
    forbid: MemberPatterns | None
    allowed: MemberPatterns | None
    required: tuple[MemberPatterns, ...]

    @classmethod
    def of(cls, shape: Shape) -> ShapeRule:
        return cls(
            shape,
            MemberPatterns(shape.forbid) if shape.forbid else None,
            None if shape.allow is None else MemberPatterns((*shape.allow, *shape.require)),
            tuple(MemberPatterns((requirement,)) for requirement in shape.require),
        )


class Shapes:
    """The shape of each package (the first `[[tool.inwards.shape]]` entry with a selector
    naming it), each answer kept for the run."""

    __slots__ = ("_known", "_rules")

    def __init__(self, config: Config) -> None:
        self._rules = tuple(ShapeRule.of(shape) for shape in config.shapes)
        self._known: dict[str, ShapeRule | None] = {}

    def __bool__(self) -> bool:
        return bool(self._rules)

    def of(self, package: str) -> ShapeRule | None:
        if package in self._known:
            return self._known[package]
        found = next(
            (
                rule
                for rule in self._rules
                if any(selector_matches(selector, package) for selector in rule.shape.packages)
            ),
            None,
        )
        self._known[package] = found
        return found

    def dead_selectors(self, packages: Sequence[str]) -> Iterator[tuple[Shape, int]]:
        """Each selector (its shape and position in `packages`) that names no package."""
        for rule in self._rules:
            for position, selector in enumerate(rule.shape.packages):
                if not any(selector_matches(selector, package) for package in packages):
                    yield rule.shape, position


def package_dir(config: Config, package: str) -> str:
    """The directory of a package as the user sees it, relative to the project directory,
    with a trailing slash (`src/shop/orders/`)."""
    root = config.root.replace("\\", "/").strip().strip("/")
    while root.startswith("./"):
        root = root[2:]
    path = package.replace(".", "/") + "/"
    return path if root in ("", ".") else f"{root}/{path}"


def listed(entries: Sequence[str]) -> str:
    """Entries as a message lists them: each in backquotes, comma-separated, cut to size."""
    return quoted(", ".join(f"`{quoted(entry)}`" for entry in entries), LIST_LIMIT)
