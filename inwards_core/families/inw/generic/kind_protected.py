"""inw.protected: only the listed importers may import a module."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from inwards_core import (
    LIST_LIMIT,
    CheckKind,
    Example,
    Fix,
    KindDocs,
    ProjectModel,
    ReadScope,
    Violation,
    quoted,
)
from inwards_core.families.inw.generic.allowed_imports import (
    UNUSED_ALLOW_PARAMS,
    AllowedImports,
    allow_option,
)
from inwards_core.families.inw.generic.ignored_imports import (
    IGNORED_IMPORT_PARAMS,
    IMPORT_OPTIONS_DOCS,
    dynamic_option,
    honours_import_options,
    ignore_imports_option,
    missing_modules_option,
    reads_ignored_importers,
    type_checking_option,
    unmatched_ignore_option,
)
from inwards_core.families.inw.generic.import_chains import ROUTE_PARAMS, direct_params
from inwards_core.families.inw.module_entries import (
    DEAD_ENTRY_PARAMS,
    ONE_LAYER_CONFIG,
    as_packages_option,
    covers,
    dead_entries,
    first_cover,
    import_cover,
    module_list,
)

DOCS = KindDocs(
    what_it_does="""
Reports every import of code that an entry of `modules` covers, made by a module that no
entry of `importers` covers. Code inside a protected entry may always import the rest of
that entry (`shop.orders.internal.a` may import `shop.orders.internal.b`). Entries are
prefixes or selectors; `importers = []` (the default) means only the protected code itself.
Every module of the project is checked as an importer, including those that no layer owns;
only direct imports count. An entry of `modules` may also name a library (standard library
or third-party) by import name or dotted prefix, `requests` or `django.db`: only the
importers may import it.

