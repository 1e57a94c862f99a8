"""Which functions of a module are HTTP endpoints, read from its content facts alone.

Pure functions over `ContentFacts` and a `qualify` function (a dotted name as written in the
module to the canonical name it stands for, through the module's imports). Recognised:

- route decorators on a FastAPI/Starlette or Flask application or router (`@app.get`,
  `@router.post`, `@bp.route`, `api_route`, `websocket`), the receiver bound in the module or
  in the enclosing factory function (`router = APIRouter()`), or imported / passed in when
  the module imports the framework;
- registrations naming a function: `add_api_route`, `add_route`, `Route(...)`,
  `APIRoute(...)`, Flask's `add_url_rule` (its third positional argument), Django's
  `path()`/`re_path()` (their second);
- Litestar's handler decorators (`@get`, `@post`, ..., also on `Controller` methods);
- handler methods of class-based views: Flask `MethodView` (HTTP-method names) and `View`
  (`dispatch_request`); Django `View` and its generic views, DRF `APIView`, generic views
  and `ViewSet`s (HTTP-method names and the viewset actions, `@action` methods);
  a same-module base class that is itself such a view counts as well;
- DRF's `@api_view` and Django's view-only decorators (`require_POST`, `login_required`, ...);
- the rule's own `decorators` and `base-classes` (canonical dotted names).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import attrs

from inwards_core import BindingFact, CallFact, ClassFact, ContentFacts, FunctionFact
from inwards_core.families.inw.content.endpoint_frameworks import FRAMEWORK_PACKAGES, FRAMEWORKS

# A dotted name as written in the module -> its canonical dotted name.
Qualify = Callable[[str], str]

_ROUTE_METHODS = frozenset(
    (
        "get", "post", "put", "patch", "delete", "head", "options", "trace", "api_route",
        "route", "websocket", "websocket_route",
    )
)  # fmt: skip
_HTTP_METHODS = frozenset(("get", "post", "put", "patch", "delete", "head", "options", "trace"))
_VIEWSET_ACTIONS = frozenset(("list", "create", "retrieve", "update", "partial_update", "destroy"))
# Classes whose instances take route decorators, by framework.
_ROUTERS: Mapping[str, tuple[str, ...]] = {
    "fastapi": (
        "fastapi.FastAPI", "fastapi.applications.FastAPI", "fastapi.APIRouter",
        "fastapi.routing.APIRouter", "starlette.applications.Starlette",
        "starlette.routing.Router",
    ),
    "flask": (
        "flask.Flask", "flask.app.Flask", "flask.Blueprint", "flask.blueprints.Blueprint",
        "flask.sansio.blueprints.Blueprint", "flask.sansio.app.App",
    ),
}  # fmt: skip
# Calls registering an endpoint: (framework, method name or canonical callee, position).
_REGISTER_METHODS: Mapping[str, tuple[str, int]] = {
    "add_api_route": ("fastapi", 1),
    "add_api_websocket_route": ("fastapi", 1),
    "add_route": ("fastapi", 1),
    "add_websocket_route": ("fastapi", 1),
    "add_url_rule": ("flask", 2),
}
_REGISTER_CALLS: Mapping[str, tuple[str, int]] = {
    "fastapi.routing.APIRoute": ("fastapi", 1),
    "fastapi.APIRoute": ("fastapi", 1),
    "fastapi.routing.APIWebSocketRoute": ("fastapi", 1),
    "starlette.routing.Route": ("fastapi", 1),
    "starlette.routing.WebSocketRoute": ("fastapi", 1),
    "django.urls.path": ("django", 1),
    "django.urls.re_path": ("django", 1),
    "django.conf.urls.url": ("django", 1),
}
_LITESTAR_HANDLERS = frozenset(
    ("get", "post", "put", "patch", "delete", "head", "route", "websocket", "HTTPRouteHandler")
)
# Decorators that only views take (never a helper): they make a function a view.
_VIEW_DECORATORS: Mapping[str, str] = {
    "rest_framework.decorators.api_view": "django",
    "django.views.decorators.http.require_http_methods": "django",
    "django.views.decorators.http.require_GET": "django",
    "django.views.decorators.http.require_POST": "django",
    "django.views.decorators.http.require_safe": "django",
    "django.views.decorators.csrf.csrf_exempt": "django",
    "django.views.decorators.csrf.csrf_protect": "django",
    "django.views.decorators.csrf.requires_csrf_token": "django",
    "django.views.decorators.csrf.ensure_csrf_cookie": "django",
    "django.views.decorators.cache.never_cache": "django",
    "django.views.decorators.cache.cache_page": "django",
    "django.contrib.auth.decorators.login_required": "django",
    "django.contrib.auth.decorators.permission_required": "django",
    "django.contrib.admin.views.decorators.staff_member_required": "django",
}
# View base classes: (framework, the handler methods of their subclasses).
# `dispatch` receives every request of a Django view before its method handler.
_DJANGO_HANDLERS = _HTTP_METHODS | {"dispatch"}
_DRF_HANDLERS = _HTTP_METHODS | _VIEWSET_ACTIONS
_VIEW_BASES: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("flask.views.MethodView", "flask", _HTTP_METHODS),
    ("flask.views.View", "flask", frozenset(("dispatch_request",))),
    ("django.views.View", "django", _DJANGO_HANDLERS),
    ("django.views.generic.", "django", _DJANGO_HANDLERS),
    ("rest_framework.views.APIView", "django", _DRF_HANDLERS),
    ("rest_framework.generics.", "django", _DRF_HANDLERS),
    ("rest_framework.viewsets.", "django", _DRF_HANDLERS),
)


@attrs.frozen
class Endpoint:
    """A function recognised as an endpoint, how (`framework`: one of `FRAMEWORKS`, or
    "custom" for the rule's own `decorators`/`base-classes`), and the class of a handler
    method ("" for a function)."""

    function: FunctionFact
    framework: str
    owner: str = ""


@attrs.frozen
class Recognisers:
    """What counts as an endpoint: the enabled frameworks, the rule's own decorators and
    base classes (canonical dotted names), and the framework packages the module imports
    (for receivers the module does not build itself)."""

    frameworks: frozenset[str] = frozenset(FRAMEWORKS)
    decorators: tuple[str, ...] = ()
    base_classes: tuple[str, ...] = ()
    imported_frameworks: frozenset[str] = frozenset()


@attrs.frozen
class RemoteView:
    """A registration naming a function of another module (`path("", views.index)`)."""

    target: str  # canonical dotted name of the function
    framework: str


def _under(name: str, entry: str) -> bool:
    if entry.endswith("."):
        return name.startswith(entry)
    return name == entry or name.startswith(entry + ".")


def _enclosing(qualname: str) -> str:
    """`get_router` for `get_router.<locals>.register`; "" at module level."""
    head, _, _ = qualname.rpartition(".<locals>.")
    return head


def _by_qualname(facts: ContentFacts) -> dict[str, FunctionFact]:
    return {f.qualname: f for f in facts.functions}


def _binding(
    name: str, scope: str, facts: ContentFacts, functions: Mapping[str, FunctionFact]
) -> BindingFact | None:
    """The binding of `name` seen from the function `scope` (its enclosing functions'
    own bindings first, then the module's); the last one wins."""
    while scope:
        function = functions.get(scope)
        if function is not None:
            for binding in reversed(function.bindings):
                if binding.name == name:
                    return binding
        scope = _enclosing(scope)
    for binding in reversed(facts.bindings):
        if binding.name == name:
            return binding
    return None


def _router_framework(callee: str, qualify: Qualify) -> str | None:
    qualified = qualify(callee)
    for framework, classes in _ROUTERS.items():
        if qualified in classes:
            return framework
    return None


def _decorated_route(
    decorator: CallFact,
    scope: str,
    facts: ContentFacts,
    functions: Mapping[str, FunctionFact],
    qualify: Qualify,
    recognisers: Recognisers,
) -> str | None:
    """The framework of a route decorator `@<receiver>.<method>(...)`, or None."""
    receiver, _, method = decorator.callee.rpartition(".")
    if not receiver or method not in _ROUTE_METHODS or "(" in receiver:
        return None
    binding = _binding(receiver, scope, facts, functions) if "." not in receiver else None
    if binding is not None and binding.value_callee:
        known = _router_framework(binding.value_callee, qualify)
        if known is not None:
            return known
        # Built by a call of something else: a factory of the project's own
        # (`app = create_app()`) is taken like an imported receiver, a library's is not.
        qualified = qualify(binding.value_callee)
    elif binding is not None:
        return None
    else:
        qualified = qualify(receiver)
    root = qualified.partition(".")[0]
    if root in _FOREIGN_ROOTS or root in _FRAMEWORK_ROOTS:
        return None
    for framework in ("fastapi", "flask"):
        if framework in recognisers.imported_frameworks:
            return framework
    return None


# Receivers from these libraries are never routers (`@mock.patch`, `@pytest.mark.get`);
# a framework's own objects are routers only when they are one of `_ROUTERS`.
_FOREIGN_ROOTS = frozenset(
    ("unittest", "mock", "pytest", "functools", "typing", "click", "typer", "celery", "attrs")
)
_FRAMEWORK_ROOTS = frozenset(p for packages in FRAMEWORK_PACKAGES.values() for p in packages)


def _function_framework(
    function: FunctionFact,
    facts: ContentFacts,
    functions: Mapping[str, FunctionFact],
    qualify: Qualify,
    recognisers: Recognisers,
) -> str | None:
    scope = _enclosing(function.qualname)
    for decorator in function.decorators:
        qualified = qualify(decorator.callee)
        if any(_under(qualified, entry) for entry in recognisers.decorators):
            return "custom"
        if qualified in _VIEW_DECORATORS:
            return _VIEW_DECORATORS[qualified]
        head, _, last = qualified.rpartition(".")
        if head.partition(".")[0] == "litestar" and last in _LITESTAR_HANDLERS:
            return "litestar"
        found = _decorated_route(decorator, scope, facts, functions, qualify, recognisers)
        if found is not None:
            return found
    return None


def _view_class(
    cls: ClassFact,
    classes: Mapping[str, ClassFact],
    qualify: Qualify,
    recognisers: Recognisers,
    depth: int = 0,
) -> tuple[str, frozenset[str]] | None:
    """(framework, handler method names) of a class-based view, or None. A base defined in
    the same module is followed (a few levels)."""
    for base in cls.bases:
        qualified = qualify(base)
        if any(_under(qualified, entry) for entry in recognisers.base_classes):
            return "custom", _HTTP_METHODS
        for entry, framework, handlers in _VIEW_BASES:
            if _under(qualified, entry):
                return framework, handlers
        local = classes.get(base)
        if local is not None and local is not cls and depth < 4:
            found = _view_class(local, classes, qualify, recognisers, depth + 1)
            if found is not None:
                return found
    return None


def _registered(call: CallFact, qualify: Qualify) -> tuple[str, str] | None:
    """(framework, the endpoint as written) of a call registering one, or None."""
    method = call.callee.rpartition(".")[2] if "." in call.callee else ""
    found = _REGISTER_METHODS.get(method) if method else None
    if found is None:
        found = _REGISTER_CALLS.get(qualify(call.callee)) if call.callee else None
    if found is None:
        return None
    framework, position = found
    if len(call.positional) <= position or not call.positional[position]:
        return None
    target = call.positional[position]
    # A string is a path, a call (`views.X.as_view()`) no function of the module.
    return (framework, target) if not target.startswith('"') and "(" not in target else None


def _registrations(facts: ContentFacts) -> Iterator[tuple[CallFact, str]]:
    """Every call of the module with the function it stands in ("" at module level)."""
    for call in facts.calls:
        yield call, ""
    for function in facts.functions:
        for call in function.calls:
            if not call.nested:
                yield call, function.qualname


def find_endpoints(
    facts: ContentFacts, qualify: Qualify, recognisers: Recognisers, module: str
) -> tuple[tuple[Endpoint, ...], tuple[RemoteView, ...]]:
    """The endpoints defined in the module, in source order, and the registrations it
    makes of functions defined elsewhere (canonical names)."""
    functions = _by_qualname(facts)
    classes = {c.qualname: c for c in facts.classes}
    found: dict[str, Endpoint] = {}
    enabled = recognisers.frameworks | {"custom"}
    for function in facts.functions:
        framework = _function_framework(function, facts, functions, qualify, recognisers)
        if framework in enabled:
            found[function.qualname] = Endpoint(function, framework)
    for cls in facts.classes:
        view = _view_class(cls, classes, qualify, recognisers)
        if view is None or view[0] not in enabled:
            continue
        framework, handlers = view
        for qualname in cls.methods:
            method = functions.get(qualname)
            if method is None or qualname in found:
                continue
            name = qualname.rpartition(".")[2]
            if name in handlers or _is_action(method, qualify):
                found[qualname] = Endpoint(method, framework, cls.qualname)
    remote: list[RemoteView] = []
    for call, scope in _registrations(facts):
        registered = _registered(call, qualify)
        if registered is None or registered[0] not in enabled:
            continue
        framework, target = registered
        local = _local_function(target, scope, functions)
        if local is not None:
            found.setdefault(local.qualname, Endpoint(local, framework))
        elif "." in target:
            remote.append(RemoteView(qualify(target), framework))
        else:
            qualified = qualify(target)
            if qualified != f"{module}.{target}" and qualified != target:
                remote.append(RemoteView(qualified, framework))
    ordered = sorted(found.values(), key=lambda e: (e.function.span.line, e.function.span.column))
    return tuple(ordered), tuple(remote)


def _is_action(method: FunctionFact, qualify: Qualify) -> bool:
    return any(qualify(d.callee) == "rest_framework.decorators.action" for d in method.decorators)


def _local_function(
    target: str, scope: str, functions: Mapping[str, FunctionFact]
) -> FunctionFact | None:
    """The function a registration names when it is defined in this module: a nested def
    of the registering function (or of its enclosing ones), else a module-level def."""
    if "." in target:
        return None
    while scope:
        found = functions.get(f"{scope}.<locals>.{target}")
        if found is not None:
            return found
        scope = _enclosing(scope)
    return functions.get(target)


def frameworks_imported(imported: Callable[[str], bool], enabled: frozenset[str]) -> frozenset[str]:
    """The enabled frameworks one of whose packages the module imports."""
    return frozenset(
        framework
        for framework in enabled
        if any(imported(package) for package in FRAMEWORK_PACKAGES[framework])
    )
