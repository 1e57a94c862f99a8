"""Where INW001's fix suggests declaring a port: a module the importing layer owns.

Following the recipe must not make a new finding, so the suggested module is always one
that `index.layer_of` gives to the importing module's layer, and never one of an outer
layer: the layer's own package's `ports` (`shop.domain.ports` for `shop.domain.order` in
layer "domain") when the layer owns it; else an existing `ports` module of the layer, the
nearest to the importing module; else a new `ports` module in a package the layer owns; else
the importing module itself (a layer that owns single modules, no package).
"""

from __future__ import annotations

from inwards_core import Layer, ProjectModel

PORTS = "ports"


class PortModules:
    """The suggestion for each importing module of one run; what the project holds is
    looked up once per layer."""

    def __init__(self, model: ProjectModel) -> None:
        self._model = model
        self._existing: dict[str, list[str]] | None = None
        self._packages: dict[str, list[str]] | None = None

    def for_module(self, module: str, layer: Layer) -> str:
        """A module `layer` owns where `module`'s code may declare what it needs."""
        natural = f"{_package_of(module, layer.name)}.{PORTS}"
        if self._owned(natural, layer):
            return natural
        existing = self._existing_by_layer().get(layer.name, [])
        if existing:
            return _nearest(module, existing)
        packages = self._packages_by_layer().get(layer.name, [])
        if packages:
            return f"{_nearest(module, packages)}.{PORTS}"
        return module

    def _owned(self, name: str, layer: Layer) -> bool:
        return self._model.index.layer_of(name) == layer

    def _existing_by_layer(self) -> dict[str, list[str]]:
        """The layers' existing `ports` modules (or packages), by layer name."""
        if self._existing is None:
            self._existing = {}
            for name in self._model.index.modules:
                if name.rpartition(".")[2] == PORTS:
                    owner = self._model.index.layer_of(name)
                    if owner is not None:
                        self._existing.setdefault(owner.name, []).append(name)
        return self._existing

    def _packages_by_layer(self) -> dict[str, list[str]]:
        """The packages each layer owns whose `ports` module it would own too."""
        if self._packages is None:
            self._packages = {}
            for package in self._model.index.packages():
                owner = self._model.index.layer_of(package)
                if owner is not None and self._owned(f"{package}.{PORTS}", owner):
                    self._packages.setdefault(owner.name, []).append(package)
        return self._packages


def _nearest(module: str, names: list[str]) -> str:
    """The name sharing the most leading parts with `module`; then the shortest (a
    layer's top package over one deep inside it); then the first by name."""
    parts = module.split(".")

    def shared(name: str) -> int:
        count = 0
        for mine, theirs in zip(parts, name.split("."), strict=False):
            if mine != theirs:
                break
            count += 1
        return count

    return min(names, key=lambda name: (-shared(name), name.count("."), name))


def _package_of(module: str, layer_name: str) -> str:
    """The layer's package as seen from one of its modules (`shop.domain` for
    `shop.domain.order` in layer "domain"); falls back to the module's package."""
    parts = module.split(".")
    if layer_name in parts:
        return ".".join(parts[: parts.index(layer_name) + 1])
    return ".".join(parts[:-1]) or module
