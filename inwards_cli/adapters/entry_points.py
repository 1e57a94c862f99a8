"""Rule-family plugins found through the `inwards` entry-point group, read straight from
the installed distributions' metadata files.

importlib.metadata does the same, but importing it costs more than a whole one-file check
may take; this reads only `*.dist-info/entry_points.txt` on `sys.path`, in path order, the
first distribution of a name winning, as importlib.metadata does.

Only the installed environment is searched, never the checked project (see
`python_path.installed_paths`).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

from inwards_cli.adapters.python_path import installed_paths

GROUP = "inwards"
_NORMALISE = re.compile(r"[-_.]+")


@attrs.frozen
class EntryPoint:
    name: str
    target: str  # "package.module" or "package.module:attribute"
    distribution: str
    version: str

    def load(self) -> object:
        module_name, _, attribute = self.target.partition(":")
        loaded: object = importlib.import_module(module_name.strip())
        for part in filter(None, attribute.strip().split(".")):
            loaded = getattr(loaded, part)
        return loaded


def _section(text: str, group: str) -> Iterator[tuple[str, str]]:
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            yield name.strip(), value.strip()


def _distributions(paths: Iterable[str]) -> Iterator[tuple[str, str, str]]:
    """(metadata directory, distribution name, version) in sys.path order."""
    for entry in paths:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                stem = name.rsplit(".", 1)[0]
                distribution, _, version = stem.partition("-")
                yield os.path.join(entry or ".", name), distribution, version.partition("-")[0]


def entry_points(group: str = GROUP, paths: Iterable[str] | None = None) -> list[EntryPoint]:
    found: list[EntryPoint] = []
    seen: set[str] = set()
    for folder, distribution, version in _distributions(
        installed_paths() if paths is None else paths
    ):
        key = _NORMALISE.sub("-", distribution).lower()
        if key in seen:
            continue
        seen.add(key)
        try:
            with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as handle:
                text = handle.read()
        except OSError:
            continue
        for name, target in _section(text, group):
            found.append(EntryPoint(name, target, distribution, version))
    return found


def load_plugins(group: str = GROUP, *, project_dir: Path | None = None) -> list[object]:
    """Import every plugin of the group installed outside `project_dir`; a plugin that
    fails names itself."""
    plugins: list[object] = []
    for point in entry_points(group, installed_paths(project_dir)):
        try:
            plugins.append(point.load())
        except Exception as error:
            raise ImportError(
                f'The rule family plugin "{point.name}" ({point.target}) of '
                f"{point.distribution} {point.version} failed to load: {error}"
            ) from error
    return plugins
