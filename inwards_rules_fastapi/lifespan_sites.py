"""Where FAPI006 looks: the apps and routers of the project graph built with
`on_startup=`/`on_shutdown=`, and the `on_event` decorators and `add_event_handler` calls
whose receiver resolves to one of them (or to a parameter annotated `FastAPI` or
`APIRouter`)."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import CallFact, ContentFacts, ModuleInfo, ProjectModel, Span
from inwards_rules_fastapi.callee_names import Names
from inwards_rules_fastapi.graph import APP_CLASSES, ROUTER_CLASSES, Graph, Node
from inwards_rules_fastapi.graph_names import REEXPORT_HOPS, imported_names, split_module
from inwards_rules_fastapi.graph_reading import project_graph

_EVENTS = {"startup": "a startup handler", "shutdown": "a shutdown handler"}
_CONSTRUCTOR_KEYWORDS = ("on_startup", "on_shutdown")


@attrs.frozen
class Site:
    """One registration: where, as written, what it registers, on what, and whether that
    app or router also sets `lifespan=`."""

    file: str
    module: str
    span: Span
    spelling: str
    what: str
    target: str
    lifespan: bool


def sites(model: ProjectModel) -> list[Site]:
    """Every registration in the checked modules, in file and line order, each once."""
    graph = project_graph(model)
    checked = {info.file for info in model.checked}
    found = {
        (site.file, site.span.line, site.span.column): site
        for site in _constructor_sites(graph, checked)
    }
    node_modules = {node.module for node in graph.nodes.values()}
    for info in model.checked:
        if not _may_register(model, graph, info, node_modules):
            continue
        facts = model.content(info)
        if facts is None or not facts.parsed:
            continue
        reader = _Reader(model, graph, info, facts)
        for site in reader.sites():
            found.setdefault((site.file, site.span.line, site.span.column), site)
    return [found[key] for key in sorted(found)]


def _sets_lifespan(node: Node) -> bool:
    return node.keywords.get("lifespan", "None") != "None"


def _short(node: Node) -> str:
    """The node by the name it is bound to (`app`), also when a factory builds it: the
    finding's place tells which."""
    return node.name.rpartition(".")[2]


def _constructor_sites(graph: Graph, checked: set[str]) -> Iterator[Site]:
    for node in graph.nodes.values():
        given = [k for k in _CONSTRUCTOR_KEYWORDS if node.keywords.get(k, "None") != "None"]
        if not given or node.file not in checked:
            continue
        constructor = "FastAPI" if node.kind == "app" else "APIRouter"
        what = (
            "startup and shutdown handlers"
            if len(given) == 2
            else _EVENTS[given[0].removeprefix("on_")]
        )
        spelling = f"{constructor}({', '.join(k + '=...' for k in given)})"
        yield Site(
            node.file, node.module, node.span, spelling, what, _short(node), _sets_lifespan(node)
        )


def _may_register(
    model: ProjectModel, graph: Graph, info: ModuleInfo, node_modules: set[str]
) -> bool:
    """The module imports FastAPI, builds an app or a router, or imports one (through
    re-exports): only then can it register a handler on one."""
    facts = model.facts.get(info.file)
    if facts is None:
        return False
    if info.name in node_modules:
        return True
    for fact in facts.imports:
        module = fact.module or ""
        if module == "fastapi" or module.startswith("fastapi.") or module in node_modules:
            return True
        if fact.name is not None and _reexported_node(model, graph, f"{module}.{fact.name}"):
            return True
    return False


def _reexported_node(model: ProjectModel, graph: Graph, canonical: str) -> bool:
    """`canonical` reaches a node through re-exports, read from import facts alone."""
    name = canonical
    for _ in range(REEXPORT_HOPS + 1):
        if name in graph.nodes:
            return True
        found = split_module(model, name)
        if found is None or not found[1]:
            return False
        info, rest = found
        first, dot, tail = rest.partition(".")
        target = imported_names(model, info).imported.get(first)
        if target is None:
            return False
        name = target + dot + tail
    return False


@attrs.frozen
class _Target:
    name: str
    lifespan: bool


class _Reader:
    def __init__(
        self, model: ProjectModel, graph: Graph, info: ModuleInfo, facts: ContentFacts
    ) -> None:
        self.model = model
        self.graph = graph
        self.info = info
        self.facts = facts
        self.names = Names.of(model, info)
        self.functions = {f.qualname: f for f in facts.functions}

    def sites(self) -> Iterator[Site]:
        for function in self.facts.functions:
            scope = function.qualname.rpartition(".<locals>.")[0]
            for decorator in function.decorators:
                yield from self._site(decorator, scope, "on_event")
            for call in function.calls:
                if not call.nested:
                    yield from self._site(call, function.qualname, "add_event_handler")
        for call in self.facts.calls:
            yield from self._site(call, "", "add_event_handler")

    def _site(self, call: CallFact, scope: str, method: str) -> Iterator[Site]:
        receiver, dot, called = call.callee.rpartition(".")
        if not dot or called != method or not receiver:
            return
        target = self._target(receiver, scope)
        if target is None:
            return
        event = _event(call)
        what = _EVENTS.get(event, "an event handler")
        written = f'"{event}"' if event else "..."
        spelling = f"{'@' if method == 'on_event' else ''}{call.callee}({written}"
        spelling += ")" if method == "on_event" else ", ...)"
        yield Site(
            self.info.file,
            self.info.name,
            call.span,
            spelling,
            what,
            target.name,
            target.lifespan,
        )

    def _target(self, receiver: str, scope: str) -> _Target | None:
        if "." not in receiver:
            current = scope
            while current:
                node = self.graph.nodes.get(f"{self.info.name}.{current}.{receiver}")
                if node is not None:
                    return _Target(_short(node), _sets_lifespan(node))
                if self._annotated(current, receiver):
                    return _Target(receiver, False)
                current = current.rpartition(".<locals>.")[0]
        node = self._node(self.names.qualify(receiver))
        if node is None:
            return None
        return _Target(_short(node), _sets_lifespan(node))

    def _annotated(self, scope: str, receiver: str) -> bool:
        function = self.functions.get(scope)
        if function is None:
            return False
        for param in function.params:
            if param.name == receiver:
                qualified = {self.names.qualify(name) for name in param.annotation}
                return bool(qualified & (APP_CLASSES | ROUTER_CLASSES))
        return False

    def _node(self, canonical: str) -> Node | None:
        """The graph node a canonical name reaches, following re-exports."""
        name = canonical
        for _ in range(REEXPORT_HOPS + 1):
            node = self.graph.nodes.get(name)
            if node is not None:
                return node
            found = split_module(self.model, name)
            if found is None or not found[1]:
                return None
            info, rest = found
            first, dot, tail = rest.partition(".")
            target = Names.of(self.model, info).imported.get(first)
            if target is None:
                return None
            name = target + dot + tail
        return None


def _event(call: CallFact) -> str:
    """ "startup" or "shutdown" from the first argument (or `event_type=`), "" otherwise."""
    written = call.positional[0] if call.positional else ""
    if not written:
        for keyword, value in zip(call.keywords, call.keyword_values, strict=False):
            if keyword == "event_type":
                written = value
    text = written[1:-1] if len(written) >= 2 and written[0] == written[-1] == '"' else ""
    return text if text in _EVENTS else ""
