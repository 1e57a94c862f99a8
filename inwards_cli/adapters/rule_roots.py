"""The org, user and project rule roots on disk, beside the core definitions the families
ship (the org root's packs and directory are found by `org_rules`).

`LocalRuleSources` reads `*.toml` definition files below each root directory with
`root_walk.read_root` (sub-folders are allowed, for grouping), following symlinks: a file reached twice is read once, a link
that leads back into a folder being walked is reported as a loop, and a file whose target
lies in the other root belongs to that root. It never fails: what it can't read becomes a
`ListingProblem` or an unreadable root, and the resolver decides what that means for the
run (an error in the project root, a warning in the user root).

The project root is part of a checkout that may come from a stranger, so a link in it that
leads out of the project directory is reported, not followed. The user root belongs to
the person at the keyboard and its links are followed anywhere. Either walk is bounded
(MAX_ROOT_ENTRIES, MAX_ROOT_DEPTH), so a link to `/` ends quickly with a problem instead of
walking the disk, and only regular files are read (a FIFO or a device never blocks it).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs

from inwards_cli.adapters.org_rules import OrgRoot, read_org_root
from inwards_cli.adapters.root_walk import read_root
from inwards_core.adapters.packaged_rules import packaged_documents, packaged_root
from inwards_core.model.findings import RootKind
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import RootReport, RootState, RuleDocument, RuleSources
from inwards_core.rules.kinds import Family

PROJECT_RULES_DIR = Path(".inwards") / "rules"
USER_RULES_OVERRIDE = "INWARDS_USER_RULES_DIR"


@attrs.frozen
class UserRoot:
    """Where the user root is, how that was decided, and whether this run ignores it."""

    __repr__ = value_repr

    directory: Path
    note: str = ""  # how the directory was chosen, when not by the default
    warning: str = ""  # e.g. a relative XDG_CONFIG_HOME that was passed over
    ignored_because: str = ""


def user_rules_directory(environ: Mapping[str, str]) -> tuple[Path, str, str]:
    """`$INWARDS_USER_RULES_DIR`, else `$XDG_CONFIG_HOME/inwards/rules`, else
    `~/.config/inwards/rules` (also on macOS; `%APPDATA%` on Windows). A relative
    XDG_CONFIG_HOME is ignored, as the XDG spec asks, with a warning.
    Returns (directory, note, warning)."""
    override = environ.get(USER_RULES_OVERRIDE, "")
    if override:
        return Path(override).expanduser().absolute(), f"set by {USER_RULES_OVERRIDE}", ""
    warning = ""
    xdg = environ.get("XDG_CONFIG_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "inwards" / "rules", "from XDG_CONFIG_HOME", ""
    if xdg:
        warning = (
            f'XDG_CONFIG_HOME="{xdg}" is a relative path, which the XDG spec says to ignore; '
            "using the default instead"
        )
    if os.name == "nt" and environ.get("APPDATA"):
        return Path(environ["APPDATA"]) / "inwards" / "rules", "from APPDATA", warning
    return Path.home() / ".config" / "inwards" / "rules", "the default", warning


class LocalRuleSources(RuleSources):
    """Core definitions from the installed families, then the org root (installed rule
    packs and INWARDS_ORG_RULES_DIR, when `org` is given), then the user root, then the
    project root (`<project>/.inwards/rules`). `project_dir` is None outside a project."""

    def __init__(
        self,
        families: Sequence[Family],
        *,
        project_dir: Path | None,
        user: UserRoot,
        org: OrgRoot | None = None,
    ) -> None:
        self._families = tuple(families)
        self._project_dir = project_dir
        self._user = user
        self._org = org
        self._loaded: tuple[tuple[RuleDocument, ...], tuple[RootReport, ...]] | None = None

    @property
    def project_rules(self) -> Path | None:
        return None if self._project_dir is None else self._project_dir / PROJECT_RULES_DIR

    @property
    def user_rules(self) -> Path:
        return self._user.directory

    def _load(self) -> tuple[tuple[RuleDocument, ...], tuple[RootReport, ...]]:
        if self._loaded is not None:
            return self._loaded
        documents = list(packaged_documents(self._families))
        reports = [packaged_root(self._families)]
        if self._org is not None:
            report, found = read_org_root(self._org)
            reports.append(report)
            documents += found
        project = self.project_rules
        project_real = _real_path(project) if project is not None else None
        user_dir = self._user.directory
        if self._user.ignored_because:
            reports.append(
                RootReport(
                    RootKind.USER, str(user_dir), RootState.IGNORED, note=self._user.ignored_because
                )
            )
        elif project_real is not None and _real_path(user_dir) == project_real:
            reports.append(
                RootReport(
                    RootKind.USER,
                    str(user_dir),
                    RootState.IGNORED,
                    note="it is the same directory as the project root, which reads it",
                )
            )
        else:
            report, found = read_root(RootKind.USER, user_dir, other_root=project_real)
            reports.append(attrs.evolve(report, note=self._user.note, warning=self._user.warning))
            documents += found
        if project is None:
            reports.append(
                RootReport(
                    RootKind.PROJECT,
                    "",
                    RootState.ABSENT,
                    note="no pyproject.toml with [tool.inwards] was found",
                )
            )
        else:
            report, found = read_root(RootKind.PROJECT, project, confine_to=self._project_dir)
            reports.append(report)
            documents += found
        self._loaded = (tuple(documents), tuple(reports))
        return self._loaded

    def documents(self) -> Sequence[RuleDocument]:
        return self._load()[0]

    def roots(self) -> Sequence[RootReport]:
        return self._load()[1]


def _real_path(path: Path) -> Path | None:
    """Where `path` leads; None when it leads through a place that can't be looked into (a
    link to /proc/1/cwd): `read_root` then reports the root as unreadable."""
    try:
        return Path(os.path.realpath(path))
    except OSError:
        return None
