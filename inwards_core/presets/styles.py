"""The `[tool.inwards]` table of each preset, as a plain mapping for one package.

Every table starts with the same head (`root`, `required-version`, `ignore`, `cycles`) and
loads through `inwards_core.config.build_config` as written (tests/presets check each). The
contexts a style declares are one per package that exists already (`PresetTarget.modules`):
context `modules` must be literal prefixes, so a new slice or app needs its own entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from inwards_core.model.value_repr import value_repr

DEFAULT_IGNORE = ("/tests",)
"""Test code sits outside the layers on purpose: tests build adapters and reach inside."""

# What an innermost models layer may not import in the django preset: the default list less
# django itself and the databases (a Django model is an ORM class by design).
_DJANGO_MODEL_DENY = (
    "fastapi",
    "flask",
    "celery",
    "requests",
    "httpx",
    "aiohttp",
    "urllib3",
    "boto3",
    "socket",
    "subprocess",
    "http.client",
    "urllib.request",
    "smtplib",
)

_FASTAPI_WARNINGS = (
    "FAPI001",
    "FAPI002",
    "FAPI003",
    "FAPI005",
    "FAPI006",
    "FAPI007",
    "FAPI008",
    "FAPI009",
    "INW012",
    "INW013",
)
FASTAPI_ROLES = (
    "constants",
    "config | exceptions",
    "models | schemas",
    "utils",
    "service",
    "dependencies",
    "router",
)
_FASTAPI_KERNEL = ("config", "constants", "exceptions", "database")
SLICE_ROLES = ("domain", "application", "adapters", "api")
CONTEXT_ROLES = ("domain", "application", "infrastructure", "api")


@attrs.frozen
class PresetTarget:
    """What a table is written for: the top-level `package`, the `root` its modules start
    from, the inwards `version` the project will require, and the dotted names of the
    modules and packages that exist below the root already (for the contexts a style
    declares)."""

    __repr__ = value_repr

    package: str
    root: str = "src"
    version: str = "0.0.0"
    modules: tuple[str, ...] = ()

    def children(self, parent: str) -> tuple[str, ...]:
        """The last segments of the existing modules and packages directly below `parent`, sorted."""
        depth = parent.count(".") + 1
        return tuple(
            sorted(
                {
                    name.split(".")[depth]
                    for name in self.modules
                    if name.startswith(parent + ".") and name.count(".") >= depth
                }
            )
        )


def head(target: PresetTarget, *, ignore: Sequence[str] = DEFAULT_IGNORE) -> dict[str, Any]:
    return {
        "root": target.root,
        "required-version": target.version,
        "ignore": list(ignore),
        "cycles": ["modules", "contexts"],
    }


def _layer(name: str, *modules: str, **keys: Any) -> dict[str, Any]:
    return {"name": name, "modules": list(modules), **keys}


def layered_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    return {
        **head(target),
        "layers": [
            _layer("domain", f"{p}.domain"),
            _layer("persistence", f"{p}.persistence"),
            _layer("services", f"{p}.services"),
            _layer("presentation", f"{p}.presentation"),
            _layer("bootstrap", f"{p}.bootstrap", f"{p}.__main__"),
        ],
        "shape": [
            {
                "packages": [p],
                "allow": [
                    "domain/",
                    "persistence/",
                    "services/",
                    "presentation/",
                    "bootstrap",
                    "__main__.py",
                ],
                "extra": "warning",
            }
        ],
    }


def _ports_and_construction(ports: str, role: str, composition_root: str) -> dict[str, Any]:
    return {
        "extend-select": ["INW014", "INW015"],
        "severity": {"INW014": "warning", "INW015": "warning"},
        "ports-abstract": {"modules": [ports]},
        "construct-only-in": {"role": [role], "allowed-in": [composition_root]},
    }


def clean_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    return {
        **head(target),
        "layers": [
            _layer("domain", f"{p}.domain"),
            _layer("application", f"{p}.application"),
            _layer("infrastructure", f"{p}.infrastructure"),
            _layer("presentation", f"{p}.presentation"),
            _layer("bootstrap", f"{p}.bootstrap", f"{p}.__main__"),
        ],
        "rules": _ports_and_construction(
            f"{p}.application.ports", f"{p}.infrastructure", f"{p}.bootstrap"
        ),
        "shape": [{"packages": [f"{p}.application"], "require": ["ports", "use_cases"]}],
    }


def hexagonal_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    return {
        **head(target),
        "layers": [
            _layer("domain", f"{p}.domain"),
            _layer("application", f"{p}.application"),
            [
                _layer("outbound", f"{p}.adapters.outbound"),
                _layer("inbound", f"{p}.adapters.inbound"),
            ],
            # The adapters package itself is the composition side's: its facade may name both.
            _layer("bootstrap", f"{p}.bootstrap", f"{p}.adapters", f"{p}.__main__"),
        ],
        "rules": _ports_and_construction(
            f"{p}.application.ports", f"{p}.adapters", f"{p}.bootstrap"
        ),
        "shape": [{"packages": [f"{p}.application"], "require": ["ports"]}],
    }


def vertical_slices_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    features = f"{p}.features"
    slices = target.children(features)
    table: dict[str, Any] = {
        **head(target),
        "layers": [
            _layer("shared", f"{p}.shared"),
            _layer("features", f"{features}.*", template="slice"),
            _layer("bootstrap", f"{p}.bootstrap", f"{p}.__main__"),
        ],
        "templates": {"slice": {"roles": list(SLICE_ROLES), "public": ["api"]}},
        "shape": [{"packages": [f"{features}.*"], "template": "slice", "extra": "warning"}],
    }
    if slices:
        table["contexts"] = [
            {"name": name, "modules": [f"{features}.{name}"], "template": "slice"}
            for name in slices
        ]
    return table


def bounded_contexts_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    contexts = _packages_with_roles(target, p, CONTEXT_ROLES)
    table: dict[str, Any] = {
        **head(target),
        "layers": [
            _layer("kernel", f"{p}.kernel"),
            _layer("contexts", f"{p}.*", template="context"),
            _layer("bootstrap", f"{p}.bootstrap", f"{p}.__main__"),
        ],
        "templates": {"context": {"roles": list(CONTEXT_ROLES), "public": ["api"]}},
    }
    if contexts:
        table["contexts"] = [
            {"name": name, "modules": [f"{p}.{name}"], "template": "context"} for name in contexts
        ]
        table["shape"] = [
            {
                "packages": [f"{p}.{name}" for name in contexts],
                "template": "context",
                "extra": "warning",
            }
        ]
    return table


def django_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    apps = _packages_with_roles(target, p, ("models", "views", "services", "urls", "apps"))
    table: dict[str, Any] = {
        **head(target, ignore=("tests", "migrations", "/manage")),
        "layers": [
            _layer("models", f"{p}.*.models", **{"deny-libraries": list(_DJANGO_MODEL_DENY)}),
            _layer("services", f"{p}.*.services"),
            _layer("views", f"{p}.*.views", f"{p}.*.admin"),
            _layer("urls", f"{p}.*.urls"),
            _layer(
                "project",
                f"{p}.settings",
                f"{p}.urls",
                f"{p}.wsgi",
                f"{p}.asgi",
                f"{p}.*.apps",
            ),
        ],
        "rules": {"ignore": ["INW002"]},
    }
    if apps:
        table["contexts"] = [
            {
                "name": name,
                "modules": [f"{p}.{name}"],
                "public": [f"{p}.{name}.services", f"{p}.{name}.urls"],
            }
            for name in apps
        ]
    return table


def fastapi_table(target: PresetTarget) -> dict[str, Any]:
    p = target.package
    domains = [
        name
        for name in _packages_with_roles(target, p, FASTAPI_ROLES_FLAT)
        if name not in _FASTAPI_KERNEL
    ]
    table: dict[str, Any] = {
        **head(target),
        "layers": [
            # The shared plumbing: exceptions subclass HTTPException and database holds the
            # engine, so the innermost layer's default library list would refuse both.
            _layer(
                "kernel", *(f"{p}.{name}" for name in _FASTAPI_KERNEL), **{"deny-libraries": []}
            ),
            _layer("domains", f"{p}.*", template="fastapi-domain"),
            _layer("main", f"{p}.main"),
        ],
        "templates": {
            "fastapi-domain": {
                "roles": list(FASTAPI_ROLES),
                "public": ["router", "dependencies", "service", "schemas", "constants"],
                "rules": {"models": {"orm-naming": "warning"}},
            }
        },
        "rules": {
            "ignore": ["INW002"],
            "extend-select": list(_FASTAPI_WARNINGS),
            "severity": dict.fromkeys(_FASTAPI_WARNINGS, "warning"),
            "pure-domain": {
                "deny": [
                    {
                        "modules": [f"{p}.*.{role}" for role in ("models", "schemas", "utils")]
                        + [f"{p}.*.service"],
                        "libraries": ["fastapi", "starlette"],
                    }
                ]
            },
            "undocumented-error-response": {"report-direct-raises": False},
            "thin-endpoint": {"delegate-to": [f"{p}.*.service"]},
        },
    }
    if domains:
        table["contexts"] = [
            {"name": name, "modules": [f"{p}.{name}"], "template": "fastapi-domain"}
            for name in domains
        ]
    return table


FASTAPI_ROLES_FLAT = tuple(role.strip() for roles in FASTAPI_ROLES for role in roles.split("|"))


def _packages_with_roles(
    target: PresetTarget, parent: str, roles: Sequence[str]
) -> tuple[str, ...]:
    """The packages directly below `parent` holding at least one of `roles` (a module or a
    package of that name)."""
    return tuple(
        name
        for name in target.children(parent)
        if any(role in target.children(f"{parent}.{name}") for role in roles)
    )
