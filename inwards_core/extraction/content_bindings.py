"""The bindings of `inwards_core.extraction.content_walk`: which targets a statement binds
(`x = ...`, `x: T = ...`, `type X = ...`, `with ... as x`, and at a module's top level an
attribute set there) and what a `BindingFact` keeps of each."""

from __future__ import annotations

import ast

from inwards_core.extraction.content_parts import annotation_names, dotted, positional
from inwards_core.model.content_facts import cut

_TYPE_ALIAS = getattr(ast, "TypeAlias", None)

Bound = tuple[ast.Name | ast.Attribute, ast.expr | None, ast.expr | None]


def bound_targets(statement: ast.stmt, top_level: bool) -> list[Bound]:
    """(target, value, annotation) for each name the statement binds; at the top level
    (`top_level`) also an attribute it sets (`Base.metadata.naming_convention = {...}`)."""
    targets: list[ast.expr] = []
    value: ast.expr | None = None
    annotation: ast.expr | None = None
    if isinstance(statement, ast.Assign):
        targets, value = statement.targets, statement.value
    elif isinstance(statement, ast.AnnAssign):
        targets, value, annotation = [statement.target], statement.value, statement.annotation
    elif _TYPE_ALIAS is not None and isinstance(statement, _TYPE_ALIAS):
        targets, value = [statement.name], statement.value
    elif isinstance(statement, ast.With | ast.AsyncWith):
        return [
            (item.optional_vars, item.context_expr, None)
            for item in statement.items
            if isinstance(item.optional_vars, ast.Name)
        ]
    found: list[Bound] = []
    for target in targets:
        if isinstance(target, ast.Name) or (
            isinstance(target, ast.Attribute) and top_level and dotted(target)
        ):
            found.append((target, value, annotation))
    return found


def binding_parts(
    target: ast.Name | ast.Attribute, value: ast.expr | None, annotation: ast.expr | None
) -> tuple[str, str, tuple[str, ...], str | None, tuple[str, ...]]:
    """(name, value callee, annotation names, string literal, call arguments) of a binding,
    as `BindingFact` keeps them."""
    callee, literal = "", None
    args: tuple[str, ...] = ()
    name = target.id if isinstance(target, ast.Name) else dotted(target)
    names = annotation_names(annotation)
    if isinstance(value, ast.Call):
        callee, args = dotted(value.func), positional(value.args)
    elif isinstance(value, ast.Constant) and isinstance(value.value, str):
        literal = cut(value.value)
    elif _is_alias(names) and isinstance(value, ast.Subscript | ast.BinOp):
        names = annotation_names(value)
    return name, callee, names, literal, args


def _is_alias(annotation: tuple[str, ...]) -> bool:
    """No declared type, or `TypeAlias`: the value is a type, its names are the binding's."""
    return not annotation or annotation[-1].rpartition(".")[2] == "TypeAlias"
