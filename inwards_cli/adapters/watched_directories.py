"""The directories `inwards check --watch` watches, each on its own: the project's as
`check` lists them, and the rule roots' as their walk reads them.

watchfiles watches a directory recursively through notify, whose walk follows symbolic
links: notify's `Config::with_follow_symlinks` defaults to true, and watchfiles builds its
watcher from `Config::default()` with no way to change it (watchfiles' src/lib.rs,
`RecommendedWatcher::new(event_handler, NotifyConfig::default())`; its `watch()` offers
`recursive` and nothing about links). A link `src/shop/ext -> /usr` cost 15,453 inotify
watches, and a save under /usr woke a check. So each directory listed here is watched alone
(`recursive=False`): the project's are those its listing holds (links inside the project
followed, those leading out of it never, hidden directories, virtual environments and tools'
output left out), and a directory made later is seen in its parent, whereupon the list is
made again (`check/watch.py`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from pathlib import Path, PurePosixPath

import attrs

from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_cli.adapters.org_rules import ORG_RULES_OVERRIDE
from inwards_cli.adapters.root_walk import root_directories
from inwards_cli.adapters.rule_roots import PROJECT_RULES_DIR, user_rules_directory
from inwards_core.model.value_repr import value_repr

__all__ = ["WatchedTree", "rule_roots", "watched_tree"]


@attrs.frozen
class WatchedTree:
    """`directories`: every directory to watch, absolute, sorted; `rule_roots`: the user
    and organisation rule roots among them (a save there rebuilds the setup)."""

    __repr__ = value_repr

    directories: tuple[str, ...]
    rule_roots: tuple[str, ...] = ()

    def in_rule_root(self, path: str) -> bool:
        return any(path == root or path.startswith(root + os.sep) for root in self.rule_roots)


def watched_tree(
    project_dir: Path, ignored_names: Collection[str], environ: Mapping[str, str] = os.environ
) -> WatchedTree:
    """The directories to watch for `project_dir`: itself, every directory its listing
    holds except those below a name in `ignored_names`, `.inwards` and the project rule
    root, and the user's and organisation's rule roots."""
    top = Path(os.path.abspath(project_dir))
    listing = LocalProjectFiles(top).listing("")
    found: set[str] = {str(top)}
    for relative in listing.directories:
        if not ignored_names or not set(PurePosixPath(relative).parts) & set(ignored_names):
            found.add(str(top / relative))
    own = top / PROJECT_RULES_DIR.parent
    if os.path.isdir(own) and not os.path.islink(own):
        found.add(str(own))  # where the project rule root is made, when it is not there yet
    found.update(str(path) for path in root_directories(top / PROJECT_RULES_DIR, confine_to=top))
    roots = rule_roots(top, environ)
    for root in roots:
        found.update(str(path) for path in root_directories(root))
    return WatchedTree(tuple(sorted(found)), tuple(str(root) for root in roots))


def rule_roots(project_dir: Path, environ: Mapping[str, str] = os.environ) -> list[Path]:
    """The user and organisation rule roots that exist (as named, links resolved), inside
    the project directory or not: a saved definition there changes the verdict."""
    named = [user_rules_directory(environ)[0]]
    if environ.get(ORG_RULES_OVERRIDE, "").startswith("/"):
        named.append(Path(environ[ORG_RULES_OVERRIDE]))
    project_rules = os.path.realpath(project_dir / PROJECT_RULES_DIR)
    found: list[Path] = []
    for root in named:
        try:
            real = root.resolve()
            if real.is_dir() and str(real) != project_rules and real not in found:
                found.append(real)
        except (OSError, RuntimeError):
            continue  # a root that can't be looked into is reported by the check itself
    return found
