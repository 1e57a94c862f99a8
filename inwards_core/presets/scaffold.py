"""The example package `inwards init --scaffold` writes for each style: an entity, a
`typing.Protocol` port, a use case taking the port, an adapter implementing it, an inbound
adapter, a composition root and one test, placed where the style's layers want them.

Each set passes `inwards check` under its preset's table (tests/e2e/test_init.py runs every
one). The texts are templates: `{p}` is the package; `{x}` the dotted module of role x.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from inwards_core.model.value_repr import value_repr
from inwards_core.presets import framework_texts as framework
from inwards_core.presets import scaffold_texts as texts


@attrs.frozen
class ScaffoldFile:
    """One file to write: `path` relative to the project directory (POSIX), and its text."""

    __repr__ = value_repr

    path: str
    text: str


# Per style: the module (below the package) of each role of the generic example.
_ROLES: Mapping[str, Mapping[str, str]] = {
    "layered": {
        "entities": "domain.entities",
        "ports": "domain.ports",
        "use_cases": "services.orders",
        "adapter": "persistence.memory",
        "inbound": "presentation.cli",
    },
    "clean": {
        "entities": "domain.entities",
        "ports": "application.ports.orders",
        "use_cases": "application.use_cases.place_order",
        "adapter": "infrastructure.memory",
        "inbound": "presentation.cli",
    },
    "hexagonal": {
        "entities": "domain.entities",
        "ports": "application.ports",
        "use_cases": "application.use_cases",
        "adapter": "adapters.outbound.memory",
        "inbound": "adapters.inbound.cli",
    },
}


def scaffold_files(style: str, package: str) -> tuple[ScaffoldFile, ...]:
    """The files of `style`'s example for `package`, sorted by path."""
    if style in _ROLES:
        files = _layered_files(package, _ROLES[style])
    elif style == "vertical-slices":
        files = _slice_files(package, "features.orders", texts.SHARED, "shared")
    elif style == "bounded-contexts":
        files = _slice_files(package, "orders", texts.SHARED, "kernel")
    elif style == "django":
        files = _django_files(package)
    elif style == "fastapi":
        files = _fastapi_files(package)
    else:
        raise ValueError(f"no scaffold for the style {style!r}")
    return tuple(sorted(files, key=lambda file: file.path))


def _render(template: str, package: str, modules: Mapping[str, str]) -> str:
    dotted = {role: f"{package}.{module}" for role, module in modules.items()}
    return _sorted_imports(template.format(p=package, **dotted), package)


def _sorted_imports(text: str, package: str) -> str:
    """Each run of `from <package>.` lines sorted, as isort and ruff want them: the roles'
    modules differ by style, so the templates can't hold them in order."""
    lines = text.split("\n")
    start = 0
    while start < len(lines):
        end = start
        while end < len(lines) and lines[end].startswith(f"from {package}."):
            end += 1
        if end > start:
            lines[start:end] = sorted(lines[start:end])
        start = end + 1
    return "\n".join(lines)


def _module_path(prefix: str, dotted: str) -> str:
    return f"{prefix}/{dotted.replace('.', '/')}.py"


def _packages_of(prefix: str, modules: Mapping[str, str]) -> set[str]:
    """Every package (`__init__.py`) above the modules, the top package included."""
    found = {f"{prefix}/__init__.py"}
    for module in modules.values():
        parts = module.split(".")[:-1]
        for depth in range(1, len(parts) + 1):
            found.add(f"{prefix}/{'/'.join(parts[:depth])}/__init__.py")
    return found


def _assemble(
    package: str,
    prefix: str,
    modules: Mapping[str, str],
    templates: Mapping[str, str],
    extra: Mapping[str, str],
) -> list[ScaffoldFile]:
    """The role modules (`templates` by role), their packages, and `extra` files (path to
    template), each rendered for `package`."""
    files = dict.fromkeys(_packages_of(prefix, modules), "")
    for role, module in modules.items():
        files[_module_path(prefix, module)] = templates[role]
    files.update(extra)
    return [ScaffoldFile(path, _render(text, package, modules)) for path, text in files.items()]


