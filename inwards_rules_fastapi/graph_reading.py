"""The project graph of `graph`, built once per run (`project_graph`): the modules that
import `fastapi`, their content facts read into nodes, operations, inclusions and exception
handlers (see `graph`'s docstring for what each is)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import attrs

from inwards_core import CallFact, ContentFacts, FunctionFact, ModuleInfo, ProjectModel
from inwards_rules_fastapi.graph import (
    ADD_ROUTE_CALLS,
    APP_CLASSES,
    ROUTE_CALLS,
    ROUTER_CLASSES,
    WEBSOCKET,
    Graph,
    Inclusion,
    Node,
    Operation,
    literal,
)
from inwards_rules_fastapi.graph_names import (
    REEXPORT_HOPS,
    ImportedNames,
    imported_names,
    split_module,
)

_LOCALS = ".<locals>."


@attrs.frozen
class _Module:
    info: ModuleInfo
    facts: ContentFacts
    names: ImportedNames
    local: frozenset[str]


def _enclosing(qualname: str) -> str:
    """The function a nested def's qualname sits in ("" for a top-level def)."""
    return qualname.rsplit(_LOCALS, 1)[0] if _LOCALS in qualname else ""


class GraphReader:
    def __init__(self, model: ProjectModel, modules: Sequence[_Module]) -> None:
        self.model = model
        self.modules = modules
        self.nodes: dict[str, Node] = {}
        self.operations: dict[str, list[Operation]] = {}
        self.inclusions: list[Inclusion] = []
        self.handlers: dict[str, list[str]] = {}
        self.app_classes = set(APP_CLASSES)
        self.router_classes = set(ROUTER_CLASSES)
        # function-local node names: (module, function qualname, bound name) -> node name
        self.local_nodes: dict[tuple[str, str, str], str] = {}
        self.callbacks: set[str] = set()
        self.import_tables: dict[str, ImportedNames] = {m.info.file: m.names for m in modules}

    def read(self) -> Graph:
        self._subclasses()
        for module in self.modules:
            self._nodes_of(module)
        for module in self.modules:
            self._wiring_of(module)
        return Graph(
            nodes=dict(sorted(self.nodes.items())),
            operations={k: tuple(v) for k, v in sorted(self.operations.items())},
            inclusions=tuple(self.inclusions),
            handlers={k: tuple(v) for k, v in sorted(self.handlers.items())},
            callback_routers=frozenset(self.callbacks),
        )

    # -- nodes ------------------------------------------------------------------------

    def _subclasses(self) -> None:
        """First-party subclasses of FastAPI and APIRouter (and of those), to a fixed
        point bounded by the number of classes."""
        classes = [
            (f"{m.info.name}.{c.qualname}", m, c.bases)
            for m in self.modules
            for c in m.facts.classes
            if "." not in c.qualname
        ]
        for _ in range(len(classes)):
            grew = False
            for name, module, bases in classes:
                qualified = {self.canonical(module, base) for base in bases}
                for known in (self.app_classes, self.router_classes):
                    if name not in known and qualified & known:
                        known.add(name)
                        grew = True
            if not grew:
                break

    def _kind(self, module: _Module, callee: str) -> str | None:
        canonical = self.canonical(module, callee)
        if canonical in self.app_classes:
            return "app"
        if canonical in self.router_classes:
            return "router"
        return None

    def _standard(self, module: _Module, callee: str) -> bool:
        return self.canonical(module, callee) in APP_CLASSES | ROUTER_CLASSES

    def _nodes_of(self, module: _Module) -> None:
        name = module.info.name
        for binding in module.facts.bindings:
            kind = self._kind(module, binding.value_callee) if binding.value_callee else None
            if kind is not None and "." not in binding.name:
                call = _call_at(module.facts.calls, binding.value_callee, binding.span.line)
                self._add(
                    Node(
                        f"{name}.{binding.name}",
                        kind,
                        name,
                        module.info.file,
                        binding.span if call is None else call.span,
                        _keywords(call),
                        standard=self._standard(module, binding.value_callee),
                    )
                )
        for function in module.facts.functions:
            for binding in function.bindings:
                kind = self._kind(module, binding.value_callee) if binding.value_callee else None
                if kind is None or "." in binding.name:
                    continue
                call = _call_at(function.calls, binding.value_callee, binding.span.line)
                node_name = f"{name}.{function.qualname}.{binding.name}"
                self.local_nodes[(name, function.qualname, binding.name)] = node_name
                self._add(
                    Node(
                        node_name,
                        kind,
                        name,
                        module.info.file,
                        binding.span if call is None else call.span,
                        _keywords(call),
                        factory=function.qualname,
                        standard=self._standard(module, binding.value_callee),
                    )
                )

    def _add(self, node: Node) -> None:
        self.nodes.setdefault(node.name, node)

    # -- names ------------------------------------------------------------------------

    def canonical(self, module: _Module, dotted: str) -> str | None:
        return module.names.qualify(dotted, module.local) if dotted else None

    def node_named(self, canonical: str | None) -> str | None:
        """The node a canonical name reaches, following re-exports; None if none."""
        name = canonical
        for _ in range(REEXPORT_HOPS + 1):
            if name is None:
                return None
            if name in self.nodes:
                return name
            found = split_module(self.model, name)
            if found is not None and not found[1] and "." in name:
                # A module and a name its package binds share the dotted name (`from
                # .users import router as users` in the package): the package's binding.
                found = split_module(self.model, name.rpartition(".")[0])
                if found is not None:
                    found = (found[0], f"{found[1]}.{name.rpartition('.')[2]}".lstrip("."))
            if found is None or not found[1]:
                return None
            info, rest = found
            first, dot, tail = rest.partition(".")
            target = self._imports_of(info).imported.get(first)
            if target is None:
                return None
            name = target + dot + tail
        return None

    def _imports_of(self, info: ModuleInfo) -> ImportedNames:
        found = self.import_tables.get(info.file)
        if found is None:
            found = self.import_tables[info.file] = imported_names(self.model, info)
        return found

    def resolve(self, module: _Module, scope: str, dotted: str) -> str | None:
        """The node `dotted`, written in `scope` (a function qualname, "" for module
        level) of `module`, names; None when it names none the graph knows."""
        first = dotted.partition(".")[0]
        while scope and first == dotted:
            local = self.local_nodes.get((module.info.name, scope, first))
            if local is not None:
                return local
            scope = _enclosing(scope)
        return self.node_named(self.canonical(module, dotted))

    def _first_party_or_unknown(self, module: _Module, dotted: str) -> bool:
        """A name the graph cannot name but the project could define: a local name or a
        parameter, or a first-party name; False for a library's name."""
        canonical = self.canonical(module, dotted)
        if canonical is None:
            return True
        root = dotted.partition(".")[0]
        built = next((b for b in module.facts.bindings if b.name == root), None)
        if built is not None and built.value_callee:  # `users = FastAPIUsers(...)`
            maker = self.canonical(module, built.value_callee)
            if maker is not None and split_module(self.model, maker) is None:
                return False  # an object a library builds: its routers are the library's
        return split_module(self.model, canonical) is not None

    # -- wiring -----------------------------------------------------------------------

    def _wiring_of(self, module: _Module) -> None:
        self._calls(module, "", module.facts.calls)
        counts = Counter(f.qualname for f in module.facts.functions)
        repeated = {name for name, count in counts.items() if count > 1}
        for function in module.facts.functions:
            scope = _enclosing(function.qualname)
            for decorator in function.decorators:
                self._callbacks(module, scope, decorator)
                if function.qualname not in repeated or _unconditional(function, decorator):
                    self._decorator(module, scope, function, decorator)
            own = [c for c in function.calls if not c.nested]
            self._calls(module, function.qualname, own)

    def _callbacks(self, module: _Module, scope: str, call: CallFact) -> None:
        """Marks the router of `callbacks=router.routes` as a callback router."""
        for keyword, value in zip(call.keywords, call.keyword_values, strict=False):
            if keyword == "callbacks" and value.endswith(".routes"):
                found = self.resolve(module, scope, value.removesuffix(".routes"))
                if found is not None:
                    self.callbacks.add(found)

    def _decorator(
        self, module: _Module, scope: str, function: FunctionFact, call: CallFact
    ) -> None:
        receiver, _, method = call.callee.rpartition(".")
        if not receiver:
            return
        if method == "exception_handler":
            owner = self.resolve(module, scope, receiver)
            if owner is not None and call.positional:
                self.handlers.setdefault(owner, []).append(call.positional[0])
            return
        if method not in ROUTE_CALLS:
            return
        owner = self.resolve(module, scope, receiver)
        if owner is None or (scope and self.nodes[owner].factory != scope):
            return  # unknown, or registered when a function runs: order unknown
        keywords = _keywords(call)
        path = literal(call.positional[0]) if call.positional else literal(keywords.get("path", ""))
        methods: tuple[str, ...] | None
        if method == "websocket":
            methods = (WEBSOCKET,)
        elif method == "api_route":
            methods = listed_methods(keywords)
        else:
            methods = (method.upper(),)
        if "**" in keywords:
            methods = None  # the methods could be anything the mapping holds
        self.operations.setdefault(owner, []).append(
            Operation(
                owner, methods, path, call, function, module.info.name, module.info.file, keywords
            )
        )

    def _calls(self, module: _Module, scope: str, calls: Sequence[CallFact]) -> None:
        for index, call in enumerate(calls):
            if "callbacks" in call.keywords:  # FastAPI(...), APIRouter(...), add_api_route
                self._callbacks(module, scope, call)
            receiver, _, method = call.callee.rpartition(".")
            if not receiver:
                continue
            if method in ("include_router", "mount"):
                self._inclusion(module, scope, calls, index, method)
            elif method in ADD_ROUTE_CALLS:
                self._added_route(module, scope, call, receiver, method)
            elif method == "add_exception_handler":
                owner = self.resolve(module, scope, receiver)
                if owner is not None and call.positional:
                    self.handlers.setdefault(owner, []).append(call.positional[0])

    def _added_route(
        self, module: _Module, scope: str, call: CallFact, receiver: str, method: str
    ) -> None:
        owner = self.resolve(module, scope, receiver)
        if owner is None or (scope and self.nodes[owner].factory != scope):
            return  # unknown, or registered when a function runs: order unknown
        keywords = _keywords(call)
        path = literal(call.positional[0]) if call.positional else None
        if method == "add_api_websocket_route":
            methods: tuple[str, ...] | None = (WEBSOCKET,)
        else:
            methods = listed_methods(keywords)
        self.operations.setdefault(owner, []).append(
            Operation(
                owner, methods, path, call, None, module.info.name, module.info.file, keywords
            )
        )

    def _inclusion(
        self, module: _Module, scope: str, calls: Sequence[CallFact], index: int, how: str
    ) -> None:
        call = calls[index]
        receiver = call.callee.rpartition(".")[0]
        parent = self.resolve(module, scope, receiver)
        keywords = _keywords(call)
        if how == "mount":
            target = call.positional[1] if len(call.positional) > 1 else keywords.get("app", "")
            prefix = literal(call.positional[0]) if call.positional else None
        else:
            target = call.positional[0] if call.positional else keywords.get("router", "")
            prefix = literal(keywords["prefix"]) if "prefix" in keywords else ""
        child = self.resolve(module, scope, target) if target else None
        unresolved = False
        if child is None and how == "include_router":
            if target:
                unresolved = self._first_party_or_unknown(module, target)
            else:  # an expression: judge the call it makes, when it is one
                argument = calls[index + 1] if index + 1 < len(calls) else None
                unresolved = (
                    argument is None
                    or argument.span.line > call.span.end_line + 1
                    or self._first_party_or_unknown(module, argument.callee)
                )
        if parent is None and child is None and not unresolved:
            return
        self.inclusions.append(
            Inclusion(
                parent,
                child,
                how,
                call,
                module.info.name,
                module.info.file,
                scope,
                prefix,
                unresolved,
            )
        )


