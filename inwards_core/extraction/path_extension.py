"""Modules whose contents the files don't tell: a module that extends or replaces `__path__`
(other distributions or directories may then add modules below it: `pkgutil.extend_path`,
`__path__ = ...`, `__path__.append(...)`, `__path__ += ...`), the names a module puts in
`sys.modules` (`sys.modules["pkg.cli"] = module`: importable, yet no file stands for them),
and a module that adds an import hook to `sys.meta_path` (`sys.meta_path.insert(0,
Finder())`: the finder may serve any name, such as an old module name mapped to its new one).

Read from CPython's tree, walking only the branches that hold a line naming `__path__`,
`modules` or `meta_path`; the skeleton reader leaves every file with such a line to the full
parse.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from inwards_core.extraction.dynamic_folding import Folded, Unreadable

_HINT_LINE = re.compile(r"__path__|modules|meta_path")
_PATH = "__path__"
_SYS_MODULES = "sys.modules"
_META_PATH = "sys.meta_path"
# What mutates a list in place: `__path__.append(...)` and the like.
_MUTATORS = frozenset({"append", "extend", "insert", "__iadd__", "__setitem__"})
_MAX_REGISTERED = 1_000  # names kept from one file; a real module registers a handful


def has_path_hint(text: str) -> bool:
    """Whether the text may extend `__path__`, register a name in `sys.modules` or add an
    import hook to `sys.meta_path`."""
    return (
        _PATH in text or "modules[" in text or "modules.setdefault" in text or "meta_path" in text
    )


class PathFacts(NamedTuple):
    """What `path_facts` reads of one module (see `ModuleFacts`)."""

    extends_path: bool = False
    registers: tuple[str, ...] = ()
    import_hook_line: int = 0


def path_facts(
    tree: ast.Module,
    text: str,
    module: str,
    meanings: Callable[[ast.expr], set[str]],
    fold: Callable[[ast.expr], Folded],
) -> PathFacts:
    """Whether the module extends `__path__`, the other names it registers in
    `sys.modules`, and the line of its first statement that adds a finder to
    `sys.meta_path` (0 when none does). `meanings` gives the dotted names an expression may
    stand for (`sys.modules` through `import sys as s`), `fold` folds a constant key."""
    extends = False
    registered: set[str] = set()
    hook_lines: list[int] = []
    for node in _nodes_on_hint_lines(tree, text):
        if _extends_path(node):
            extends = True
        if _adds_finder(node, meanings):
            hook_lines.append(getattr(node, "lineno", 0))
        for key in _registered_keys(node, meanings):
            name = _folded_name(key, fold)
            if name is not None and name != module and len(registered) < _MAX_REGISTERED:
                registered.add(name)
    return PathFacts(extends, tuple(sorted(registered)), min(hook_lines, default=0))


def _extends_path(node: ast.AST) -> bool:
    if isinstance(node, ast.Assign):
        return any(_names_path(target) for target in node.targets)
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return node.value is not None and _names_path(node.target)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in _MUTATORS and _is_path(node.func.value)
    return False


def _names_path(target: ast.expr) -> bool:
    """`__path__`, `__path__[:]`, or either inside a tuple target."""
    if isinstance(target, ast.Tuple | ast.List):
        return any(_names_path(item) for item in target.elts)
    if isinstance(target, ast.Subscript | ast.Starred):
        return _is_path(target.value)
    return _is_path(target)


def _is_path(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Name) and expr.id == _PATH


def _adds_finder(node: ast.AST, meanings: Callable[[ast.expr], set[str]]) -> bool:
    """`sys.meta_path.insert(0, finder)`, `.append(...)`, `.extend(...)`, `sys.meta_path +=
    [...]`, `sys.meta_path[:0] = [...]` or `sys.meta_path = [...]`; reading the list or
    removing from it adds nothing."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in _MUTATORS and _META_PATH in meanings(node.func.value)
    if isinstance(node, ast.AugAssign):
        return _META_PATH in meanings(node.target)
    if isinstance(node, ast.Assign):
        # `meta_path = ...` after `from sys import meta_path` rebinds a name of the module.
        return any(
            _META_PATH in meanings(target.value if isinstance(target, ast.Subscript) else target)
            for target in node.targets
            if isinstance(target, ast.Attribute | ast.Subscript)
        )
    return False


def _registered_keys(node: ast.AST, meanings: Callable[[ast.expr], set[str]]) -> Iterator[ast.expr]:
    """The keys a statement or call stores in `sys.modules`."""
    if isinstance(node, ast.Assign):
        for target in node.targets:
            for item in target.elts if isinstance(target, ast.Tuple | ast.List) else [target]:
                if isinstance(item, ast.Subscript) and _SYS_MODULES in meanings(item.value):
                    yield item.slice
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if _SYS_MODULES not in meanings(node.func.value):
            return
        if node.func.attr == "setdefault" and node.args:
            yield node.args[0]
        elif node.func.attr == "update" and node.args and isinstance(node.args[0], ast.Dict):
            yield from (key for key in node.args[0].keys if key is not None)


def _folded_name(key: ast.expr, fold: Callable[[ast.expr], Folded]) -> str | None:
    try:
        name = fold(key)
    except Unreadable:
        return None  # a name chosen at run time names nothing to trust
    if not isinstance(name, str) or not name or not all(name.split(".")):
        return None
    return name


def _nodes_on_hint_lines(tree: ast.Module, text: str) -> Iterator[ast.AST]:
    """The assignments and calls of the branches that hold a hint line (a whole walk
    costs about as much as the parse)."""
    lines: list[int] = []
    line, counted = 1, 0
    for found in _HINT_LINE.finditer(text):
        line += text.count("\n", counted, found.start())
        counted = found.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    if not lines:
        return
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            first = getattr(child, "lineno", None)
            if first is not None:
                last = getattr(child, "end_lineno", None) or first
                index = bisect.bisect_left(lines, first)
                if index == len(lines) or lines[index] > last:
                    continue
                if isinstance(child, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Call):
                    yield child
            pending.append(child)