def _layered_files(package: str, roles: Mapping[str, str]) -> list[ScaffoldFile]:
    prefix = f"src/{package}"
    return _assemble(
        package,
        prefix,
        roles,
        {
            "entities": texts.ENTITIES,
            "ports": texts.PORTS,
            "use_cases": texts.USE_CASES,
            "adapter": texts.MEMORY_ADAPTER,
            "inbound": texts.CLI,
        },
        {
            f"{prefix}/bootstrap.py": texts.BOOTSTRAP,
            f"{prefix}/__main__.py": texts.MAIN,
            "tests/conftest.py": texts.CONFTEST,
            "tests/test_use_cases.py": texts.TEST_USE_CASES,
        },
    )


def _slice_files(package: str, unit: str, shared: str, shared_name: str) -> list[ScaffoldFile]:
    """A slice or a context: one module per role, the api wiring its own adapter (code
    outside may import the api alone), and a shared package both use."""
    prefix = f"src/{package}"
    roles = {
        "shared": f"{shared_name}.checks",
        "entities": f"{unit}.domain",
        "use_cases": f"{unit}.application",
        "adapter": f"{unit}.{'adapters' if shared_name == 'shared' else 'infrastructure'}",
        "api": f"{unit}.api",
    }
    return _assemble(
        package,
        prefix,
        roles,
        {
            "shared": shared,
            "entities": texts.CHECKED_ENTITIES,
            "use_cases": texts.PORTS_AND_USE_CASE,
            "adapter": texts.MEMORY_ADAPTER,
            "api": texts.SLICE_API,
        },
        {
            f"{prefix}/bootstrap.py": texts.SLICE_BOOTSTRAP,
            f"{prefix}/__main__.py": texts.MAIN,
            "tests/conftest.py": texts.CONFTEST,
            "tests/test_use_cases.py": texts.TEST_USE_CASES,
        },
    )


def _django_files(package: str) -> list[ScaffoldFile]:
    app = "orders"
    roles = {
        "models": f"{app}.models",
        "services": f"{app}.services",
        "views": f"{app}.views",
        "admin": f"{app}.admin",
        "urls": f"{app}.urls",
        "apps": f"{app}.apps",
    }
    modules = {**roles, "settings": "settings", "project_urls": "urls"}
    return _assemble(
        package,
        package,
        modules,
        {
            "models": framework.DJANGO_MODELS,
            "services": framework.DJANGO_SERVICES,
            "views": framework.DJANGO_VIEWS,
            "admin": framework.DJANGO_ADMIN,
            "urls": framework.DJANGO_APP_URLS,
            "apps": framework.DJANGO_APPS,
            "settings": framework.DJANGO_SETTINGS,
            "project_urls": framework.DJANGO_PROJECT_URLS,
        },
        {
            f"{package}/wsgi.py": framework.DJANGO_WSGI,
            f"{package}/asgi.py": framework.DJANGO_ASGI,
            "manage.py": framework.DJANGO_MANAGE,
            "tests/test_services.py": framework.DJANGO_TEST,
        },
    )


def _fastapi_files(package: str) -> list[ScaffoldFile]:
    domain = "orders"
    roles = {
        role: f"{domain}.{role}"
        for role in (
            "constants",
            "config",
            "exceptions",
            "models",
            "schemas",
            "utils",
            "service",
            "dependencies",
            "router",
        )
    }
    kernel = {
        "database": "database",
        "kernel_config": "config",
        "kernel_constants": "constants",
        "kernel_exceptions": "exceptions",
    }
    modules = {**roles, **kernel, "main": "main"}
    return _assemble(
        package,
        f"src/{package}",
        modules,
        {
            "constants": framework.FASTAPI_CONSTANTS,
            "config": framework.FASTAPI_DOMAIN_CONFIG,
            "exceptions": framework.FASTAPI_EXCEPTIONS,
            "models": framework.FASTAPI_MODELS,
            "schemas": framework.FASTAPI_SCHEMAS,
            "utils": framework.FASTAPI_UTILS,
            "service": framework.FASTAPI_SERVICE,
            "dependencies": framework.FASTAPI_DEPENDENCIES,
            "router": framework.FASTAPI_ROUTER,
            "database": framework.FASTAPI_DATABASE,
            "kernel_config": framework.FASTAPI_CONFIG,
            "kernel_constants": framework.FASTAPI_KERNEL_CONSTANTS,
            "kernel_exceptions": framework.FASTAPI_KERNEL_EXCEPTIONS,
            "main": framework.FASTAPI_MAIN,
        },
        {
            "tests/conftest.py": texts.CONFTEST,
            "tests/test_service.py": framework.FASTAPI_TEST,
        },
    )