def _call_at(calls: Sequence[CallFact], callee: str, line: int) -> CallFact | None:
    for call in calls:
        if call.callee == callee and call.span.line == line:
            return call
    return None


def _unconditional(function: FunctionFact, decorator: CallFact) -> bool:
    """A module-level `def` decorated at the margin (`@` in the first column, the call right
    after it): no `if`/`else` branch holds it, so each of two such defs of one name
    registers its route when the module runs (FastAPI keeps both)."""
    return "." not in function.qualname and decorator.span.column == 2


def listed_methods(keywords: Mapping[str, str]) -> tuple[str, ...] | None:
    """The HTTP methods of `api_route`/`add_api_route`: ("GET",) without `methods=`, those a
    list or tuple of string literals names (upper case, as FastAPI takes them); None for
    anything else (a name, a set, a spread that may hold `methods`)."""
    if "**" in keywords:
        return None
    text = keywords.get("methods")
    if text is None:
        return ("GET",)
    if not (text.startswith("[") and text.endswith("]")) or text == "[]":
        return None
    items = text[1:-1].split(",")
    if not all(len(item) > 2 and item[0] == '"' == item[-1] for item in items):
        return None
    return tuple(dict.fromkeys(item[1:-1].upper() for item in items))


def _keywords(call: CallFact | None) -> dict[str, str]:
    if call is None:
        return {}
    return dict(zip(call.keywords, call.keyword_values, strict=False))


def project_graph(model: ProjectModel) -> Graph:
    """The graph of the project, built once per run (pass this function to
    `model.shared`)."""
    return model.shared(_build)


def fastapi_modules(model: ProjectModel) -> list[ModuleInfo]:
    """The checked modules that import `fastapi` (or something below it)."""
    found: list[ModuleInfo] = []
    for info in model.checked:
        facts = model.facts.get(info.file)
        if facts is not None and any(
            fact.module is not None and (fact.module + ".").startswith("fastapi.")
            for fact in facts.imports
        ):
            found.append(info)
    return found


def _build(model: ProjectModel) -> Graph:
    infos = fastapi_modules(model)
    model.read_content_of(infos)
    modules: list[_Module] = []
    for info in infos:
        facts = model.content(info)
        if facts is None or not facts.parsed:
            continue
        local = frozenset(
            [b.name for b in facts.bindings]
            + [f.qualname for f in facts.functions if "." not in f.qualname]
            + [c.qualname for c in facts.classes if "." not in c.qualname]
        )
        modules.append(_Module(info, facts, imported_names(model, info), local))
    return GraphReader(model, modules).read()
