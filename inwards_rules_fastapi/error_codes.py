"""The HTTP error codes a path operation can produce, as far as its code shows them, for
FAPI002, in rings:

1. the endpoint itself: `raise HTTPException(404)` / `HTTPException(status_code=...)` and
   error responses it builds (`JSONResponse(..., status_code=409)`);
2. functions of the project it calls (same file or imported, re-exports followed) and its
   `Depends`/`Security` targets (in parameters, in the decorator's `dependencies=`, and
   those its routers, inclusions and app add), and theirs, up to `max_depth` calls away;
3. the project's exceptions it raises on the way that an app's handlers map to codes
   (`exception_handlers`).

A status code written as a variable, a raise of anything else and a method call
(`await manager.get(...)`) are unknown and produce nothing: the rule never reports a code it
guessed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import attrs

from inwards_core import CallFact, FunctionFact, ModuleInfo, ProjectModel
from inwards_rules_fastapi.function_sites import Site, function_site, qualify
from inwards_rules_fastapi.graph_names import split_module
from inwards_rules_fastapi.http_errors import HTTP_EXCEPTIONS
from inwards_rules_fastapi.own_codes import own_codes

_DEPENDS = frozenset(
    f"fastapi.{where}{name}"
    for where in ("", "params.", "param_functions.")
    for name in ("Depends", "Security")
)
_DEPENDENCY_ITEM = re.compile(r"([A-Za-z_][\w.]*)\(([A-Za-z_][\w.]*)\)")


@attrs.frozen
class Origin:
    """Where a code comes from: `via` is "" for the endpoint itself, else the name of the
    function (as written where it is called) that the chain starts with; `returned`: an
    error response, not a raise; `handled`: the exception class (canonical name) an app's
    exception handler maps to the code ("" for a code written in the project's calls)."""

    via: str
    returned: bool = False
    handled: str = ""


def produced_codes(
    model: ProjectModel,
    info: ModuleInfo,
    function: FunctionFact,
    max_depth: int,
    handled: Mapping[str, tuple[int, ...]] | None = None,
    shared: Sequence[tuple[ModuleInfo, str]] = (),
) -> dict[int, Origin]:
    """Each error code (>= 400) the endpoint `function` of module `info` can produce, with
    the first origin found (the endpoint's own before its helpers', in source order);
    `handled` maps exceptions to the codes the apps' handlers give them (see
    `exception_handlers`); `shared` are the dependencies the operation's routers, app and
    inclusions add (their module, the dependency as written there)."""
    from inwards_rules_fastapi.exception_handlers import mapped_codes

    found: dict[int, Origin] = {}
    seen: set[tuple[str, str]] = {(info.name, function.qualname)}
    queue: list[tuple[Site, int, str]] = [(Site(info, function), 0, "")]
    for where, written in shared if max_depth > 0 else ():
        target = function_site(model, qualify(model, where, written))
        if target is not None and (target.info.name, target.function.qualname) not in seen:
            seen.add((target.info.name, target.function.qualname))
            queue.append((target, 1, written))
    while queue:
        site, depth, via = queue.pop(0)
        for code, returned in own_codes(model, site):
            found.setdefault(code, Origin(via, returned))
        for raised in _raised_exceptions(model, site) if handled else ():
            mapped = mapped_codes(model, raised, handled or {})
            for code in mapped[1] if mapped is not None else ():
                found.setdefault(code, Origin(via, True, raised))
        if depth >= max_depth:
            continue
        for written, callee in _callees(model, site):
            key = (callee.info.name, callee.function.qualname)
            if key not in seen:
                seen.add(key)
                queue.append((callee, depth + 1, via or written))
    return found


def listed_dependencies(model: ProjectModel, info: ModuleInfo, text: str) -> list[str]:
    """The dependencies a `dependencies=[...]` value (as content facts write a list) names
    with `Depends(f)` / `Security(f)` of FastAPI's, as written in module `info`."""
    if not (text.startswith("[") and text.endswith("]")):
        return []
    found: list[str] = []
    for item in text[1:-1].split(","):
        matched = _DEPENDENCY_ITEM.fullmatch(item)
        if matched is not None and qualify(model, info, matched.group(1)) in _DEPENDS:
            found.append(matched.group(2))
    return found


def _raised_exceptions(model: ProjectModel, site: Site) -> list[str]:
    """The canonical names of what the function raises, FastAPI's HTTP errors aside."""
    names: list[str] = []
    for call in site.function.calls:
        if call.raised and not call.nested and call.callee and "(" not in call.callee:
            name = qualify(model, site.info, call.callee)
            if name and name not in HTTP_EXCEPTIONS:
                names.append(name)
    return names


def _callees(model: ProjectModel, site: Site) -> list[tuple[str, Site]]:
    """The project's functions `site` calls or depends on: (name as written, the site)."""
    written: list[str] = []
    for call in site.function.calls:
        if not call.nested and call.callee and "(" not in call.callee:
            written.append(call.callee)
    for call in site.function.signature_calls:
        target = _dependency(model, site.info, call)
        if target:
            written.append(target)
    found: list[tuple[str, Site]] = []
    for name in dict.fromkeys(written):
        canonical = qualify(model, site.info, name)
        if not canonical or canonical in HTTP_EXCEPTIONS:
            continue
        callee = function_site(model, canonical)
        if callee is not None:
            found.append((name, callee))
    return found + _alias_dependencies(model, site)


def _alias_dependencies(model: ProjectModel, site: Site) -> list[tuple[str, Site]]:
    """The dependencies of parameters annotated with a module-level alias
    (`CurrentUser = Annotated[User, Depends(get_current_user)]`): the `Depends` calls
    written from the alias's line up to the next top-level statement of its module."""
    found: list[tuple[str, Site]] = []
    for name in dict.fromkeys(n for p in site.function.params for n in p.annotation):
        where = split_module(model, qualify(model, site.info, name))
        if where is None or not where[1] or "." in where[1]:
            continue
        info, last = where
        facts = model.content(info)
        if facts is None:
            continue
        lines = sorted(
            {b.span.line for b in facts.bindings}
            | {f.span.line for f in facts.functions if "." not in f.qualname}
            | {c.span.line for c in facts.classes if "." not in c.qualname}
        )
        for binding in facts.bindings:
            if binding.name != last:
                continue
            end = next((line for line in lines if line > binding.span.line), 10**9)
            for call in facts.calls:
                if binding.span.line <= call.span.line < end:
                    target = _dependency(model, info, call)
                    callee = function_site(model, qualify(model, info, target)) if target else None
                    if callee is not None:
                        found.append((target, callee))
    return found


def _dependency(model: ProjectModel, info: ModuleInfo, call: CallFact) -> str:
    """The dependency `Depends(f)` / `Security(f)` names, as written; "" otherwise."""
    if not call.callee or qualify(model, info, call.callee) not in _DEPENDS:
        return ""
    argument = call.positional[0] if call.positional else ""
    for keyword, value in zip(call.keywords, call.keyword_values, strict=False):
        if keyword == "dependency" and not argument:
            argument = value
    if not argument or argument.startswith('"') or "(" in argument:
        return ""
    return argument
