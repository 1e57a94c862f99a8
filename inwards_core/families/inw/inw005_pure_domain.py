"""inw.pure-domain: a layer imports a library it may not use."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Config,
    Example,
    KindDocs,
    Layer,
    ProjectModel,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering import ScopedOptions, layered_files

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
  standard library's sockets, subprocesses and HTTP modules.

Entries are import names and cover their submodules (`sqlalchemy` covers `sqlalchemy.orm`). When
an allow entry and a deny entry both match, the longer one decides; on a tie, allow wins.
Dynamic imports with a readable target are checked the same way.
""",
    why_is_this_bad="""
The innermost layer holds the rules of the business. Once it talks to a database or the
network, it can't be tested or changed without them, and infrastructure concerns leak into
every decision.
""",
    how_to_fix="""
Keep the library in an outer layer behind a port (a `typing.Protocol`) that the inner layer
owns, or, if the library really is part of the model (a pure computation library), allow it
for the layer with `allow-libraries` or by removing it from the layer's deny list.
""",
    limitations="""
Distribution names are not mapped to import names (write `yaml`, not `PyYAML`).
""",
)

DEFAULT_DENY = (
    # web frameworks and task queues
    "django", "fastapi", "flask", "litestar", "starlette", "celery", "grpc",
    # databases and ORMs
    "sqlalchemy", "sqlmodel", "alembic", "peewee", "psycopg", "psycopg2", "asyncpg",
    "pymysql", "pymongo", "redis", "sqlite3",
    # network clients
    "requests", "httpx", "aiohttp", "urllib3", "boto3", "botocore", "pika",
    # standard-library I/O
    "socket", "subprocess", "http.client", "http.server", "urllib.request", "smtplib", "ftplib",
)  # fmt: skip


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
    `kind` (an allowlist is about third-party code only)."""
    return (
        layer.allow_libraries is not None
        and kind == "third-party"
        and _longest(name, layer.allow_libraries) is None
    )


def refused(config: Config, layer: Layer, name: str, kind: str) -> bool:
    return denying_entry(config, layer, name) is not None or outside_allowlist(layer, name, kind)


def allowed_layers(config: Config, name: str, kind: str) -> list[str]:
    return [layer.name for layer in config.layers if not refused(config, layer, name, kind)]


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    config = model.config
    index = model.index
    for info, layer, facts in layered_files(model, options):
        candidates = [(fact.target, fact.span, fact.statement) for fact in facts.imports]
        candidates += [
            (dyn.target, dyn.span, dyn.statement) for dyn in facts.dynamic_imports if dyn.target
        ]
        for name, span, statement in candidates:
            if not name or index.is_first_party(name):
                continue
            kind = index.classify(name)
            denied_by = denying_entry(config, layer, name)
            if denied_by is None and not outside_allowlist(layer, name, kind):
                continue
            library = quoted(denied_by if denied_by is not None else name.split(".")[0])
            elsewhere = [n for n in allowed_layers(config, name, kind) if n != layer.name]
            shown_layer = quoted(layer.name)
            rule_text = (
                f'"{shown_layer}" denies it'
                if denied_by is not None
                else f'it is not in the allow-libraries of "{shown_layer}"'
            )
            stable = (
                f'Layer "{shown_layer}" imports "{quoted(name)}" from the {kind} library '
                f'"{library}", which it may not use.'
            )
            yield Violation(
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
                },
            )


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="The domain opens a database session",
            good=False,
            files={
                "shop/domain/pricing.py": (
                    "from sqlalchemy.orm import Session  # expect: INW005\n\n"
                    "def price(session: Session) -> int:\n    return 0\n"
                ),
            },
        ),
        Example(
            title="An allowlist on the application layer",
            good=False,
            config=(
                "[tool.inwards]\n"
                "layers = [\n"
                '  { name = "domain", modules = ["shop.domain"] },\n'
                '  { name = "application", modules = ["shop.application"], allow-libraries = ["attrs"] },\n'
                '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
                "]\n"
            ),
            files={
                "shop/application/service.py": (
                    "import json\nimport attrs\nimport requests  # expect: INW005\n"
                ),
            },
        ),
        Example(
            title="The standard library's pure modules are fine",
            good=True,
            files={
                "shop/domain/money.py": (
                    "from dataclasses import dataclass\nfrom decimal import Decimal\n\n"
                    "@dataclass(frozen=True)\nclass Money:\n    amount: Decimal\n"
                ),
                "shop/infrastructure/db.py": "import sqlalchemy\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.pure-domain",
    summary="A layer imports a library it may not use.",
    options_type=ScopedOptions,
    check=check,
    guidance_params={
        "layer": "the layer of the importing module",
        "library": "the library the layer may not use",
        "imported": "what is imported",
        "statement": "the import statement, as one line",
        "allowed_in": "the layers that may use the library, quoted (`no layer yet` when none may)",
    },
    docs=DOCS,
    examples=examples,
)
