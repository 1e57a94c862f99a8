"""Helpers over CPython's tree for the dynamic reader (`dynamic`): the statements that
bind names in a module's scope, the calls on given lines, a call's argument by position or
keyword."""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterable, Iterator

_WORD = re.compile(r"\w+")


def collect_calls(node: ast.AST, lines: list[int], calls: list[ast.Call]) -> None:
    for child in ast.iter_child_nodes(node):
        first = getattr(child, "lineno", None)
        decorators = getattr(child, "decorator_list", None)
        if decorators:
            first = min(first or decorators[0].lineno, decorators[0].lineno)  # above `def`
        if first is not None:
            last = getattr(child, "end_lineno", None) or first
            index = bisect.bisect_left(lines, first)
            if index == len(lines) or lines[index] > last:
                continue
            if isinstance(child, ast.Call):
                calls.append(child)
        collect_calls(child, lines, calls)


def last_word(name: str) -> str:
    """The run of word characters `name` ends with ("" when it ends otherwise)."""
    runs = list(_WORD.finditer(name))
    return runs[-1].group() if runs and runs[-1].end() == len(name) else ""


def argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for index, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None
        if index == position:
            return arg
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    return None


def module_scope_statements(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements that bind names in the module's scope (blocks, not functions/classes)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list):
                yield from module_scope_statements(inner)
        for handler in getattr(statement, "handlers", ()):
            yield from module_scope_statements(handler.body)
        for case in getattr(statement, "cases", ()):
            yield from module_scope_statements(case.body)


def bound_names(statement: ast.stmt) -> Iterator[str]:
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        targets = [statement.target]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        targets = [item.optional_vars for item in statement.items if item.optional_vars]
    elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        yield statement.name
    elif isinstance(statement, ast.Import | ast.ImportFrom):
        for alias in statement.names:
            yield (alias.asname or alias.name).partition(".")[0]
    elif isinstance(statement, ast.Delete):
        targets = list(statement.targets)
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                yield node.id
