"""Dynamic imports: calls that import a module by name at run time.

Loaders are followed through import aliases anywhere in the file and through module-level
assignments (`loader = importlib.import_module`). The module name is constant-folded from
literals, names bound once at module level and a few operations (`dynamic_folding`);
what can't be folded is reported with a short reason instead of a target.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterable, Iterator

from inwards_core.extraction.dynamic_folding import ConstantFolder, Folded, Unreadable
from inwards_core.extraction.static import (
    Locator,
    WholeFileLocator,
    import_statements,
    package_of,
    resolve_relative,
)
from inwards_core.extraction.text import SourceLines, by_position, statement_text
from inwards_core.model.facts import DynamicImportFact

HINTS = ("import_module", "__import__", "find_spec", "run_module", "resolve_name")

_IMPORT_MODULE = "importlib.import_module"
_DUNDER_IMPORT = "__import__"
_FIND_SPEC = "importlib.util.find_spec"
_RUN_MODULE = "runpy.run_module"
_RESOLVE_NAME = "pkgutil.resolve_name"

# What a callee may be called, mapped to the canonical loader name.
_LOADERS = {
    _IMPORT_MODULE: _IMPORT_MODULE,
    _DUNDER_IMPORT: _DUNDER_IMPORT,
    "builtins.__import__": _DUNDER_IMPORT,
    "importlib.__import__": _DUNDER_IMPORT,
    _FIND_SPEC: _FIND_SPEC,
    _RUN_MODULE: _RUN_MODULE,
    _RESOLVE_NAME: _RESOLVE_NAME,
}
# The keyword that may carry the module name, per loader.
_NAME_KEYWORD = {
    _IMPORT_MODULE: "name",
    _DUNDER_IMPORT: "name",
    _FIND_SPEC: "name",
    _RUN_MODULE: "mod_name",
    _RESOLVE_NAME: "name",
}
_CALLEE_NAMES = ("import_module", "__import__", "find_spec", "run_module", "resolve_name")
_WORD = re.compile(r"\w+")
# Only from the start of a word, possessively: trying from inside each word took time
# quadratic in its length.
_CALL_WORD = re.compile(r"(?<!\w)(\w++)\s*+\(")


def has_dynamic_hint(text: str) -> bool:
    return any(hint in text for hint in HINTS)


class _Reader:
    def __init__(self, tree: ast.Module, text: str, module: str, is_package: bool) -> None:
        self._module = module
        self._package = package_of(module, is_package)
        self._is_package = is_package
        self._bindings: dict[str, set[str]] = {}
        self._constants: dict[str, ast.expr] = {}
        for statement, _ in import_statements(tree.body):
            self._bind_import(statement)
        self._read_module_scope(tree)
        self._folder = ConstantFolder(module, self._package, self._constants, self._bindings)
        self.calls = self._candidate_calls(tree, text)

    def _candidate_calls(self, tree: ast.Module, text: str) -> list[ast.Call]:
        """The calls whose callee ends in a loader's name or an alias of one: only the
        branches of the tree that hold such a line are walked (a whole walk costs as
        much as the parse)."""
        names = set(_CALLEE_NAMES)
        for name, meanings in self._bindings.items():
            if any(meaning in _LOADERS for meaning in meanings):
                names.add(name)
        # A word before `(` is looked up in a set: one regex alternating all the names took
        # time in the text times the names (20,000 aliases of a loader: minutes). A name is
        # known by its last run of word characters (an identifier may hold marks that `\w`
        # doesn't match); a few more lines than needed are walked, never fewer.
        last_words = {_last_word(name) for name in names}
        lines: list[int] = []
        line, counted = 1, 0
        for found in _CALL_WORD.finditer(text):
            if "" not in last_words and found.group(1) not in last_words:
                continue
            line += text.count("\n", counted, found.end())
            counted = found.end()
            lines.append(line)
        calls: list[ast.Call] = []
        if lines:
            _collect_calls(tree, lines, calls)
        return calls

    # -- bindings ----------------------------------------------------------------------

    def _bind(self, name: str, meaning: str) -> None:
        self._bindings.setdefault(name, set()).add(meaning)

    def _bind_import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._bind(alias.asname, alias.name)
                else:
                    top = alias.name.partition(".")[0]
                    self._bind(top, top)
            return
        base = resolve_relative(self._module, self._is_package, node.level or 0, node.module)
        if base is None:
            return
        for alias in node.names:
            if alias.name != "*":
                self._bind(alias.asname or alias.name, f"{base}.{alias.name}")

    def _read_module_scope(self, tree: ast.Module) -> None:
        counts: dict[str, int] = {}
        values: dict[str, ast.expr] = {}
        for statement in _module_scope_statements(tree.body):
            for name in _bound_names(statement):
                counts[name] = counts.get(name, 0) + 1
            if isinstance(statement, ast.Assign) and statement.value is not None:
                for target in statement.targets:
                    if isinstance(target, ast.Name):
                        values[target.id] = statement.value
            elif (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.value is not None
            ):
                values[statement.target.id] = statement.value
        for name, value in values.items():
            loaders = self.meanings(value)
            for meaning in loaders:
                if meaning in _LOADERS:
                    self._bind(name, meaning)
            if counts.get(name) == 1:
                self._constants[name] = value

    def meanings(self, expr: ast.expr) -> set[str]:
        """The dotted names an expression may stand for (`il.import_module` ->
        `importlib.import_module` after `import importlib as il`)."""
        if isinstance(expr, ast.Name):
            return self._bindings.get(expr.id, {expr.id})
        if isinstance(expr, ast.Attribute):
            return {f"{base}.{expr.attr}" for base in self.meanings(expr.value)}
        return set()

    def loader_of(self, func: ast.expr) -> str | None:
        found = sorted(_LOADERS[m] for m in self.meanings(func) if m in _LOADERS)
        return found[0] if found else None

    # -- reading one call --------------------------------------------------------------

    def target_of(
        self, loader: str, call: ast.Call
    ) -> tuple[ast.expr | None, str | None, str | None]:
        """(the name argument, the target, the reason it can't be read)."""
        name_arg = _argument(call, 0, _NAME_KEYWORD[loader])
        if name_arg is None:
            if any(isinstance(arg, ast.Starred) for arg in call.args) or any(
                keyword.arg is None for keyword in call.keywords
            ):
                return None, None, "unpacked arguments"
            return None, None, "no module name"
        try:
            name = self._folder.fold(name_arg)
        except Unreadable as unreadable:
            return name_arg, None, unreadable.reason
        if not isinstance(name, str):
            return name_arg, None, "not a module name"
        if loader == _RESOLVE_NAME:
            name = name.partition(":")[0]
        target: str | None = name
        if loader in (_IMPORT_MODULE, _FIND_SPEC) and name.startswith("."):
            target, reason = self._relative(name, _argument(call, 1, "package"))
            if target is None:
                return name_arg, None, reason
        elif loader == _DUNDER_IMPORT:
            level_arg = _argument(call, 4, "level")
            level: Folded = 0
            if level_arg is not None:
                try:
                    level = self._folder.fold(level_arg)
                except Unreadable:
                    return name_arg, None, "a run-time import level"
            if not isinstance(level, int) or level < 0:
                return name_arg, None, "a run-time import level"
            if level:
                target = resolve_relative(self._module, self._is_package, level, name or None)
                if target is None:
                    return name_arg, None, "a relative name above the top-level package"
        if target is None or not all(part.isidentifier() for part in target.split(".")):
            return name_arg, None, "not a module name"
        return name_arg, target, None

    def _relative(self, name: str, package_arg: ast.expr | None) -> tuple[str | None, str]:
        if package_arg is None:
            return None, "a relative name without a package"
        try:
            package = self._folder.fold(package_arg)
        except Unreadable:
            return None, "a relative name with a run-time package"
        if not isinstance(package, str) or not package:
            return None, "a relative name without a package"
        level = len(name) - len(name.lstrip("."))
        bits = package.rsplit(".", level - 1)
        if len(bits) < level:
            return None, "a relative name above the top-level package"
        rest = name[level:]
        return (f"{bits[0]}.{rest}" if rest else bits[0]), ""


def _collect_calls(node: ast.AST, lines: list[int], calls: list[ast.Call]) -> None:
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
        _collect_calls(child, lines, calls)


def _last_word(name: str) -> str:
    """The run of word characters `name` ends with ("" when it ends otherwise)."""
    runs = list(_WORD.finditer(name))
    return runs[-1].group() if runs and runs[-1].end() == len(name) else ""


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    for index, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            return None
        if index == position:
            return arg
    for item in call.keywords:
        if item.arg == keyword:
            return item.value
    return None


def _module_scope_statements(body: Iterable[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements that bind names in the module's scope (blocks, not functions/classes)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list):
                yield from _module_scope_statements(inner)
        for handler in getattr(statement, "handlers", ()):
            yield from _module_scope_statements(handler.body)
        for case in getattr(statement, "cases", ()):
            yield from _module_scope_statements(case.body)


def _bound_names(statement: ast.stmt) -> Iterator[str]:
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


def dynamic_imports(
    tree: ast.Module,
    *,
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    locator: Locator | None = None,
) -> tuple[DynamicImportFact, ...]:
    """Every call in the tree that imports by name, with its target when it can be read.

    `locator` maps the tree's positions onto `text` when the tree was parsed from
    something else (the text with `lazy` keywords cut out)."""
    reader = _Reader(tree, text, module, is_package)
    locator = locator or WholeFileLocator(lines)
    facts: list[DynamicImportFact] = []
    for call in reader.calls:
        loader = reader.loader_of(call.func)
        if loader is None:
            continue
        name_arg, target, reason = reader.target_of(loader, call)
        call_start, _, _ = locator.locate(call.lineno, call.col_offset)
        call_end, _, _ = locator.locate(
            call.end_lineno or call.lineno, call.end_col_offset or call.col_offset
        )
        where: ast.expr = name_arg if name_arg is not None else call
        start, _, _ = locator.locate(where.lineno, where.col_offset)
        end, _, _ = locator.locate(
            where.end_lineno or where.lineno, where.end_col_offset or where.col_offset
        )
        facts.append(
            DynamicImportFact(
                loader=loader,
                target=target,
                span=lines.span(start, end),
                reason=reason,
                statement=statement_text(text, call_start, call_end),
            )
        )
    facts.sort(key=by_position)
    return tuple(facts)
