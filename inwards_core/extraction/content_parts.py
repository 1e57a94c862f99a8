"""Small readings of syntax-tree pieces for `inwards_core.extraction.content`: dotted
names, argument texts, annotation names, guards and trivial bodies. Iterative and
bounded: a hostile file may chain or nest expressions very deeply."""

from __future__ import annotations

import ast
import re

from inwards_core.model.content_facts import ARGUMENT_LIMIT, STRING_LIMIT, cut

_CHAIN_LIMIT = 64  # parts of a dotted name; longer chains are not names worth matching
# Wrappers whose arguments are the type itself (the last segment of the dotted name).
_UNION_LIKE = frozenset(
    ("Optional", "Union", "Mapped", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly")
)
_DOTTED_TEXT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*")
_ABORTS = frozenset(("abort",))


def dotted(node: ast.expr) -> str:
    """`a.b.c` for a name chain, `boto3.client().put_object` through calls; "" otherwise
    (or when longer than the bounds)."""
    parts: list[str] = []
    called = False
    current: ast.expr = node
    while len(parts) < _CHAIN_LIMIT:
        if isinstance(current, ast.Call):
            if called:
                return ""  # `f()()`: not a name chain
            called = True
            current = current.func
            continue
        suffix = "()" if called else ""
        called = False
        if isinstance(current, ast.Name):
            parts.append(current.id + suffix)
            text = ".".join(reversed(parts))
            return text if len(text) <= STRING_LIMIT else ""
        if not isinstance(current, ast.Attribute):
            return ""
        parts.append(current.attr + suffix)
        current = current.value
    return ""


def argument_text(node: ast.expr) -> str:
    """A positional argument as `CallFact.positional` keeps it: a dotted name, a string in
    quotes, the repr of a number, bool or None (`HTTPException(404)` keeps "404")."""
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return '"' + node.value[: STRING_LIMIT - 2] + '"'
        if node.value is None or isinstance(node.value, bool | int | float):
            return cut(repr(node.value))
        return ""
    if isinstance(node, ast.Name | ast.Attribute):
        return dotted(node)
    return ""


def value_text(node: ast.expr) -> str:
    """A keyword's value: as `argument_text`, a dict literal as `dict_text`, a list or tuple
    literal as `list_text`."""
    if isinstance(node, ast.Dict):
        return dict_text(node)
    if isinstance(node, ast.List | ast.Tuple):
        return list_text(node)
    return argument_text(node)


_PLAIN_KEY = re.compile(r"[A-Za-z0-9_ .\-]{0,40}")
_ENTRY_LIMIT = 64  # entries of one dict looked at; the text's length bounds it further
_MORE = "..."


def _key_text(key: ast.expr | None, value: ast.expr) -> str:
    """One key of a dict literal: `**name` for a spread mapping (`**?` when not a name),
    a dotted name, a number's repr, a plain string in quotes, or `?` for any other key
    (a string holding a separator of the dict text among them)."""
    if key is None:
        return "**" + (dotted(value) or "?")
    if isinstance(key, ast.Constant):
        if isinstance(key.value, str) and _PLAIN_KEY.fullmatch(key.value):
            return '"' + key.value + '"'
        if isinstance(key.value, int) and not isinstance(key.value, bool):
            return repr(key.value) if abs(key.value) < 10**9 else "?"
        return "?"
    if isinstance(key, ast.Name | ast.Attribute):
        return dotted(key) or "?"
    return "?"


def _keys(node: ast.Dict) -> list[str]:
    return [_key_text(k, v) for k, v in zip(node.keys[:_ENTRY_LIMIT], node.values, strict=False)]


def dict_text(node: ast.Dict) -> str:
    """A dict literal in a compact form that keeps its keys, and the keys of each value that
    is itself a dict literal: `{404:{"description","model"},"4XX",**common}` (a key as
    `_key_text` writes it, then `:{...}` with the inner keys when its value is a dict; inner
    dicts' own values are not kept). Entries are separated by `,`; a text longer than
    `STRING_LIMIT` keeps its first entries and ends with `...` (more entries, not kept),
    as does a dict of more than 64 entries (or an inner one of more than 64 keys)."""
    entries: list[str] = []
    for key, value in zip(node.keys[:_ENTRY_LIMIT], node.values, strict=False):
        entry = _key_text(key, value)
        if key is not None and isinstance(value, ast.Dict):
            inner = _keys(value) + ([_MORE] if len(value.keys) > _ENTRY_LIMIT else [])
            entry += ":{" + ",".join(inner) + "}"
        entries.append(entry)
    more = len(node.keys) > _ENTRY_LIMIT
    while True:
        text = "{" + ",".join(entries + ([_MORE] if more else [])) + "}"
        if len(text) <= STRING_LIMIT:
            return text
        entries.pop()
        more = True


def _item_text(node: ast.expr) -> str:
    """One item of a list literal: as `argument_text`, or a call of a name chain with its
    first positional argument (`Depends(verify_token)`, `Depends()`); "?" otherwise."""
    if isinstance(node, ast.Call):
        callee = dotted(node.func)
        first = argument_text(node.args[0]) if node.args else ""
        if callee and "(" not in callee and (first or not node.args):
            return f"{callee}({first})"
        return "?"
    text = argument_text(node)
    return text if text and "," not in text else "?"


def list_text(node: ast.List | ast.Tuple) -> str:
    """A list or tuple literal in a compact form: `[Depends(verify_token),"users",?]`, each
    item as `_item_text` writes it (`?` for one it cannot, or one holding a comma), `[` and
    `]` for a tuple too. Bounded like `dict_text`: past `STRING_LIMIT` characters or 64
    items the first items are kept and `...` ends the list."""
    items = [_item_text(item) for item in node.elts[:_ENTRY_LIMIT]]
    more = len(node.elts) > _ENTRY_LIMIT
    while True:
        text = "[" + ",".join(items + ([_MORE] if more else [])) + "]"
        if len(text) <= STRING_LIMIT:
            return text
        items.pop()
        more = True


def return_names(node: ast.expr | None) -> tuple[str, ...]:
    """A return annotation as `FunctionFact.returns` keeps it: () without one, ("None",)
    for `-> None`, else `annotation_names` of it."""
    if isinstance(node, ast.Constant) and node.value is None:
        return ("None",)
    return annotation_names(node)


def positional(args: list[ast.expr]) -> tuple[str, ...]:
    """The first positional arguments as `argument_text` writes them, and a call of a name
    chain as `dotted` does (`Depends(get_db())` keeps "get_db()")."""
    return tuple(
        dotted(arg) if isinstance(arg, ast.Call) else argument_text(arg)
        for arg in args[:ARGUMENT_LIMIT]
    )


def annotation_names(node: ast.expr | None, limit: int = 64) -> tuple[str, ...]:
    """Dotted names of the types an annotation (or an alias's value) names:
    `Annotated[X, ...]` gives X's, `Optional`/`Union`/`Mapped`/`ClassVar`/`Final`... their
    arguments', `X | Y` both sides', any other generic its own name only (`list[X]` is
    `list`); a string annotation that is a dotted name counts as that name."""
    found: list[str] = []
    stack: list[ast.expr] = [] if node is None else [node]
    while stack and len(found) < limit:
        current = stack.pop()
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.BitOr):
            stack += [current.right, current.left]
        elif isinstance(current, ast.Subscript):
            base = dotted(current.value)
            last = base.rpartition(".")[2]
            inner = current.slice
            members = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
            if last == "Annotated":
                stack += members[:1]
            elif last in _UNION_LIKE:
                stack += reversed(members)
            elif base:
                found.append(base)
        elif isinstance(current, ast.Constant) and isinstance(current.value, str):
            text = current.value.strip()
            if len(text) <= STRING_LIMIT and _DOTTED_TEXT.fullmatch(text):
                found.append(text)
        elif isinstance(current, ast.Name | ast.Attribute):
            name = dotted(current)
            if name:
                found.append(name)
    return tuple(found)


