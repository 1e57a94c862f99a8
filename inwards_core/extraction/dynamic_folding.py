"""Constant folding of the module name given to a loader: literals, `+`, `%`, `*`,
f-strings with constant fields, `"sep".join([...])`, `"...".format(...)` and names bound
once at module level. What can't be folded raises `Unreadable` with a short reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

_MAX_FOLDED = 10_000  # longer results are not module names; also bounds the work
_BIG_WIDTH = re.compile(r"\d{5,}")

Folded = str | int | float | tuple[object, ...]


class Unreadable(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ConstantFolder:
    """Folds expressions of one module: `constants` are its names bound once at module
    level, `bound` every name it binds (`__name__` and `__package__` stay the module's
    own only while it doesn't bind them)."""

    def __init__(
        self,
        module: str,
        package: str,
        constants: Mapping[str, ast.expr],
        bound: Mapping[str, object],
    ) -> None:
        self._module = module
        self._package = package
        self._constants = constants
        self._bound = bound

    def fold(self, expr: ast.expr, depth: int = 0) -> Folded:
        if depth > 20:
            raise Unreadable("an expression")
        if isinstance(expr, ast.Constant):
            if isinstance(expr.value, str | int | float):
                return expr.value
            raise Unreadable("an expression")
        if isinstance(expr, ast.JoinedStr):
            return self._fold_fstring(expr, depth)
        if isinstance(expr, ast.BinOp):
            return self._fold_operation(expr, depth)
        if isinstance(expr, ast.Tuple):
            return tuple(self.fold(item, depth + 1) for item in expr.elts)
        if isinstance(expr, ast.Name):
            value = self._constants.get(expr.id)
            if value is not None:
                return self.fold(value, depth + 1)
            if expr.id == "__name__" and expr.id not in self._bound:
                return self._module
            if expr.id == "__package__" and expr.id not in self._bound:
                return self._package
            raise Unreadable("a variable")
        if isinstance(expr, ast.Call):
            return self._fold_call(expr, depth)
        if isinstance(expr, ast.Attribute):
            raise Unreadable("an attribute")
        if isinstance(expr, ast.Subscript):
            raise Unreadable("a subscript")
        if isinstance(expr, ast.Starred):
            raise Unreadable("unpacked arguments")
        raise Unreadable("an expression")

    def _fold_fstring(self, expr: ast.JoinedStr, depth: int) -> str:
        parts: list[str] = []
        for value in expr.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
                continue
            if not isinstance(value, ast.FormattedValue):
                raise Unreadable("an expression")
            try:
                folded = self.fold(value.value, depth + 1)
                spec = ""
                if value.format_spec is not None:
                    spec = _text(self.fold(value.format_spec, depth + 1))
            except Unreadable:
                raise Unreadable("a run-time f-string field") from None
            if value.conversion == ord("r"):
                folded = repr(folded)
            elif value.conversion == ord("a"):
                folded = ascii(folded)
            elif value.conversion == ord("s"):
                folded = str(folded)
            if _BIG_WIDTH.search(spec):
                raise Unreadable("an expression")
            try:
                parts.append(format(folded, spec))
            except (TypeError, ValueError):
                raise Unreadable("an expression") from None
        return _bounded("".join(parts))

    def _fold_operation(self, expr: ast.BinOp, depth: int) -> Folded:
        left = self.fold(expr.left, depth + 1)
        right = self.fold(expr.right, depth + 1)
        try:
            if isinstance(expr.op, ast.Add):
                if isinstance(left, str) and isinstance(right, str):
                    return _bounded(left + right)
                if isinstance(left, int | float) and isinstance(right, int | float):
                    return left + right
            elif isinstance(expr.op, ast.Mod) and isinstance(left, str):
                if _BIG_WIDTH.search(left):
                    raise Unreadable("an expression")
                return _bounded(left % _small_numbers(right))
            elif isinstance(expr.op, ast.Mult):
                if isinstance(left, str) and isinstance(right, int):
                    left, right = right, left
                if isinstance(left, int) and isinstance(right, str):
                    if left * len(right) > _MAX_FOLDED:
                        raise Unreadable("an expression")
                    return left * right
        except (TypeError, ValueError, KeyError, OverflowError):
            raise Unreadable("an expression") from None
        raise Unreadable("an expression")

    def _fold_call(self, expr: ast.Call, depth: int) -> str:
        func = expr.func
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Constant)
            and isinstance(func.value.value, str)
        ):
            raise Unreadable("a call")
        template = func.value.value
        if func.attr == "join" and len(expr.args) == 1 and not expr.keywords:
            items = expr.args[0]
            if not isinstance(items, ast.List | ast.Tuple):
                raise Unreadable("a call")
            parts = [self.fold(item, depth + 1) for item in items.elts]
            if not all(isinstance(part, str) for part in parts):
                raise Unreadable("an expression")
            return _bounded(template.join(str(part) for part in parts))
        if func.attr == "format":
            if any(isinstance(arg, ast.Starred) for arg in expr.args) or any(
                keyword.arg is None for keyword in expr.keywords
            ):
                raise Unreadable("unpacked arguments")
            if _BIG_WIDTH.search(template):
                raise Unreadable("an expression")
            args = [_small_numbers(self.fold(arg, depth + 1)) for arg in expr.args]
            kwargs = {
                str(k.arg): _small_numbers(self.fold(k.value, depth + 1)) for k in expr.keywords
            }
            try:
                return _bounded(template.format(*args, **kwargs))
            except (IndexError, KeyError, ValueError, TypeError, AttributeError):
                raise Unreadable("an expression") from None
        raise Unreadable("a call")


def _bounded(text: str) -> str:
    if len(text) > _MAX_FOLDED:
        raise Unreadable("an expression")
    return text


def _small_numbers(value: Folded) -> Folded:
    """`value` when no number in it could be a width or precision that writes more than a
    module name could hold (`"%*s" % (900000000, "x")`, `"{:>{}}".format("x", 900000000)`
    take the width from an argument, where `_BIG_WIDTH` doesn't see it)."""
    items = value if isinstance(value, tuple) else (value,)
    for item in items:
        if isinstance(item, int | float) and not -_MAX_FOLDED <= item <= _MAX_FOLDED:
            raise Unreadable("an expression")
    return value


def _text(value: Folded) -> str:
    if not isinstance(value, str):
        raise Unreadable("an expression")
    return value
