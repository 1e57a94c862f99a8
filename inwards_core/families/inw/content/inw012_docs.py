"""The docs text of inw.thin-endpoint (INW012), rendered into its page."""

from __future__ import annotations

from inwards_core import KindDocs

DOCS = KindDocs(
    what_it_does="""
Finds the HTTP endpoints of a module and measures the work each does itself, then reports
an endpoint that does too much, once, on the line of its `def`, naming every signal it
trips with its number and its limit:

- more statements than `max-statements` (10), more decision points than `max-branches` (2)
  or blocks nested deeper than `max-nesting` (2);
- a loop over data (unless `allow-loops`), a comprehension (only with
  `allow-comprehensions = false`);
- a direct call that `deny-calls` names (HTTP clients, SMTP, cloud SDKs, Redis, SQLAlchemy,
  database drivers, Celery, Django's raw connection by default);
- a method called on a database session: a parameter typed as one of `deny-receiver-types`
  (SQLAlchemy's and SQLModel's sessions by default, also through a same-module alias such
  as `SessionDep = Annotated[Session, Depends(get_session)]`), a parameter named in
  `deny-receiver-params`, or a local name a session constructor bound;
- with `delegate-to` set: no call at all into those layers or modules (a call through a
  parameter typed with one of their classes counts, and so does a call of a same-module
  function that calls into them). An entry that names no layer and no module is said in
  the finding, since a typo there reads as a missing call.

When it reports (chosen on real code, see the limitations): a denied call or a session
call is always enough, and so is one size signal (statements, branches or nesting). A loop
or a comprehension alone is not: in an endpoint it is far more often a stream or a
websocket's receive loop than logic, so it is only listed beside another signal. A
missing delegation counts once the endpoint holds at least three statements of its own:
an endpoint of one or two statements is thin whatever it calls. In test modules (judged
with `check-tests = true`) only a denied call or a session call reports: a test's
endpoint is mostly assertions, and `assert` statements are counted like any other.

How the code is measured:

- A *guard* is not counted: an `if` with no `elif`/`else`, or an `except` handler, whose
  body only raises, returns or calls `abort(...)`. So the usual error mapping
  `try: ... except UserExists: raise HTTPException(400)` adds nothing.
- Statements are counted at every depth (a compound statement once, its body's statements
  too); the docstring is not, nor are calls that only log (`logger.*`, `logging.*`),
  `print`, `warnings.warn`, or set a cookie on a response.
- Branches are decision points: each `if` and `elif`, each `match` case, each `except`
  handler that does more than a guard. `else` is none.
- A `for` over a literal tuple, list or set, a string or `range(<constants>)` is no loop over
  data; every `while` is one.
- Same-module helpers the endpoint calls are folded in, up to three calls deep, each
  counted once however often it is called: a function nested in the same factory or
  endpoint, a private module-level function (`_name`), a private method (`self._name`) of
  a class-based view. A public function or method is an API of its own (a service, a
  framework hook such as `get_context_data`): calling it is delegating. Another endpoint
  is judged on its own, never folded, and a helper that itself calls into `delegate-to`
  is a delegation: its body is not added.

Endpoints are recognised by framework (`frameworks`, all four by default):

- FastAPI and Starlette: route decorators on an application or router (`@app.get`,
  `@router.post`, `api_route`, `websocket`), also routers built inside factory functions
  (`def get_router(): router = APIRouter()` with nested endpoints); `add_api_route`,
  `add_route`, `Route(...)`, `APIRoute(...)` naming a function of the module.
- Flask: `@app.route`, `@bp.get` and the other method decorators, `add_url_rule(rule,
  endpoint, view_func)` with the view function as its third positional argument, and the
  HTTP-method handlers of `MethodView` subclasses (`dispatch_request` of `View` ones).
- Litestar: the handler decorators (`@get`, `@post`, ..., `@route`, `@websocket`), on
  functions and on `Controller` methods.
- Django and Django REST framework: functions that `path()`/`re_path()` name (in any
  judged module, `urls.py` usually), the HTTP-method handlers and `dispatch` of `View`
  subclasses and of the generic views, the HTTP-method handlers of `APIView`, DRF's generic views and `ViewSet`s (plus the viewset
  actions `list`, `create`, `retrieve`, `update`, `partial_update`, `destroy` and `@action`
  methods), functions under `@api_view`, and functions under view-only decorators
  (`require_POST`, `require_http_methods`, `csrf_exempt`, `login_required`, ...).
- Your own: `decorators` (canonical dotted names of decorators that make an endpoint) and
  `base-classes` (view base classes whose subclasses' HTTP-method methods are endpoints).

A base class defined in the same module counts when it is itself a view. Test modules are
skipped unless `check-tests = true`. The rule is off by default: turn it on with
`extend-select = ["INW012"]`.
""",
    why_is_this_bad="""
An endpoint's job is to translate HTTP into a call and the result back into HTTP. Once it
queries the database, calls other services or makes business decisions itself, that logic
can only be reached, tested and reused through HTTP, and the next endpoint copies it.
""",
    how_to_fix="""
Move the work into a function or service of the application layer that takes plain
values and returns plain values, and have the endpoint call it: parse the request, call,
map errors to HTTP responses (guards are free), return. Database sessions, HTTP clients and
task queues go to the code the endpoint calls, passed in through dependency injection.

If a number is too strict for your code, raise the limit (`max-statements = 15`) or turn
a signal off (`max-nesting = false`); a single endpoint that is fine as it is takes
`# inwards: ignore[INW012]` on its `def` line.
""",
    limitations="""
- Content is read only for modules that import an enabled framework's package (or the
  root package of a `decorators`/`base-classes` entry). A module that only uses a router
  or an application imported from a module of your own, and imports none of these, is not
  judged: name its decorators in `decorators` (for example
  `decorators = ["myapp.web.router.get"]`), which also has such modules read. On the
  corpora measured (FastAPI's `docs_src` and tests, fastapi-users) no module with a route
  decorator missed a framework import. Of those modules, only the ones whose text holds a
  decorator (`@`), a registration call (`add_api_route`, `add_route`, `add_url_rule`,
  `Route(`, `path(`) or a view class (`View`, `Controller`, or the last name of a
  `base-classes` entry) are read: a module holding none of these holds no endpoint the
  rule recognises.
- A route decorator on a receiver the module neither builds nor types is taken as a route
  when the module imports FastAPI/Starlette or Flask.
- `add_url_rule(..., view_func=index)` (the view as a keyword argument) and
  `path("x/", views.View.as_view())` are not followed: class-based views are recognised by
  their base class instead. A function registered from another module is found when that
  module is checked in the same run, or is the `urls` module of a package above the view's
  module (read on demand, so a run on `views.py` alone still sees `urls.py`).
- View base classes are followed within one module only: a project base class defined in
  another module is not recognised unless it is listed in `base-classes`.
- Helpers are folded in only from the same module; a helper in another module is a call
  like any other.
- Statements are counted from the syntax tree: response building (`return
  templates.TemplateResponse(...)`, a context dict) and `assert` statements count as
  statements (so size signals are not reported in test modules), and a handler that logs
  before raising is not a guard.
- Dependencies injected through parameter defaults (`user = Depends(current_user)`) are
  not read: an endpoint whose work happens in its dependencies calls nothing, which is why
  a missing delegation needs three statements of the endpoint's own.
- A `deny-calls` entry covers every callable under it, value constructors included: the
  default `sqlalchemy` entry also takes `quoted_name(...)` or `Column(...)` built in an
  endpoint. Narrow it with `deny-calls` (for example `sqlalchemy.create_engine`,
  `sqlalchemy.text`) if that matters.
- Precision, measured on FastAPI's `docs_src` and tests (with `check-tests`),
  fastapi-users and Django (`frameworks = ["django"]`): 27 findings, 20 judged by hand, 19
  right (95%). Most of them are the SQL tutorials of `docs_src`, which query the session
  in the endpoint on purpose. Reporting a loop alone, as the reference does, would have
  added 48 findings there, every one a stream, a server-sent-events generator or a
  websocket's receive loop; folding public same-module functions would have reported
  the security tutorials' `login_for_access_token` for the services it calls.
- A file that does not parse, or whose content was not read within the limits, is not
  judged.
""",
)
