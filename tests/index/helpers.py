"""Hand-built listings and configurations for the index tests (no disk)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from inwards_core.config.values import DEFAULT_GENERATED, Config, Layer
from inwards_core.index.modules import ModuleIndex
from inwards_core.ports import ProjectListing


def listing(files: Iterable[str], extra_dirs: Iterable[str] = ()) -> ProjectListing:
    """A listing of `files` with every directory above them (plus `extra_dirs`)."""
    file_list = sorted(files)
    directories: set[str] = set(extra_dirs)
    for path in file_list:
        parts = path.split("/")[:-1]
        for depth in range(1, len(parts) + 1):
            directories.add("/".join(parts[:depth]))
    return ProjectListing(files=tuple(file_list), directories=tuple(sorted(directories)))


def layers(*spec: tuple[str, Sequence[str]]) -> tuple[Layer, ...]:
    """Layers innermost first, each `(name, modules)`."""
    return tuple(
        Layer(name=name, modules=tuple(modules), rank=rank, key=f"tool.inwards.layers[{rank}]")
        for rank, (name, modules) in enumerate(spec)
    )


def config(
    *spec: tuple[str, Sequence[str]],
    root: str = ".",
    ignore: Sequence[str] = (),
    generated: Sequence[str] = DEFAULT_GENERATED,
    namespace_packages: Sequence[str] = (),
) -> Config:
    return Config(
        file="pyproject.toml",
        root=root,
        layers=layers(*spec),
        ignore=tuple(ignore),
        generated=tuple(generated),
        namespace_packages=tuple(namespace_packages),
    )


def index(
    files: Iterable[str],
    *spec: tuple[str, Sequence[str]],
    extra_dirs: Iterable[str] = (),
    path_extending: frozenset[str] = frozenset(),
    **options: object,
) -> ModuleIndex:
    cfg = config(*spec, **options)  # type: ignore[arg-type]
    return ModuleIndex.build(cfg, listing(files, extra_dirs), path_extending)
