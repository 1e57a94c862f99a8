"""inw.pure-domain: a layer imports a library it may not use."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import attrs

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Config,
    KindDocs,
    Layer,
    ModuleFacts,
    ModuleInfo,
    ProjectModel,
    Reach,
    ReadScope,
    Span,
    Violation,
    library_entry,
    option,
    quoted,
)
from inwards_core.families.inw.layering.inw005_examples import examples
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.module_entries import first_match, module_list

# The innermost layer's deny list when it names none (listed on the rule's page).
DEFAULT_DENY_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("web frameworks and task queues", (
        "django", "fastapi", "flask", "litestar", "starlette", "celery", "grpc",
    )),
    ("databases and ORMs", (
        "sqlalchemy", "sqlmodel", "alembic", "peewee", "psycopg", "psycopg2", "asyncpg",
        "pymysql", "pymongo", "redis", "sqlite3",
    )),
    ("network clients", (
        "requests", "httpx", "aiohttp", "urllib3", "boto3", "botocore", "pika",
    )),
    ("the standard library's I/O", (
        "socket", "subprocess", "http.client", "http.server", "urllib.request", "smtplib",
        "ftplib",
    )),
)  # fmt: skip
DEFAULT_DENY = tuple(name for _, names in DEFAULT_DENY_GROUPS for name in names)


def _default_deny_markdown() -> str:
    return "\n".join(
        f"- {title}: {', '.join(f'`{name}`' for name in names)}"
        for title, names in DEFAULT_DENY_GROUPS
    )


DOCS = KindDocs(
    what_it_does="""
Classifies every import in a layered module as first-party (code of this project), standard
library, or third-party, and reports the libraries a layer may not use:

- `deny-libraries` on a layer lists libraries (standard library included) it may not import;
  on the innermost layer it replaces the default list below.
- `extend-deny-libraries` adds entries to whatever list is in force.
- `allow-libraries` turns the layer into an allowlist for third-party code: any third-party
  library not listed is refused (the standard library stays allowed unless denied).
- The innermost layer (each sibling of an innermost group) of a configuration with two or more
  ranks denies, by default, web frameworks, database drivers and ORMs, network clients and the
  standard library's sockets, subprocesses and HTTP modules (the list is under "How to fix").

Entries are import names and cover their submodules (`sqlalchemy` covers `sqlalchemy.orm`). When
an allow entry and a deny entry both match, the longer one decides; on a tie, allow wins.
Dynamic imports with a readable target are checked the same way.

In a uv workspace, another member's package (`acme.core` imported from the member holding
`acme.api`) is a *workspace package*: the message calls it so, and the lists above refuse it
as they refuse a third-party library (see docs/workspaces.md).

The rule's own `deny` option keeps libraries out of modules whatever their layer:

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application", "shop.billing"] },
]

