"""What `inwards init` learns from and does to the project on disk: the pyproject's text and
`[project].name`, the modules that exist below the root, the scaffold's files (never over an
existing one), an in-process check of a table, and the tree of what each layer may import.
"""

from __future__ import annotations

import keyword
import os
import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inwards_cli.adapters.atomic import failure_reason
from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.commands.console import fail
from inwards_cli.config_file import CONFIG_NAME, MAX_CONFIG_BYTES, LoadedConfig
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import Config
from inwards_core.model.findings import Report
from inwards_core.presets import ScaffoldFile

_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "build", "dist"})
MAX_LISTED_MODULES = 20_000
"""A walk that finds more stops there: the names only feed guesses and context lists."""


def read_pyproject(path: Path) -> str:
    """The text of `path`; exit 2 naming the file when it can't be read as UTF-8."""
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
    except OSError as error:
        fail(f"error: {path.name} can't be read: {failure_reason(error)}.")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(f"error: {path.name} is not UTF-8 (byte {error.start}); inwards reads it as UTF-8.")


def project_name(text: str) -> str | None:
    """`[project].name` normalised into an import name (lower case, `-` and `.` as `_`)."""
    from inwards_core.config.nesting import TomlTooDeepError, load_toml

    try:
        project = load_toml(text).get("project")
    except tomllib.TOMLDecodeError:
        return None
    except TomlTooDeepError as error:
        where = f":{error.line}" if error.line else ""
        fail(f"error: pyproject.toml{where}: {error}.")
    name = project.get("name") if isinstance(project, dict) else None
    if not isinstance(name, str) or not name:
        return None
    return re.sub(r"[-.]+", "_", name.strip().lower())


def valid_package(name: str) -> bool:
    """A top-level package name: an identifier that isn't a keyword (no dots: the layers
    are named below it, and the scaffold makes it a folder)."""
    return name.isidentifier() and not keyword.iskeyword(name)


def root_for(project_dir: Path, package: str) -> str:
    """`src` for a src layout holding the package, else the project directory itself."""
    return "src" if (project_dir / "src" / package).is_dir() else "."


def package_exists(project_dir: Path, package: str) -> bool:
    """The package is there already, in a src layout or at the top."""
    return (project_dir / "src" / package).is_dir() or (project_dir / package).is_dir()


def existing_modules(project_dir: Path, root: str, package: str) -> tuple[str, ...]:
    """The dotted names of the modules and packages below `root` inside `package` (the
    package included), sorted; directories starting with `.` and build output skipped."""
    start = project_dir / root / package
    if not start.is_dir():
        return ()
    found: set[str] = {package}
    for directory, folders, files in os.walk(start):
        folders[:] = sorted(
            name for name in folders if not name.startswith(".") and name not in _SKIPPED_DIRS
        )
        relative = Path(directory).relative_to(project_dir / root).parts
        prefix = ".".join(relative)
        found.add(prefix)
        for name in files:
            if name.endswith((".py", ".pyi")) and name.split(".")[0].isidentifier():
                stem = name.split(".")[0]
                if stem != "__init__":
                    found.add(f"{prefix}.{stem}")
        if len(found) > MAX_LISTED_MODULES:
            break
    return tuple(sorted(found))


def scaffold_modules(files: Sequence[ScaffoldFile], root: str) -> tuple[str, ...]:
    """The dotted names the scaffold's files will give (for the contexts a table lists)."""
    names: set[str] = set()
    prefix = "" if root == "." else root.rstrip("/") + "/"
    for file in files:
        if not file.path.startswith(prefix) or not file.path.endswith(".py"):
            continue
        parts = file.path[len(prefix) :].removesuffix(".py").split("/")
        if parts[0] in ("tests", "manage"):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        for depth in range(1, len(parts) + 1):
            names.add(".".join(parts[:depth]))
    return tuple(sorted(names))


def kept_package_markers(project_dir: Path, files: Sequence[ScaffoldFile]) -> set[str]:
    """The scaffold's empty `__init__.py` files that exist already as regular files: an
    existing package is used as it is, its marker neither rewritten nor a clash."""
    return {
        file.path
        for file in files
        if file.path.endswith("/__init__.py")
        and not file.text
        and not os.path.islink(project_dir / file.path)
        and (project_dir / file.path).is_file()
    }


def scaffold_clashes(project_dir: Path, files: Sequence[ScaffoldFile]) -> list[str]:
    """The scaffold's paths that exist already (a file, a directory or any link)."""
    return [
        file.path
        for file in files
        if os.path.lexists(project_dir / file.path) or _blocked_parent(project_dir, file.path)
    ]


def _blocked_parent(project_dir: Path, path: str) -> bool:
    """A folder on the way is a file or a link: the file can't be created there."""
    parent = (project_dir / path).parent
    while parent != project_dir:
        if os.path.islink(parent) or (os.path.lexists(parent) and not parent.is_dir()):
            return True
        parent = parent.parent
    return False


def write_scaffold(project_dir: Path, files: Sequence[ScaffoldFile]) -> None:
    """Create each file, never replacing one (`x` mode: a file that appeared since the
    clash check is an error, not overwritten)."""
    for file in files:
        target = project_dir / file.path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "x", encoding="utf-8", newline="\n") as stream:
                stream.write(file.text)
        except OSError as error:
            fail(f"error: can't create {file.path}: {failure_reason(error)}.")


def check_table(project_dir: Path, text: str, table: Mapping[str, Any]) -> Report:
    """Check the project in this process as `inwards check` would with `table` as its
    `[tool.inwards]` (`text`: the pyproject holding it, for positions), writing nothing:
    no cache, no memo. Raises `ConfigError` for a table or rule that can't be used."""
    from inwards_cli.bootstrap import bootstrap
    from inwards_cli.composition import build_whole_config, resolve_rule_roots
    from inwards_core.api import prepare
    from inwards_core.engine import check_project

    loaded = LoadedConfig(
        path=project_dir / CONFIG_NAME,
        project_dir=project_dir,
        table=table,
        positions=TomlPositions(text),
        text=text,
    )
    config = build_whole_config(loaded, isolated=False)
    resolved = resolve_rule_roots(loaded, config, isolated=False, use_cache=False)
    prepared = prepare(config, resolved.rule_set)
    adapters = bootstrap(project_dir, no_cache=True)
    return check_project(prepared.config, prepared.rules, adapters.ports)


def findings_per_rule(report: Report) -> list[str]:
    """One line per rule with findings: `INW001 layer-dependency: 3 errors`, by code."""
    counts = Counter((item.code, item.rule, item.severity.value) for item in report.findings)
    lines = []
    for (code, rule, severity), count in sorted(counts.items()):
        lines.append(f"  {code} {rule}: {count} {severity}{'' if count == 1 else 's'}")
    return lines


def layer_tree(config: Config) -> list[str]:
    """What each layer may import, innermost first: `application  <- may import: domain`."""
    width = max((len(layer.name) for layer in config.layers), default=0)
    lines = []
    for layer in config.layers:
        below = [other.name for other in config.layers if other.rank < layer.rank]
        allowed = ", ".join(below) if below else "no other layer"
        siblings = [
            other.name
            for other in config.layers
            if other.rank == layer.rank and other.name != layer.name
        ]
        apart = f" (not {', '.join(siblings)}: siblings)" if siblings else ""
        lines.append(f"  {layer.name.ljust(width)}  <- may import: {allowed}{apart}")
    return lines