With `as-packages = false` (import-linter's `as_packages = false`) each entry of `modules`
and of `importers` stands for the module it names only: code below a protected module may
not import it, and code below an importer is no importer.

`allow` lets single imports through without making their module an importer of everything
protected: `"shop.reports.monthly -> shop.db.session.readonly"` (module prefixes or selectors on
both sides). An entry that lets no import through is reported as a warning in the rule's
definition.
"""
    + IMPORT_OPTIONS_DOCS,
    why_is_this_bad="""
A protected module is an implementation detail (a package's internals, a generated client,
a database session factory) that only a few places should touch. Each new importer
spreads the detail further and makes it harder to change.
""",
    how_to_fix="""
Import what the protected package exposes for everyone (its public module or a port)
instead. If the importer really needs the internals, add it to `importers` in the rule's
definition, where the review of the change will see it.
""",
    limitations="""
Modules in `ignore` are not checked as importers. Chains through other modules are not
followed: only direct imports of protected code are reported.
""",
)


@attrs.frozen
class ProtectedOptions:
    """Who may import a module.

    `modules` lists the protected modules (prefixes or selectors); code inside one may always
    import it. `importers` lists the only other modules (prefixes or selectors) that may
    import them; leave it empty to allow none. `allow` lists single imports the rule lets
    through, as `"importer -> imported"`.
    """

    modules: tuple[str, ...] = module_list(required=True)
    importers: tuple[str, ...] = module_list()
    allow: tuple[str, ...] = allow_option()
    ignore_imports: tuple[str, ...] = ignore_imports_option()
    unmatched_ignore: str = unmatched_ignore_option()
    type_checking: bool = type_checking_option()
    dynamic: bool = dynamic_option()
    missing_modules: bool = missing_modules_option()
    as_packages: bool = as_packages_option()


@reads_ignored_importers
def reads(options: ProtectedOptions) -> ReadScope:
    return ReadScope(modules=options.modules, every_module=True)


GUIDANCE_PARAMS = {
    "module": "the module that imports",
    "imported": "the protected module or name it imports",
    "statement": "the import statement, as one line",
    "protected": "the `modules` entry that protects it",
    "importers": "the `importers` entries, comma-separated (empty when there are none)",
    "chain": "the import as `module:line -> imported`",
    "via": "empty: this kind judges direct imports only",
    **ROUTE_PARAMS,
    **DEAD_ENTRY_PARAMS,
    **UNUSED_ALLOW_PARAMS,
    **IGNORED_IMPORT_PARAMS,
}


@honours_import_options
def check(model: ProjectModel, options: ProtectedOptions) -> Iterator[Violation]:
    allowed = quoted(", ".join(f'"{quoted(entry)}"' for entry in options.importers), LIST_LIMIT)
    importers = quoted(", ".join(map(quoted, options.importers)), LIST_LIMIT)
    permitted = AllowedImports(options.allow)
    as_packages = options.as_packages
    for info in model.checked:
        if first_cover(info.name, options.importers, as_packages=as_packages) is not None:
            continue
        for edge in model.import_edges(info):
            entry = import_cover(
                edge.target, edge.first_party, options.modules, as_packages=as_packages
            )
            if entry is None or covers(entry, info.name, as_package=as_packages):
                continue  # code inside a protected entry may import it
            if permitted.permits(edge):
                continue
            shown = quoted(entry)
            inside = f'code inside "{shown}"'
            who = f"{allowed} and {inside}" if allowed else inside
            what = (
                f'the protected module "{shown}"'
                if edge.target == entry
                else f'"{quoted(edge.target)}", inside the protected "{shown}"'
            )
            yield Violation(
                file=info.file,
                module=info.name,
                span=edge.span,
                message=f'"{quoted(info.name)}" imports {what}: only {who} may import it.',
                params={**direct_params(edge), "protected": shown, "importers": importers},
                fallback=Fix(
                    f'Import what "{shown}" exposes to everyone instead.',
                    (
                        f"Delete `{edge.statement}` and use the public interface instead.",
                        f'If "{quoted(info.name)}" really needs it, add it to `importers` in the '
                        "rule.",
                    ),
                ),
            )
    yield from dead_entries(model, "modules", options.modules, libraries=True)
    yield from dead_entries(model, "importers", options.importers)
    yield from permitted.unused(model)


_SESSIONS = """\
code = "ACME030"
name = "sessions-in-repositories"
summary = "Database sessions are opened outside the repositories."
check = "inw.protected"

[options]
modules = ["shop.db.session"]
importers = ["shop.repositories", "shop.bootstrap"]

[guidance]
summary = 'Use a repository instead of "{imported}" in "{module}".'
steps = ["Delete `{statement}`.", "Call a repository from shop.repositories, which owns the sessions."]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A view opens a session itself",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME030.toml": _SESSIONS},
            files={
                "shop/db/session.py": "def open_session() -> object: ...\n",
                "shop/repositories/orders.py": "from shop.db.session import open_session\n",
                "shop/bootstrap.py": "from shop.db import session\n",
                "shop/views/orders.py": (
                    "def list_orders() -> None:\n"
                    "    from shop.db.session import open_session  # expect: ACME030\n"
                ),
            },
        ),
        Example(
            title="One import let through, without a new importer of everything",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME031.toml": _SESSIONS.replace("ACME030", "ACME031").replace(
                    'importers = ["shop.repositories", "shop.bootstrap"]',
                    'importers = ["shop.repositories"]\n'
                    'allow = ["shop.bootstrap -> shop.db.session"]',
                ),
            },
            files={
                "shop/db/session.py": "def open_session() -> object: ...\n",
                "shop/repositories/orders.py": "from shop.db.session import open_session\n",
                "shop/bootstrap.py": "from shop.db import session\n",
            },
        ),
        Example(
            title="Views go through a repository",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={"ACME030.toml": _SESSIONS},
            files={
                "shop/db/session.py": "def open_session() -> object: ...\n",
                "shop/repositories/orders.py": "from shop.db.session import open_session\n",
                "shop/bootstrap.py": "from shop.db import session\n",
                "shop/views/orders.py": "from shop.repositories.orders import open_session\n",
            },
        ),
        Example(
            title="Type-only imports of the protected module left out",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME032.toml": _SESSIONS.replace("ACME030", "ACME032").replace(
                    'importers = ["shop.repositories", "shop.bootstrap"]',
                    'importers = ["shop.repositories"]\n'
                    'ignore-imports = ["shop.bootstrap -> shop.db.session"]\n'
                    "type-checking = false",
                ),
            },
            files={
                "shop/db/session.py": "class Session: ...\n",
                "shop/repositories/orders.py": "from shop.db.session import Session\n",
                "shop/bootstrap.py": "from shop.db import session\n",
                "shop/views/orders.py": (
                    "from typing import TYPE_CHECKING\n\n"
                    "if TYPE_CHECKING:\n    from shop.db.session import Session\n"
                ),
            },
        ),
        Example(
            title="A library only the HTTP adapter may use",
            good=False,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME033.toml": """\
code = "ACME033"
name = "requests-in-http-adapter"
summary = "HTTP calls are made outside the HTTP adapter."
check = "inw.protected"

[options]
modules = ["requests", "httpx"]
importers = ["shop.adapters.http"]
""",
            },
            files={
                "shop/adapters/http/client.py": "import requests\n",
                "shop/views/orders.py": (
                    "from requests.exceptions import Timeout  # expect: ACME033\n"
                ),
            },
        ),
        Example(
            title="A package's own module protected, not what is below it",
            good=True,
            config=ONE_LAYER_CONFIG,
            definitions={
                "ACME034.toml": """\
code = "ACME034"
name = "settings-from-bootstrap"
summary = "The settings module is read outside the bootstrap."
check = "inw.protected"

[options]
modules = ["shop.settings"]
importers = ["shop.bootstrap"]
as-packages = false
""",
            },
            files={
                "shop/settings/__init__.py": "DEBUG = False\n",
                "shop/settings/defaults.py": "TIMEOUT = 5\n",
                "shop/bootstrap.py": "import shop.settings\n",
                "shop/views/orders.py": "from shop.settings.defaults import TIMEOUT\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.protected",
    summary="A module is imported by code that is not among its allowed importers.",
    options_type=ProtectedOptions,
    check=check,
    reads=reads,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