[tool.inwards.rules.pure-domain]
deny = [
  { modules = ["shop.billing"], libraries = ["requests", "httpx"] },
  { modules = ["shop.*.reports"], libraries = ["subprocess"] },
]
```

Each entry names modules (prefixes or selectors, as layers take them) and the libraries they
may not import (import names, standard library included). It applies to those modules even
outside every layer, and no layer's `allow-libraries` lifts it.
""",
    why_is_this_bad="""
The innermost layer holds the rules of the business. Once it talks to a database or the
network, it can't be tested or changed without them, and infrastructure concerns leak into
every decision.
""",
    how_to_fix="""
Keep the library in an outer layer behind a port (a `typing.Protocol`) that the inner layer
owns, or, if the library really is part of the model (a pure computation library), allow it
for the layer with `allow-libraries` or by removing it from the layer's deny list. For a
library the rule's `deny` refuses, move the code that needs it out of the modules the entry
names, or take the library out of that entry.

The innermost layer denies these by default, each entry with its submodules; `deny-libraries`
on the layer replaces the list (copy it without the entries the model needs):

DEFAULT_DENY_LIST
""".replace("DEFAULT_DENY_LIST", _default_deny_markdown()),
    limitations="""
Distribution names are not mapped to import names (write `yaml`, not `PyYAML`). A `deny`
entry whose modules match nothing is not reported.
""",
)


def _check_libraries(value: tuple[str, ...]) -> str | None:
    if not value:
        return "must list at least one library."
    for entry in value:
        problem = library_entry(entry)
        if problem is not None:
            return problem
    return None


@attrs.frozen
class DenyEntry:
    """`modules`: the module prefixes or selectors this entry applies to. `libraries`: the
    libraries (import names, standard library included) they may not import."""

    modules: tuple[str, ...] = module_list(required=True)
    libraries: tuple[str, ...] = option((), check=_check_libraries, required=True)


@attrs.frozen
class PureDomainOptions(ScopedOptions):
    """`deny`: entries `{ modules = [...], libraries = [...] }` keeping libraries out of
    modules whatever their layer (no layer's `allow-libraries` lifts them)."""

    deny: tuple[DenyEntry, ...] = option(
        (),
        description="Libraries kept out of modules whatever their layer: each entry "
        "`{ modules = [...], libraries = [...] }` names module prefixes or selectors and the "
        "libraries (import names, standard library included) they may not import. No "
        "layer's `allow-libraries` lifts it.",
    )


def reads(options: PureDomainOptions) -> ReadScope:
    """Modules a `deny` entry names are read even outside every layer."""
    return ReadScope(modules=tuple(name for entry in options.deny for name in entry.modules))


def _longest(name: str, entries: tuple[str, ...]) -> str | None:
    best: str | None = None
    for entry in entries:
        if (name == entry or name.startswith(entry + ".")) and (
            best is None or len(entry) > len(best)
        ):
            best = entry
    return best


def denied_entries(config: Config, layer: Layer) -> tuple[str, ...]:
    innermost = layer.rank == 0 and config.ranks >= 2
    if layer.deny_libraries is not None:
        base = layer.deny_libraries
    else:
        base = DEFAULT_DENY if innermost else ()
    return base + layer.extend_deny_libraries


def denying_entry(config: Config, layer: Layer, name: str) -> str | None:
    """The entry of the layer's deny list that refuses the library `name` (one longer than
    any `allow-libraries` entry covering it), or None."""
    deny = _longest(name, denied_entries(config, layer))
    if deny is None:
        return None
    allow = _longest(name, layer.allow_libraries or ())
    return deny if allow is None or len(deny) > len(allow) else None


def outside_allowlist(layer: Layer, name: str, kind: str) -> bool:
    """Whether the layer's `allow-libraries` leave out `name`, a library of provenance
    `kind` (an allowlist is about third-party code only, a uv workspace's other members
    included)."""
    return (
        layer.allow_libraries is not None
        and kind in ("third-party", "workspace")
        and _longest(name, layer.allow_libraries) is None
    )


def refused(config: Config, layer: Layer, name: str, kind: str) -> bool:
    return denying_entry(config, layer, name) is not None or outside_allowlist(layer, name, kind)


def allowed_layers(config: Config, name: str, kind: str) -> list[str]:
    return [layer.name for layer in config.layers if not refused(config, layer, name, kind)]


def _library_imports(model: ProjectModel, facts: ModuleFacts) -> Iterator[tuple[str, Span, str]]:
    """(name, span, statement) of each import, static or readable dynamic, of code that is
    not this project's."""
    index = model.index
    for fact in facts.imports:
        if fact.target and not index.is_first_party(fact.target):
            yield fact.target, fact.span, fact.statement
    for dyn in facts.dynamic_imports:
        if dyn.target and not index.is_first_party(dyn.target):
            yield dyn.target, dyn.span, dyn.statement


def _denied_here(module: str, deny: Sequence[DenyEntry]) -> list[tuple[str, DenyEntry]]:
    """The `deny` entries that apply to `module`, each with the modules entry matching it."""
    found = []
    for entry in deny:
        matched = first_match(module, entry.modules)
        if matched is not None:
            found.append((matched, entry))
    return found


def _rule_denial(name: str, entries: Sequence[tuple[str, DenyEntry]]) -> tuple[str, str] | None:
    """(modules entry, library entry) of the longest `deny` library covering `name`."""
    best: tuple[str, str] | None = None
    for matched, entry in entries:
        library = _longest(name, entry.libraries)
        if library is not None and (best is None or len(library) > len(best[1])):
            best = (matched, library)
    return best


def check(model: ProjectModel, options: PureDomainOptions) -> Iterator[Violation]:
    for info in model.checked:
        facts = model.facts.get(info.file)
        if facts is None or not options.applies_to(info.name):
            continue
        denied_here = _denied_here(info.name, options.deny) if options.deny else []
        layer = info.layer
        if layer is None and not denied_here:
            continue
        for name, span, statement in _library_imports(model, facts):
            kind = model.index.classify(name)
            denial = _rule_denial(name, denied_here) if denied_here else None
            where = (info, span, statement)
            if denial is not None:
                yield _denied_by_rule(where, layer, name, kind, denial)
            elif layer is not None:
                found = _denied_to_layer(model.config, where, layer, name, kind)
                if found is not None:
                    yield found


# Where an import is: the importing module, the import's span and its statement.
_Where = tuple[ModuleInfo, Span, str]


def _denied_by_rule(
    where: _Where, layer: Layer | None, name: str, kind: str, denial: tuple[str, str]
) -> Violation:
    info, span, statement = where
    entry, library = (quoted(text) for text in denial)
    stable = (
        f'"{quoted(info.name)}" imports "{quoted(name)}" from {_source(kind, library)}, '
        f'which the rule\'s `deny` keeps out of "{entry}".'
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=span,
        message=stable,
        variant="deny",
        params={
            "layer": quoted(layer.name) if layer is not None else "",
            "library": library,
            "imported": quoted(name),
            "statement": statement,
            "allowed_in": "",
            "denied_to": entry,
        },
    )


def _source(kind: str, library: str) -> str:
    """Where an imported name comes from, as the message says it: `the third-party library
    "sqlalchemy"`, or, for another member of the uv workspace, `the workspace package
    "acme.core"`."""
    if kind == "workspace":
        return f'the workspace package "{library}"'
    return f'the {kind} library "{library}"'


def _denied_to_layer(
    config: Config, where: _Where, layer: Layer, name: str, kind: str
) -> Violation | None:
    """The finding for a library the layer's own lists refuse, or None."""
    info, span, statement = where
    denied_by = denying_entry(config, layer, name)
    if denied_by is None and not outside_allowlist(layer, name, kind):
        return None
    package = name.split(".")[0]
    if kind == "workspace":  # named as the member provides it: "acme.core", not "acme"
        package = _longest(name, config.workspace_packages) or package
    library = quoted(denied_by if denied_by is not None else package)
    elsewhere = [n for n in allowed_layers(config, name, kind) if n != layer.name]
    shown_layer = quoted(layer.name)
    rule_text = (
        f'"{shown_layer}" denies it'
        if denied_by is not None
        else f'it is not in the allow-libraries of "{shown_layer}"'
    )
    stable = (
        f'Layer "{shown_layer}" imports "{quoted(name)}" from {_source(kind, library)}, '
        "which it may not use."
    )
    return Violation(
        file=info.file,
        module=info.name,
        span=span,
        message=f"{stable[:-1]}: {rule_text}.",
        stable_message=stable,
        params={
            "layer": shown_layer,
            "library": library,
            "imported": quoted(name),
            "statement": statement,
            "allowed_in": quoted(", ".join(f'"{quoted(n)}"' for n in elsewhere), LIST_LIMIT)
            or "no layer yet",
            "denied_to": "",
        },
    )


KIND = CheckKind(
    id="inw.pure-domain",
    reach=Reach.FILE,
    summary="A layer imports a library it may not use.",
    options_type=PureDomainOptions,
    check=check,
    reads=reads,
    guidance_params={
        "layer": "the layer of the importing module",
        "library": "the library the layer may not use",
        "imported": "what is imported",
        "statement": "the import statement, as one line",
        "allowed_in": "the layers that may use the library, quoted (`no layer yet` when none "
        "may; empty for a library the rule's `deny` refuses)",
        "denied_to": "the modules entry of the rule's `deny` that refuses the library (empty "
        "for a layer's own lists)",
    },
    docs=DOCS,
    examples=examples,
)
