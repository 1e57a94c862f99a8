"""The project a hook run works on: its configuration, the session that checks it, and the
digests the start record keeps of what the agent must not change (the parsed
`[tool.inwards]`, every rule root, the baseline, the Python files).

A hook's session reads nothing from `.inwards/cache/` (a branch can plant a cache that says
anything: extraction facts or parsed rule definitions) and applies no baseline: what blocks
is what is new since the session started, which the start record says.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_cli.adapters.reading import read_regular_file
from inwards_cli.bootstrap import rule_sources
from inwards_cli.composition import load_families, open_directory, open_loaded
from inwards_cli.config_file import LoadedConfig, find_config, read_config
from inwards_core.api import InwardsWarning
from inwards_core.baseline import BASELINE_FILE_NAME, MAX_BASELINE_BYTES
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import Config
from inwards_core.extraction.remembered_runs import SOURCE_SUFFIXES
from inwards_core.ports import ProjectListing
from inwards_core.rules.digests import root_digests
from inwards_core.session import Session


def open_hook_session(project_dir: Path) -> Session:
    """A session on the project holding `project_dir` as the hooks check it: no extraction
    cache, no cached rule definitions, no baseline (what the daemon keeps warm for them)."""
    with quiet():
        return Session(open_directory(str(project_dir), baseline=False, cache=False))


def session_for(loaded: LoadedConfig, table: Mapping[str, Any] | None = None) -> Session:
    """A hook's session on the configuration read (or with `table` as its `[tool.inwards]`:
    the one the agent's session started with)."""
    if table is not None:
        loaded = LoadedConfig(loaded.path, loaded.project_dir, table, TomlPositions(""), "")
    with quiet():
        return Session(open_loaded(loaded, baseline=False, cache=False))


def locate_config(directory: Path) -> LoadedConfig | None:
    """The configuration at or above `directory`, read; None when there is none.
    Raises `ConfigError` for one that can't be read or parsed."""
    found = find_config(directory)
    return None if found is None else read_config(found)


@contextlib.contextmanager
def quiet() -> Iterator[list[str]]:
    """Warnings of the run (rule-root warnings) collected instead of printed: a hook's
    standard error is the agent's to read, in the shape the hook writes it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found: list[str] = []
        yield found
        found += [str(item.message) for item in caught if issubclass(item.category, InwardsWarning)]


# -- digests ----------------------------------------------------------------------------


def canonical(value: Any) -> str:
    """A TOML table as one JSON text: the same table, the same text (a TOML date, which
    `[tool.inwards]` never accepts, is written as text)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def plain(value: Any) -> Any:
    """A TOML table as JSON values (what the start record keeps)."""
    result: Any = json.loads(canonical(value))
    return result


def digest(text: str | bytes) -> str:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def baseline_digest(project_dir: Path) -> str | None:
    """The sha256 of the baseline's bytes; None when there is none. A link or something
    that can't be read is digested as what it is, never followed out of the project."""
    path = project_dir / BASELINE_FILE_NAME
    if not os.path.lexists(path):
        return None
    if os.path.islink(path):
        return digest("link:" + os.readlink(path))
    try:
        return digest(read_regular_file(path, follow_symlinks=False, max_bytes=MAX_BASELINE_BYTES))
    except OSError as error:
        return digest(f"unreadable:{error.errno}")


def rule_root_digests(loaded: LoadedConfig, config: Config | None) -> dict[str, str]:
    """The digest of every rule root (core, org, user, project), as `inwards status` shows
    them: a changed, added or removed definition changes its root's."""
    families, _ = load_families(loaded.project_dir)
    user_rules = config.user_rules if config is not None else "on"
    sources = rule_sources(
        families, project_dir=loaded.project_dir, user_rules=user_rules, isolated=False
    )
    with quiet():
        digests = root_digests(sources.documents(), families)
    return {root.value: value for root, value in digests.items()}


def python_files(listing: ProjectListing) -> list[str]:
    return [path for path in listing.files if path.endswith(SOURCE_SUFFIXES)]


def manifest(project_dir: Path, paths: Sequence[str]) -> dict[str, str]:
    """The sha256 of each of `paths` (relative to the project), read as a check reads them
    (inside the project, bounded); a file that can't be read is left out."""
    files = LocalProjectFiles(project_dir)
    found: dict[str, str] = {}
    for path in paths:
        with contextlib.suppress(OSError):
            found[path] = digest(files.read_bytes(path))
    return found