def is_fixed_iterable(node: ast.expr) -> bool:
    """A literal tuple, list or set of constants and names, a string, or `range` of
    integer constants: a loop over it is not a loop over data."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(isinstance(item, ast.Constant | ast.Name | ast.Attribute) for item in node.elts)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str | bytes)
    if isinstance(node, ast.Call) and dotted(node.func) == "range" and not node.keywords:
        return all(
            isinstance(arg, ast.Constant) and isinstance(arg.value, int) for arg in node.args
        )
    return False


def is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _is_guard_statement(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Raise | ast.Return):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        return dotted(statement.value.func).rpartition(".")[2] in _ABORTS
    return False


def is_guard_body(body: list[ast.stmt]) -> bool:
    """A guard's body: only `raise`, `return` and `abort(...)` (any receiver) statements."""
    return bool(body) and all(_is_guard_statement(statement) for statement in body)


def is_guard_if(statement: ast.If) -> bool:
    """An `if` without `elif`/`else` whose body is a guard's."""
    return not statement.orelse and is_guard_body(statement.body)


def is_trivial_body(body: list[ast.stmt]) -> bool:
    """Only a docstring, `...`, `pass` and `raise NotImplementedError[(...)]`."""
    for statement in body:
        if isinstance(statement, ast.Pass) or is_docstring(statement):
            continue
        if (
            isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and statement.value.value is Ellipsis
        ):
            continue
        if isinstance(statement, ast.Raise) and statement.exc is not None:
            raised = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
            if dotted(raised).rpartition(".")[2] == "NotImplementedError":
                continue
        return False
    return True


