"""Starting configurations for `inwards init`, pure data: one `Preset` per architecture
style, the `[tool.inwards]` table it writes for a package (`styles.py`), the small passing
example package `--scaffold` writes (`scaffold.py`), and the name-based guess of
`--style auto` (`auto.py`). No TOML library and no disk here: the command renders and
writes what these return."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from inwards_core.model.value_repr import value_repr
from inwards_core.presets.scaffold import ScaffoldFile, scaffold_files
from inwards_core.presets.styles import (
    PresetTarget,
    bounded_contexts_table,
    clean_table,
    django_table,
    fastapi_table,
    hexagonal_table,
    layered_table,
    vertical_slices_table,
)

__all__ = [
    "PRESETS",
    "STYLE_NAMES",
    "Preset",
    "PresetTarget",
    "ScaffoldFile",
    "preset_comment",
]


@attrs.frozen
class Preset:
    """One architecture style. `layers` and `extras` say in words what the table holds;
    `not_enforced` is the gap the written comment names."""

    __repr__ = value_repr

    name: str
    summary: str
    layers: str
    extras: str
    not_enforced: str
    build: Callable[[PresetTarget], dict[str, Any]] = attrs.field(repr=False)
    # Where the scaffold puts the package: `src/<package>`, or the project directory itself.
    scaffold_root: str = "src"

    def table(self, target: PresetTarget) -> dict[str, Any]:
        """The `[tool.inwards]` mapping for `target`, keys in the order they are written."""
        return self.build(target)

    def scaffold(self, package: str, root: str | None = None) -> tuple[ScaffoldFile, ...]:
        """The files of a small example package in this style that passes `inwards check`
        under `table(...)`, paths relative to the project directory: the package below
        `root` (`"src"` or `"."`; default `scaffold_root`), the tests in `tests/`."""
        files = scaffold_files(self.name, package)
        if root is None or root == self.scaffold_root:
            return files
        top = f"{package}/"
        moved = []
        for file in files:
            path = file.path
            if root == "." and path.startswith("src/"):
                path = path.removeprefix("src/")
            elif root == "src" and path.startswith(top):
                path = f"src/{path}"
            moved.append(ScaffoldFile(path, file.text))
        return tuple(sorted(moved, key=lambda file: file.path))


def preset_comment(preset: Preset) -> str:
    """The comment written at the top of the table: the style, and what it leaves out."""
    gap = textwrap.fill(f"Not enforced by this preset: {preset.not_enforced}", width=86)
    return f"Preset: {preset.name} (written by `inwards init --style {preset.name}`).\n{gap}"


_PRESETS = (
    Preset(
        name="layered",
        summary="classic n-tier: each layer may use the ones below it",
        layers="domain, persistence, services, presentation, bootstrap",
        extras="a shape for the package (its members are the layers)",
        not_enforced="services may use persistence directly (no ports are required), and "
        "what the domain may import beyond the default library list.",
        build=layered_table,
    ),
    Preset(
        name="clean",
        summary="clean architecture: use cases behind ports, adapters built only in bootstrap",
        layers="domain, application, infrastructure, presentation, bootstrap",
        extras="INW014 and INW015 as warnings (ports abstract, infrastructure built only in "
        "bootstrap); a shape (application holds ports and use_cases)",
        not_enforced="tests may build adapters anywhere; entities' purity beyond the "
        "library lists; which use case a presenter calls.",
        build=clean_table,
    ),
    Preset(
        name="hexagonal",
        summary="ports and adapters: inbound and outbound adapters are independent siblings",
        layers="domain, application, [outbound | inbound] (siblings), bootstrap",
        extras="INW014 and INW015 as warnings (ports abstract, adapters built only in "
        "bootstrap); a shape (application holds ports)",
        not_enforced="that every port has an adapter; that inbound adapters go through a "
        "use case rather than a port's implementation they were given.",
        build=hexagonal_table,
    ),
    Preset(
        name="vertical-slices",
        summary="one package per feature, each with its own layers and a public api",
        layers="shared, features (each slice: domain, application, adapters, api), bootstrap",
        extras="a template for the slices, one context per slice (public: its api), shapes",
        not_enforced="what goes into shared (feature logic can creep in), and slices calling "
        "each other's api (allowed: only the private parts are protected).",
        build=vertical_slices_table,
    ),
    Preset(
        name="bounded-contexts",
        summary="domain-driven contexts, each layered, talking through their api",
        layers="kernel, contexts (each: domain, application, infrastructure, api), bootstrap",
        extras="a template for the contexts, one context per package (public: its api), shapes",
        not_enforced="which contexts may depend on which (add depends-on per context), and "
        "what the shared kernel holds.",
        build=bounded_contexts_table,
    ),
    Preset(
        name="django",
        summary="Django apps: models, services, views, urls, and the project package",
        layers="models, services, views (with admin), urls, project (settings, urls, wsgi, asgi)",
        extras="INW002 off; each app a context whose public module is its services",
        not_enforced="signals, ORM queries written in views or templates, and settings "
        "read at import time.",
        build=django_table,
        scaffold_root=".",
    ),
    Preset(
        name="fastapi",
        summary="FastAPI services by domain (the fastapi-best-practices layout)",
        layers="kernel, per domain (constants, config | exceptions, models | schemas, "
        "utils, service, dependencies, router), main",
        extras="INW002 off; FAPI001-003, FAPI005-009, INW012, INW013 and INW016 as warnings; "
        "fastapi and starlette kept out of models, schemas, utils and service; each domain "
        "a context",
        not_enforced="database sessions passed into routers, and background tasks' side effects.",
        build=fastapi_table,
    ),
)

PRESETS: Mapping[str, Preset] = {preset.name: preset for preset in _PRESETS}
STYLE_NAMES: tuple[str, ...] = (*PRESETS, "auto")
