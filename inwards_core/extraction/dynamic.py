"""Dynamic imports: calls that import a module by name at run time, and code run from
text (`exec`, `eval`, `compile`) whose import statements are imports of the module too.

Loaders are followed through import aliases anywhere in the file and through module-level
assignments (`loader = importlib.import_module`). The module name is constant-folded from
literals, names bound once at module level and a few operations (`dynamic_folding`);
what can't be folded is reported with a short reason instead of a target. Literal code is
read by `dynamic_sources`, within its bounds; the `__path__` and `sys.modules` facts by
`path_extension`, with the same bindings.
"""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from inwards_core.extraction.dynamic_folding import ConstantFolder, Folded, Unreadable
from inwards_core.extraction.dynamic_sources import (
    COMPILE,
    MAX_DEPTH,
    SOURCE_LOADERS,
    imports_in,
    parse_source,
    source_text,
)
from inwards_core.extraction.dynamic_tree import (
    argument,
    bound_names,
    collect_calls,
    last_word,
    module_scope_statements,
)
from inwards_core.extraction.path_extension import PathFacts, has_path_hint, path_facts
from inwards_core.extraction.static import (
    Locator,
    WholeFileLocator,
    import_statements,
    package_of,
    resolve_relative,
)
from inwards_core.extraction.text import SourceLines, by_position, statement_text
from inwards_core.index.naming import is_module_segment
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
_CALLEE_NAMES = (
    "import_module",
    "__import__",
    "find_spec",
    "run_module",
    "resolve_name",
    "exec",
    "eval",
    "compile",
)
# exec or eval as a name (called or aliased: `run = exec`), no method (`node.eval`) nor
# `def`; or `builtins`, through which they may be imported. Tried only where one of the
# words stands (`_has_source_call`): the words first, the look-behinds from their end.
_SOURCE_CALL = re.compile(r"(?:exec|eval)(?<![\w.]....)(?<!def ....)\b|builtins(?<!\w........)\b")
_SOURCE_WORDS = ("exec", "eval", "builtins")
# Only from the start of a word, possessively: trying from inside each word took time
# quadratic in its length.
_CALL_WORD = re.compile(r"(?<!\w)(\w++)\s*+\(")


def has_dynamic_hint(text: str, *, is_package: bool = False) -> bool:
    """Whether the file may hold a dynamic import, run code from text, or (a package's
    `__init__`, the only files whose `__path__` and `sys.modules` facts are asked for)
    extend `__path__`: then it is parsed whole, since the skeleton reads none of these.
    Each hint is a substring scan; this runs on every file the skeleton may read."""
    if any(hint in text for hint in HINTS):
        return True
    if is_package and has_path_hint(text):
        return True
    # `compile` alone runs nothing: what runs its code object is an exec or eval call.
    if "exec" in text or "eval" in text:
        return _has_source_call(text)
    return False


def _has_source_call(text: str) -> bool:
    """Whether `_SOURCE_CALL` matches: only where its words stand (found by substring
    search; `re`'s search stops at every "e": three times slower on Django and sympy)."""
    for word in _SOURCE_WORDS:
        at = text.find(word)
        while at >= 0:
            if _SOURCE_CALL.match(text, at) is not None:
                return True
            at = text.find(word, at + 1)
    return False


# What reading one call gives: (target, module part of a from-import, reason).
_Found = tuple[str | None, str | None, str | None]


class DynamicReading(NamedTuple):
    """What `read_dynamic` finds in one tree (see `ModuleFacts`). A NamedTuple: built
    for each file, never crossing a port, and no attrs class to create at start-up."""

    imports: tuple[DynamicImportFact, ...] = ()
    extends_path: bool = False
    registers: tuple[str, ...] = ()
    import_hook_line: int = 0