# -- generators and what a function gives back -----------------------------------------

_NEVER_CALLABLE = (
    ast.Constant,
    ast.JoinedStr,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.Dict,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.BinOp,
    ast.Compare,
    ast.UnaryOp,
)
# How deep `ends_in_raise` follows nested blocks; the tokenizer allows 100 indentation
# levels, so the recursion is bounded either way. Deeper blocks count as not raising.
_BLOCK_DEPTH = 40


def return_value_text(node: ast.expr | None) -> str:
    """A `return` statement's value as `FunctionFact.return_values` keeps it."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return "<none>"
    if isinstance(node, ast.Lambda):
        return "<lambda>"
    if isinstance(node, ast.BoolOp):  # `a or b` is one of its operands
        plain = all(isinstance(value, _NEVER_CALLABLE) for value in node.values)
        return "<value>" if plain else ""
    if isinstance(node, _NEVER_CALLABLE):
        return "<value>"
    if isinstance(node, ast.Name | ast.Attribute | ast.Call):
        return dotted(node)
    return ""


def caught_names(node: ast.expr | None) -> tuple[str, ...]:
    """The dotted names an `except` clause catches: () for a bare `except`, one per member
    of a tuple, "" for an expression that is no name."""
    if node is None:
        return ()
    members = node.elts if isinstance(node, ast.Tuple) else [node]
    return tuple(dotted(member) for member in members[: ARGUMENT_LIMIT * 4])


def ends_in_raise(body: list[ast.stmt]) -> bool:
    """Every path through `body` ends in a `raise`: none falls off its end, and none
    leaves it by `return`, `break` or `continue`."""
    falls, escapes = _outcome(body, 0)
    return not falls and not escapes


def _outcome(body: list[ast.stmt], depth: int) -> tuple[bool, bool]:
    """(some path falls off the end of `body`, some path leaves it without raising)."""
    if depth > _BLOCK_DEPTH:
        return True, True
    escapes = False
    for statement in body:
        falls, escaped = _statement_outcome(statement, depth + 1)
        escapes |= escaped
        if not falls:
            return False, escapes
    return True, escapes


def _statement_outcome(statement: ast.stmt, depth: int) -> tuple[bool, bool]:
    if isinstance(statement, ast.Raise):
        return False, False
    if isinstance(statement, ast.Return | ast.Break | ast.Continue):
        return False, True
    if isinstance(statement, ast.If):
        body, orelse = _outcome(statement.body, depth), _outcome(statement.orelse, depth)
        return body[0] or orelse[0], body[1] or orelse[1]
    if isinstance(statement, ast.With | ast.AsyncWith):
        return _outcome(statement.body, depth)
    if isinstance(statement, ast.For | ast.AsyncFor | ast.While):
        # A loop may run no time; a `break` or `return` in it counts as leaving.
        return True, _outcome(statement.body, depth)[1] or _outcome(statement.orelse, depth)[1]
    if isinstance(statement, ast.Match):
        cases = [_outcome(case.body, depth) for case in statement.cases]
        total = any(
            isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None
            for case in statement.cases
        )
        return (not total) or any(f for f, _ in cases), any(e for _, e in cases)
    if isinstance(statement, ast.Try) or type(statement).__name__ == "TryStar":
        return _try_outcome(statement, depth)
    return True, False


def _try_outcome(statement: ast.stmt, depth: int) -> tuple[bool, bool]:
    body = _outcome(getattr(statement, "body", []), depth)
    orelse = _outcome(getattr(statement, "orelse", []), depth)
    handlers = [_outcome(h.body, depth) for h in getattr(statement, "handlers", [])]
    final = getattr(statement, "finalbody", [])
    falls = (body[0] and orelse[0]) or any(f for f, _ in handlers)
    escapes = body[1] or orelse[1] or any(e for _, e in handlers)
    if final:
        final_falls, final_escapes = _outcome(final, depth)
        if not final_falls:
            return False, final_escapes
        escapes |= final_escapes
    return falls, escapes
