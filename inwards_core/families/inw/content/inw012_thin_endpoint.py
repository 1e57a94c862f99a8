"""inw.thin-endpoint: an HTTP endpoint does work that belongs behind it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Literal

import attrs

from inwards_core import (
    CheckKind,
    ModuleInfo,
    ProjectModel,
    ReadScope,
    Violation,
    option,
    quoted,
)
from inwards_core.families.inw.content.endpoint_frameworks import FRAMEWORK_PACKAGES, FRAMEWORKS
from inwards_core.families.inw.content.inw012_docs import DOCS
from inwards_core.families.inw.content.inw012_examples import examples
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.module_entries import (
    check_patterns,
    covers_some_module,
    first_match,
)

if TYPE_CHECKING:
    from inwards_core.families.inw.content.endpoint_work import Work
    from inwards_core.families.inw.content.endpoints import Endpoint

DEFAULT_DENY_CALLS = (
    "requests", "httpx", "aiohttp", "urllib.request", "smtplib", "boto3", "redis",
    "sqlalchemy", "psycopg*", "asyncpg", "celery", "django.db.connection",
)  # fmt: skip
DEFAULT_SESSION_TYPES = (
    "sqlalchemy.orm.Session", "sqlalchemy.orm.session.Session", "sqlalchemy.orm.scoped_session",
    "sqlalchemy.ext.asyncio.AsyncSession", "sqlalchemy.ext.asyncio.session.AsyncSession",
    "sqlmodel.Session", "sqlmodel.orm.session.Session",
    "sqlmodel.ext.asyncio.session.AsyncSession",
)  # fmt: skip
# Reporting policy (chosen on the precision sample, see the page): a hard signal (denied
# call, session method) or a size signal (statements, branches, nesting) alone is a
# finding; a loop or a comprehension only adds to another signal (alone it is a stream or
# a websocket's receive loop far more often than logic); a missing delegation counts only
# when the endpoint holds at least DELEGATION_MIN_STATEMENTS statements of its own.
DELEGATION_MIN_STATEMENTS = 3
# In a test module (judged with `check-tests`) size signals don't report: a test's endpoint
# is mostly assertions, which are checks, not logic.


def _check_limit(value: int) -> str | None:
    return None if 0 <= value <= 1000 else "must be between 0 and 1000 (or false: no limit)."


def _check_frameworks(value: tuple[str, ...]) -> str | None:
    for entry in value:
        if entry not in FRAMEWORKS:
            return f'has "{entry}", which is not one of {", ".join(FRAMEWORKS)}.'
    return None


def _check_dotted(value: tuple[str, ...]) -> str | None:
    for entry in value:
        parts = entry.split(".")
        if not entry or not all(part.replace("*", "x").isidentifier() for part in parts):
            return f'has "{entry}", which is not a dotted name (`requests`, `psycopg*.connect`).'
    return None


@attrs.frozen
class ThinEndpointOptions(ScopedOptions):
    """`modules`: where endpoints are judged (all modules when empty)."""

    max_statements: int | Literal[False] = option(
        10,
        check=_check_limit,
        description="Most statements an endpoint may hold, its same-module helpers "
        "included (guards that only raise, abort or return are not counted); false: no limit.",
    )
    max_branches: int | Literal[False] = option(
        2,
        check=_check_limit,
        description="Most decision points (`if`, `elif`, `match` cases, `except` handlers "
        "that do more than raise); false: no limit.",
    )
    max_nesting: int | Literal[False] = option(
        2,
        check=_check_limit,
        description="Deepest nesting of `if`/`for`/`while`/`with`/`try`/`match` blocks; "
        "false: no limit.",
    )
    allow_loops: bool = option(
        False, description="Loops over data (not over a literal or `range(<constant>)`) pass."
    )
    allow_comprehensions: bool = option(
        True, description="List, set, dict and generator comprehensions pass."
    )
    deny_calls: tuple[str, ...] = option(
        DEFAULT_DENY_CALLS,
        check=_check_dotted,
        description="Calls an endpoint may not make itself: dotted prefixes of canonical "
        "names, `*` within a segment (`psycopg*`); replaces the default list.",
    )
    extend_deny_calls: tuple[str, ...] = option(
        (), check=_check_dotted, description="More entries for `deny-calls`."
    )
    deny_receiver_types: tuple[str, ...] = option(
        DEFAULT_SESSION_TYPES,
        check=_check_dotted,
        description="Canonical names of session types: a method called on a parameter "
        "or local name of one of these types is database work in the endpoint.",
    )
    deny_receiver_params: tuple[str, ...] = option(
        (), description="Parameter names treated as sessions whatever their annotation."
    )
    delegate_to: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="Layer names, module prefixes or selectors: an endpoint that calls "
        "nothing in them is reported.",
    )
    decorators: tuple[str, ...] = option(
        (),
        check=_check_dotted,
        description="Canonical names of more decorators that make a function an endpoint.",
    )
    base_classes: tuple[str, ...] = option(
        (),
        check=_check_dotted,
        description="Canonical names of more view base classes; the methods of their "
        "subclasses named like HTTP methods are endpoints.",
    )
    frameworks: tuple[str, ...] = option(
        FRAMEWORKS,
        check=_check_frameworks,
        description="The frameworks whose endpoints are recognised: fastapi (with "
        "Starlette), flask, litestar, django (with Django REST framework).",
    )
    check_tests: bool = option(
        False,
        description="Judge test modules too (`tests`/`test` segments, `test_*`, "
        "`*_test`, `conftest`).",
    )


def _content_packages(options: ThinEndpointOptions) -> tuple[str, ...]:
    packages = [p for f in options.frameworks for p in FRAMEWORK_PACKAGES[f]]
    packages += [entry.split(".")[0] for entry in (*options.decorators, *options.base_classes)]
    return tuple(sorted(set(packages)))


# What the text of a module holding an endpoint holds: a decorator, a registration call,
# or a view class (whose base's name says View or Controller).
_ENDPOINT_WORDS = ("@", "add_api_route", "add_route", "add_url_rule", "Route(", "path(")
_VIEW_WORDS = ("View", "Controller")


def _content_words(options: ThinEndpointOptions) -> tuple[str, ...]:
    bases = [entry.rpartition(".")[2] for entry in options.base_classes]
    return tuple(sorted({*_ENDPOINT_WORDS, *_VIEW_WORDS, *bases}))


def reads(options: ThinEndpointOptions) -> ReadScope:
    """Endpoints may be anywhere: every module is read, content only for those importing
    an enabled framework (or the roots of `decorators`/`base-classes`) whose text holds a
    decorator, a registration call or a view class."""
    return ReadScope(
        modules=options.modules,
        every_module=not options.modules,
        content=True,
        content_imports=_content_packages(options),
        content_words=_content_words(options),
    )


def _delegation(model: ProjectModel, entries: tuple[str, ...]) -> Callable[[str], bool]:
    """Whether a canonical dotted name lies in a module `delegate-to` names (a layer's
    module, or one a prefix or selector covers)."""
    layers = {layer.name for layer in model.config.layers if layer.name in entries}
    memo: dict[str, bool] = {}

    def delegates(name: str) -> bool:
        found = memo.get(name)
        if found is None:
            found = memo[name] = _in_delegates(model, name, entries, layers)
        return found

    return delegates


def _in_delegates(
    model: ProjectModel, name: str, entries: tuple[str, ...], layers: set[str]
) -> bool:
    parts = name.replace("()", "").split(".")
    for end in range(len(parts), 0, -1):
        info = model.index.module(".".join(parts[:end]))
        if info is None:
            continue
        if info.layer is not None and info.layer.name in layers:
            return True
        return first_match(info.name, entries) is not None
    return False


def check(model: ProjectModel, options: ThinEndpointOptions) -> Iterator[Violation]:
    # The recognisers and the measure load only when the rule runs.
    from inwards_core.families.inw.content.endpoint_modules import Judging, judged_modules
    from inwards_core.families.inw.content.endpoint_work import Measure, measure_endpoint

    scope = Judging(
        packages=_content_packages(options),
        frameworks=frozenset(options.frameworks),
        decorators=options.decorators,
        base_classes=options.base_classes,
        check_tests=options.check_tests,
        applies_to=options.applies_to,
    )
    delegation = _delegation(model, options.delegate_to) if options.delegate_to else None
    layers = {layer.name for layer in model.config.layers}
    dead = tuple(
        e for e in options.delegate_to if e not in layers and not covers_some_module(model, e)
    )
    deny = options.deny_calls + options.extend_deny_calls
    for module in judged_modules(model, scope):
        measure = Measure(
            qualify=module.names.qualify,
            deny=deny,
            receiver_types=frozenset(options.deny_receiver_types),
            receiver_params=frozenset(options.deny_receiver_params),
            delegation=delegation,
        )
        qualnames = frozenset(e.function.qualname for e in module.endpoints)
        for endpoint in module.endpoints:
            work = measure_endpoint(
                endpoint.function, endpoint.owner, module.facts, measure, qualnames
            )
            found = _finding(module.info, endpoint, work, options, dead)
            if found is not None:
                yield found


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _listed(items: tuple[str, ...], limit: int = 4) -> str:
    shown = ", ".join(f"`{quoted(item)}`" for item in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _joined(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def signals(
    work: Work, options: ThinEndpointOptions, dead: tuple[str, ...] = ()
) -> tuple[list[str], list[str], list[str]]:
    """(size, supporting, hard) signals tripped, each a clause with its number and limit.
    `dead`: the `delegate-to` entries naming no layer and no module (said in the clause:
    a typo there would otherwise read as a missing call)."""
    size: list[str] = []
    limits = (
        (work.statements, options.max_statements, "statement"),
        (work.branches, options.max_branches, "branch"),
    )
    for number, limit, noun in limits:
        if limit is not False and number > limit:
            plural = _count(number, noun).replace("branchs", "branches")
            size.append(f"{plural} (at most {limit})")
    if options.max_nesting is not False and work.nesting > options.max_nesting:
        size.append(f"blocks nested {work.nesting} deep (at most {options.max_nesting})")
    supporting: list[str] = []
    if not options.allow_loops and work.loops:
        supporting.append(_count(work.loops, "loop") + " over data")
    if not options.allow_comprehensions and work.comprehensions:
        supporting.append(_count(work.comprehensions, "comprehension"))
    hard: list[str] = []
    if work.denied_calls:
        hard.append(f"direct calls to {_listed(work.denied_calls)}")
    if work.session_calls:
        hard.append(f"database session calls {_listed(work.session_calls)}")
    if work.delegates is False and work.statements >= DELEGATION_MIN_STATEMENTS:
        note = f" ({_listed(dead)} names no layer and no module)" if dead else ""
        hard.append(f"no call into {_listed(options.delegate_to)}{note}")
    return size, supporting, hard


def _finding(
    info: ModuleInfo,
    endpoint: Endpoint,
    work: Work,
    options: ThinEndpointOptions,
    dead: tuple[str, ...] = (),
) -> Violation | None:
    size, supporting, hard = signals(work, options, dead)
    from inwards_core.families.inw.content.content_names import is_test_module

    if not hard and (not size or is_test_module(info.name)):
        return None
    tripped = size + supporting + hard
    qualname = endpoint.function.qualname
    name = qualname.rpartition(".<locals>.")[2]
    helpers = ""
    if work.helpers:
        shown = tuple(h.rpartition(".<locals>.")[2] for h in work.helpers)
        helpers = f" (with its helpers {_listed(shown)})"
    stable = f"HTTP endpoint `{quoted(name)}` does work that belongs behind it"
    message = f"{stable}{helpers}: {_joined(tripped)}."
    return Violation(
        file=info.file,
        module=info.name,
        span=endpoint.function.span,
        message=message,
        stable_message=stable + ".",
        params={
            "endpoint": quoted(name),
            "signals": _joined(tripped),
            "delegate_to": ", ".join(quoted(e) for e in options.delegate_to)
            or "the application layer",
        },
    )


KIND = CheckKind(
    id="inw.thin-endpoint",
    summary="An HTTP endpoint does work that belongs behind it.",
    options_type=ThinEndpointOptions,
    check=check,
    reads=reads,
    guidance_params={
        "endpoint": "the endpoint's function (`Class.method` for a handler method)",
        "signals": "the signals it trips, each with its number and limit",
        "delegate_to": "the `delegate-to` entries, or `the application layer` when unset",
    },
    docs=DOCS,
    examples=examples,
)

__all__ = ["KIND", "ThinEndpointOptions", "check", "reads", "signals"]