class _Reader:
    """One tree's loaders and the calls to them. Code run from a literal is read by a
    reader one `depth` deeper that starts from the bindings of the code running it."""

    def __init__(
        self,
        tree: ast.Module,
        text: str,
        module: str,
        is_package: bool,
        *,
        depth: int = 0,
        outer: _Reader | None = None,
    ) -> None:
        self._module = module
        self._package = package_of(module, is_package)
        self._is_package = is_package
        self._depth = depth
        self._bindings: dict[str, set[str]] = {}
        self._constants: dict[str, ast.expr] = {}
        self._shadowed: set[str] = set()  # exec, eval or compile bound to something else
        if outer is not None:
            self._bindings = {name: set(meanings) for name, meanings in outer._bindings.items()}
            self._constants = dict(outer._constants)
            self._shadowed = set(outer._shadowed)
        for statement, _ in import_statements(tree.body):
            self._bind_import(statement)
        self._read_module_scope(tree)
        self._folder = ConstantFolder(module, self._package, self._constants, self._bindings)
        self._tree = tree
        self._text = text

    @property
    def folder(self) -> ConstantFolder:
        return self._folder

    @property
    def calls(self) -> list[ast.Call]:
        return self._candidate_calls(self._tree, self._text)

    def _candidate_calls(self, tree: ast.Module, text: str) -> list[ast.Call]:
        """The calls whose callee ends in a loader's name or an alias of one: only the
        branches of the tree that hold such a line are walked (a whole walk costs as
        much as the parse)."""
        names = set(_CALLEE_NAMES)
        for name, meanings in self._bindings.items():
            if any(meaning in _LOADERS or meaning in SOURCE_LOADERS for meaning in meanings):
                names.add(name)
        # A word before `(` is looked up in a set: one regex alternating all the names took
        # time in the text times the names (20,000 aliases of a loader: minutes). A name is
        # known by its last run of word characters (an identifier may hold marks that `\w`
        # doesn't match); a few more lines than needed are walked, never fewer.
        last_words = {last_word(name) for name in names}
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
            collect_calls(tree, lines, calls)
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
        for statement in module_scope_statements(tree.body):
            for name in bound_names(statement):
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
                if meaning in _LOADERS or meaning in SOURCE_LOADERS:
                    self._bind(name, meaning)
            if counts.get(name) == 1:
                self._constants[name] = value
        # A module that defines its own `compile` (or imports one) calls that, not the
        # builtin, unless the name is bound to the builtin.
        for name in counts.keys() & {"exec", "eval", "compile"}:
            if not any(meaning in SOURCE_LOADERS for meaning in self._bindings.get(name, ())):
                self._shadowed.add(name)

    def meanings(self, expr: ast.expr) -> set[str]:
        """The dotted names an expression may stand for (`il.import_module` ->
        `importlib.import_module` after `import importlib as il`)."""
        if isinstance(expr, ast.Name):
            return self._bindings.get(expr.id, {expr.id})
        if isinstance(expr, ast.Attribute):
            return {f"{base}.{expr.attr}" for base in self.meanings(expr.value)}
        return set()

    def loader_of(self, func: ast.expr) -> str | None:
        if isinstance(func, ast.Name) and func.id in self._shadowed:
            return None
        meanings = self.meanings(func)
        found = sorted(_LOADERS[m] for m in meanings if m in _LOADERS)
        if not found:
            found = sorted(SOURCE_LOADERS[m] for m in meanings if m in SOURCE_LOADERS)
        return found[0] if found else None

    def read(self, loader: str, call: ast.Call) -> tuple[ast.expr | None, list[_Found]]:
        """(the argument the findings point at, what the call imports)."""
        if loader in SOURCE_LOADERS.values():
            return self._read_source(call)
        name_arg, target, reason = self.target_of(loader, call)
        return name_arg, [(target, None, reason)]

    def _read_source(self, call: ast.Call) -> tuple[ast.expr | None, list[_Found]]:
        """The imports of the code `exec`, `eval` or `compile` is given, read when it is a
        literal; one unreadable import when it isn't."""
        source_arg = argument(call, 0, "source")
        if source_arg is None:
            has_unpacked = any(isinstance(arg, ast.Starred) for arg in call.args) or any(
                keyword.arg is None for keyword in call.keywords
            )
            return None, [(None, None, "unpacked arguments" if has_unpacked else "no code")]
        if isinstance(source_arg, ast.Call) and self.loader_of(source_arg.func) == COMPILE:
            return source_arg, []  # `exec(compile(...))`: the compile call is read on its own
        try:
            text = source_text(self._folder, source_arg)
        except Unreadable as unreadable:
            return source_arg, [(None, None, unreadable.reason)]
        if self._depth >= MAX_DEPTH:
            return source_arg, [(None, None, f"code nested more than {MAX_DEPTH} deep")]
        tree = parse_source(text)
        if tree is None:
            return source_arg, []
        found: list[_Found] = list(imports_in(tree, self._module, self._is_package))
        inner = _Reader(
            tree, text, self._module, self._is_package, depth=self._depth + 1, outer=self
        )
        for inner_call in inner.calls:
            loader = inner.loader_of(inner_call.func)
            if loader is not None:
                found.extend(inner.read(loader, inner_call)[1])
        return source_arg, found

    # -- reading one call --------------------------------------------------------------

    def target_of(
        self, loader: str, call: ast.Call
    ) -> tuple[ast.expr | None, str | None, str | None]:
        """(the name argument, the target, the reason it can't be read)."""
        name_arg = argument(call, 0, _NAME_KEYWORD[loader])
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
            target, reason = self._relative(name, argument(call, 1, "package"))
            if target is None:
                return name_arg, None, reason
        elif loader == _DUNDER_IMPORT:
            level_arg = argument(call, 4, "level")
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
        if target is None or not all(map(is_module_segment, target.split("."))):
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


def read_dynamic(
    tree: ast.Module,
    *,
    text: str,
    lines: SourceLines,
    module: str,
    is_package: bool,
    locator: Locator | None = None,
) -> DynamicReading:
    """Every call in the tree that imports by name (with its target when it can be read)
    or runs literal code (with each import in it), and whether the module extends
    `__path__`, registers names in `sys.modules` or adds a finder to `sys.meta_path`.

    `locator` maps the tree's positions onto `text` when the tree was parsed from
    something else (the text with `lazy` keywords cut out)."""
    reader = _Reader(tree, text, module, is_package)
    locator = locator or WholeFileLocator(lines)
    facts: list[DynamicImportFact] = []
    for call in reader.calls:
        loader = reader.loader_of(call.func)
        if loader is None:
            continue
        pointed, found = reader.read(loader, call)
        if not found:
            continue
        call_start, _, _ = locator.locate(call.lineno, call.col_offset)
        call_end, _, _ = locator.locate(
            call.end_lineno or call.lineno, call.end_col_offset or call.col_offset
        )
        where: ast.expr = pointed if pointed is not None else call
        start, _, _ = locator.locate(where.lineno, where.col_offset)
        end, _, _ = locator.locate(
            where.end_lineno or where.lineno, where.end_col_offset or where.col_offset
        )
        span = lines.span(start, end)
        statement = statement_text(text, call_start, call_end)
        for target, imported_from, reason in found:
            facts.append(DynamicImportFact(loader, target, span, reason, statement, imported_from))
    facts.sort(key=by_position)
    path = PathFacts()
    if is_package and has_path_hint(text):
        path = path_facts(tree, text, module, reader.meanings, reader.folder.fold)
    return DynamicReading(tuple(facts), *path)
