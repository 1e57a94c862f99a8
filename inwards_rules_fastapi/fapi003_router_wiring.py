"""fapi.router-wiring: routers whose routes no app serves (never included), routers that
include each other in a cycle, and `include_router` calls that run before the included
router's routes exist."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import attrs

from inwards_core import (
    CheckKind,
    ProjectModel,
    ReadScope,
    Scope,
    Severity,
    Violation,
    option,
    quoted,
)
from inwards_rules_fastapi.fapi003_docs import DOCS, examples
from inwards_rules_fastapi.graph_options import GRAPH_SCOPE, GraphRuleOptions, check_patterns

if TYPE_CHECKING:
    from inwards_rules_fastapi.graph import Graph, Inclusion, Node

UNRESOLVED_CHOICES = ("warn", "silent")


def _check_entrypoints(value: tuple[str, ...]) -> str | None:
    for entry in value:
        module, colon, name = entry.partition(":")
        if not colon or not module or not name.isidentifier():
            return f'"{quoted(entry)}" is not `module:name` (such as "shop.main:app").'
    return None


def _check_unresolved(value: str) -> str | None:
    if value not in UNRESOLVED_CHOICES:
        return f'"{quoted(value)}" is not one of "warn", "silent".'
    return None


@attrs.frozen
class RouterWiringOptions(GraphRuleOptions):
    """Which apps count, which routers may stay unmounted, and what the rule reports."""

    entrypoints: tuple[str, ...] = option(
        (),
        check=_check_entrypoints,
        description="The apps routers must be reachable from, as `module:name`: the app's "
        "variable, or the function that builds it (`shop.main:create_app`). Default: every "
        "app of the project, tests and scripts included.",
    )
    allow_unmounted: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="Routers that may stay unmounted: module prefixes or selectors matched "
        "against the router's qualified name (`shop.experimental`, `shop.*.internal`).",
    )
    unresolved_includes: str = option(
        "silent",
        check=_check_unresolved,
        description="What an `include_router` whose router the rule cannot name does to the "
        'unmounted findings: "silent" (the default) drops them, since any router could be the '
        'one it includes; "warn" keeps them as warnings that name the call.',
    )
    check_order: bool = option(
        True,
        description="Report an `include_router` placed above the included router's route "
        "decorators in the same file.",
    )


def reads(options: RouterWiringOptions) -> ReadScope:
    """Every module may hold an app or a router: the graph reads all that import FastAPI."""
    return GRAPH_SCOPE


GUIDANCE_PARAMS = {
    "router": "the router's qualified name (`shop.invoices.router`)",
    "name": "the name the router is bound to (`router`)",
    "app": "an app of the project, the first by name (for the unmounted variant)",
    "app_file": "the file that builds that app",
    "cycle": "the routers of a cycle, joined by ` -> `, back to the first",
    "call": "the include_router call, as `receiver.include_router`",
    "routes": "how many route decorators come after the include_router call",
    "first_route_line": "the line of the first of them",
}


_EMPTY = dict.fromkeys(GUIDANCE_PARAMS, "")


def check(model: ProjectModel, options: RouterWiringOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.graph_reading import project_graph

    graph = project_graph(model)
    yield from _unmounted(graph, options)
    yield from _cycles(graph, options)
    if options.check_order:
        yield from _order(graph, options)


def _entry_apps(graph: Graph, options: RouterWiringOptions) -> list[Node]:
    apps = [node for node in graph.nodes.values() if node.kind == "app"]
    if not options.entrypoints:
        return apps
    wanted = {tuple(entry.split(":", 1)) for entry in options.entrypoints}
    return [
        node
        for node in apps
        if (node.module, node.name[len(node.module) + 1 :]) in wanted
        or (node.module, node.factory) in wanted
    ]


def _busiest(graph: Graph, apps: list[Node]) -> Node:
    """The app that includes the most routers: where a missing one most likely belongs."""
    counts = {app.name: 0 for app in apps}
    for inclusion in graph.inclusions:
        if inclusion.parent in counts:
            counts[inclusion.parent] += 1
    return max(apps, key=lambda app: (counts[app.name], -apps.index(app)))


def _reached(graph: Graph, starts: list[str]) -> set[str]:
    edges: dict[str, list[str]] = {}
    for inclusion in graph.inclusions:
        if inclusion.parent is not None and inclusion.child is not None:
            edges.setdefault(inclusion.parent, []).append(inclusion.child)
    seen = set(starts)
    todo = list(starts)
    while todo:
        for child in edges.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _unmounted(graph: Graph, options: RouterWiringOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.graph_options import matches_any

    apps = _entry_apps(graph, options)
    unknown = [i for i in graph.inclusions if i.unresolved]
    if not apps or (unknown and options.unresolved_includes == "silent"):
        return
    # A router that a receiver the graph cannot name includes counts as reached.
    starts = [a.name for a in apps]
    starts += [i.child for i in graph.inclusions if i.parent is None and i.child is not None]
    reached = _reached(graph, starts)
    app = _busiest(graph, apps)
    in_routers = {
        i.child
        for i in graph.inclusions
        if i.parent is not None and graph.nodes[i.parent].kind == "router"
    }
    for node in graph.nodes.values():
        # Only the top of an unreached tree is reported: the routers it includes go
        # missing with it, and come back when it is included.
        if (
            node.kind != "router"
            or node.factory
            or node.name in reached
            or node.name in in_routers
            or node.name in graph.callback_routers
            or not any(graph.operations.get(n) for n in _reached(graph, [node.name]))
            or not options.reports_in(node.module)
            or matches_any(options.allow_unmounted, node.name)
        ):
            continue
        name = node.name[len(node.module) + 1 :]
        message = (
            f"APIRouter `{quoted(node.name)}` has path operations (its own or those of the "
            "routers it includes), but no app includes it, directly or through another "
            "router: they are never served."
        )
        severity = None
        if unknown:
            first = unknown[0]
            severity = Severity.WARNING
            message += (
                f" (Unless `{quoted(first.call.callee)}` at {quoted(first.file)}:"
                f"{first.call.span.line}, whose router inwards cannot name, includes it.)"
            )
        yield Violation(
            file=node.file,
            module=node.module,
            span=node.span,
            message=message,
            params={
                **_EMPTY,
                "router": node.name,
                "name": name,
                "app": app.name,
                "app_file": app.file,
            },
            severity=severity,
            stable_message=message.split(" (Unless", 1)[0],
        )


def _cycles(graph: Graph, options: RouterWiringOptions) -> Iterator[Violation]:
    from inwards_rules_fastapi.inclusion_cycles import cycles

    for cycle, closing in cycles(graph):
        if not options.reports_in(closing.module):
            continue
        path = " -> ".join(quoted(name) for name in (*cycle, cycle[0]))
        message = (
            f"`{quoted(closing.call.callee)}` closes an inclusion cycle: {path}. FastAPI "
            "releases that include routers by reference stop at this call with an "
            "AssertionError; those that copy routes serve a set that depends on the order "
            "of the calls."
        )
        yield Violation(
            file=closing.file,
            module=closing.module,
            span=closing.call.span,
            message=message,
            params={**_EMPTY, "cycle": path, "call": closing.call.callee, "router": cycle[0]},
            variant="cycle",
        )


def _order(graph: Graph, options: RouterWiringOptions) -> Iterator[Violation]:
    for inclusion in graph.inclusions:
        if (
            inclusion.how != "include_router"
            or inclusion.scope
            or inclusion.child is None
            or not options.reports_in(inclusion.module)
        ):
            continue
        later = _routes_below(graph, inclusion)
        if not later:
            continue
        child = inclusion.child
        message = (
            f"`{quoted(inclusion.call.callee)}` includes `{quoted(child)}` above "
            f"{len(later)} of its route decorator(s) (the first at line {later[0]}): "
            "FastAPI releases whose include_router copies the routes that exist when it "
            "runs leave those out."
        )
        yield Violation(
            file=inclusion.file,
            module=inclusion.module,
            span=inclusion.call.span,
            message=message,
            params={
                **_EMPTY,
                "router": child,
                "call": inclusion.call.callee,
                "routes": str(len(later)),
                "first_route_line": str(later[0]),
            },
            variant="order",
        )


def _routes_below(graph: Graph, inclusion: Inclusion) -> list[int]:
    """The lines of the included router's module-level route decorators below the call,
    in its file."""
    assert inclusion.child is not None
    return sorted(
        operation.call.span.line
        for operation in graph.operations.get(inclusion.child, ())
        if operation.function is not None
        and operation.file == inclusion.file
        and "." not in operation.function.qualname
        and operation.call.span.line > inclusion.call.span.end_line
    )


KIND = CheckKind(
    id="fapi.router-wiring",
    summary="A FastAPI router no app serves, an inclusion cycle, or an inclusion above the routes.",
    options_type=RouterWiringOptions,
    check=check,
    scope=Scope.PROJECT,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
