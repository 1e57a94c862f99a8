"""The plugins of an entry-point group, read straight from the installed distributions'
metadata files: the one way inwards finds rule families (`PluginHost.create` loads them).

importlib.metadata does the same, but importing it costs more than a whole one-file check
may take; this reads only `*.dist-info/entry_points.txt` (and `*.egg-info`) on `sys.path`,
in path order, the first distribution of a name winning, as importlib.metadata does.

Only the installed environment is searched, never the working directory or the checked
project (see `installed_paths` and docs/hostile-input.md).
"""

from __future__ import annotations

import importlib
import os
import re
import site
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

import attrs

from inwards_core.model.value_repr import value_repr

if TYPE_CHECKING:
    from pathlib import Path

GROUP = "inwards"
_NORMALISE = re.compile(r"[-_.]+")


@attrs.frozen
class EntryPoint:
    __repr__ = value_repr

    name: str
    target: str  # "package.module" or "package.module:attribute"
    distribution: str  # as its metadata folder spells it: inwards_rules_tidy
    version: str
    metadata: str = ""  # the `*.dist-info` or `*.egg-info` folder

    def load(self) -> object:
        module_name, _, attribute = self.target.partition(":")
        module = module_name.strip()
        loaded = importlib.import_module(module)  # inwards: ignore[INW011] reason="a plugin"
        for part in filter(None, attribute.strip().split(".")):
            loaded = getattr(loaded, part)
        return loaded

    def project_name(self) -> str:
        """The distribution's name as its metadata declares it (inwards-rules-tidy), read
        only when a message needs it; the folder's spelling when it can't be read."""
        for file in ("METADATA", "PKG-INFO"):
            try:
                with open(os.path.join(self.metadata, file), encoding="utf-8") as handle:
                    for line in handle:
                        if not line.strip():
                            break  # the headers end at the first empty line
                        key, _, value = line.partition(":")
                        if key.strip().lower() == "name" and value.strip():
                            return value.strip()
            except (OSError, UnicodeDecodeError):
                continue
        return self.distribution


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


# Per tuple of paths: their stamp, and (folder, distribution, version, entry_points.txt) of
# each distribution. Read again only when a path's directory changed (an install or an
# uninstall adds or removes a metadata folder there), so a process kept running (the
# language server, the daemon) sees what is installed now.
_DECLARED: dict[tuple[str, ...], tuple[tuple[int, ...], tuple[tuple[str, str, str, str], ...]]] = {}


def paths_stamp(paths: Iterable[str]) -> tuple[int, ...]:
    """When each of `paths` last changed (-1: not there): another stamp after a
    distribution was installed or removed there."""
    stamp: list[int] = []
    for entry in paths:
        try:
            stamp.append(os.stat(entry or ".").st_mtime_ns)
        except OSError:
            stamp.append(-1)
    return tuple(stamp)


def _declared(paths: Iterable[str]) -> tuple[tuple[str, str, str, str], ...]:
    key = tuple(paths)
    stamp = paths_stamp(key)
    known = _DECLARED.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    found: list[tuple[str, str, str, str]] = []
    seen: set[str] = set()
    for folder, distribution, version in _distributions(key):
        normalised = _NORMALISE.sub("-", distribution).lower()
        if normalised in seen:
            continue
        seen.add(normalised)
        try:
            with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as handle:
                found.append((folder, distribution, version, handle.read()))
        except OSError:
            continue
    _DECLARED[key] = (stamp, tuple(found))
    return _DECLARED[key][1]


def entry_points(group: str = GROUP, paths: Iterable[str] | None = None) -> list[EntryPoint]:
    """The entry points of `group` declared by the distributions on `paths` (by default
    the installed environment's entries of `sys.path`). The metadata is read again only
    when a path's directory changed."""
    return [
        EntryPoint(name, target, distribution, version, folder)
        for folder, distribution, version, text in _declared(
            installed_paths() if paths is None else paths
        )
        for name, target in _section(text, group)
    ]


def installed_entry_points(project_dir: Path | None = None, group: str = GROUP) -> list[EntryPoint]:
    """The entry points of `group` installed in this environment, none from the working
    directory or inside `project_dir`."""
    return entry_points(group, installed_paths(project_dir))


def _real(path: str) -> str:
    return os.path.realpath(path or os.curdir)


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _site_directories() -> set[str]:
    # `site` computes these from sys.prefix; `sysconfig` would say the same and costs 1 ms.
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return {_real(folder) for folder in folders if folder}


def installed_paths(project_dir: Path | None = None) -> list[str]:
    """The entries of `sys.path` that hold installed code: not the working directory
    (`''`, or its path, as `python -m` and `python -c` add it), nor anything inside the
    checked project, but the interpreter's site-packages wherever they are (a virtualenv
    inside the project is installed code)."""
    site_directories = _site_directories()
    excluded = [_real(os.curdir)]
    if project_dir is not None:
        excluded.append(_real(str(project_dir)))
    kept: list[str] = []
    for entry in sys.path:
        real = _real(entry)
        if real in site_directories or not any(_inside(real, top) for top in excluded):
            kept.append(entry)
    return kept


def inside_project(path: str, project_dir: Path) -> bool:
    """Whether `path` lies inside the checked project and is not installed code: a
    site-packages of this interpreter is installed code wherever it is (a virtualenv inside
    the project, as uv makes), as for `installed_paths`."""
    real = _real(path)
    if any(_inside(real, folder) for folder in _site_directories()):
        return False
    return _inside(real, _real(str(project_dir)))


# Families to leave out of a run, comma-separated (the command line adds --disable-plugin).
DISABLE_VARIABLE = "INWARDS_DISABLE_PLUGINS"


def disabled_names(
    given: Iterable[str] = (), environ: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """The plugin names to leave out: those of `DISABLE_VARIABLE` in `environ` (by default
    the process's), then `given`; each value may hold several, comma-separated."""
    variable = (os.environ if environ is None else environ).get(DISABLE_VARIABLE, "")
    names: list[str] = []
    for value in (variable, *given):
        for name in value.split(","):
            if name.strip() and name.strip() not in names:
                names.append(name.strip())
    return tuple(names)


def _plugin_key(name: str) -> str:
    return _NORMALISE.sub("-", name).lower()


def without_disabled(
    points: Iterable[EntryPoint], disabled: Iterable[str]
) -> tuple[list[EntryPoint], tuple[str, ...]]:
    """`points` less those named in `disabled`, by entry-point name (`tidy`) or distribution
    (`inwards-rules-tidy`), in any letter case, before anything is imported (the point is to
    run without a family that fails to load); and the names that matched no entry point."""
    wanted = {_plugin_key(name): name for name in disabled}
    kept: list[EntryPoint] = []
    used: set[str] = set()
    for point in points:
        keys = {_plugin_key(point.name), _plugin_key(point.distribution)}
        matched = keys & wanted.keys()
        if matched:
            used |= matched
        else:
            kept.append(point)
    return kept, tuple(name for key, name in wanted.items() if key not in used)
