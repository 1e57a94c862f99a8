"""The organisation root: rule packs installed in the environment, and one directory.

A rule pack is a distribution of data only: its `inwards.rule_packs` entry point names a
package directory of definition files (`acme = "inwards_rules_acme.definitions"`). The
package is located, never imported: `importlib.util.find_spec` on the top-level name
alone finds its folder without running its `__init__.py` (`find_spec("a.b")` would import
`a`), and the rest of the dotted name is a path below that folder. A pack found inside the
checked project is refused: the org root is the machine's, not the checkout's.

`INWARDS_ORG_RULES_DIR` adds one absolute directory (a relative one is ignored, with a
warning, as for XDG_CONFIG_HOME). The packs and that directory together are the org root,
walked with the user root's bounded walker (`root_walk.read_root`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path

import attrs

from inwards_cli.adapters.root_walk import read_root
from inwards_core.adapters.entry_points import (
    EntryPoint,
    inside_project,
    installed_entry_points,
)
from inwards_core.model.findings import RootKind
from inwards_core.model.value_repr import value_repr
from inwards_core.ports import (
    ORG_DIR_FAMILY,
    ListingProblem,
    RootReport,
    RootState,
    RuleDocument,
    RulePack,
)

RULE_PACK_GROUP = "inwards.rule_packs"
ORG_RULES_OVERRIDE = "INWARDS_ORG_RULES_DIR"


@attrs.frozen
class OrgSource:
    """One folder of the org root: a pack's definitions package, or the env directory."""

    __repr__ = value_repr

    directory: Path
    pack: RulePack | None = None  # None: the INWARDS_ORG_RULES_DIR directory


@attrs.frozen
class OrgRoot:
    """The org root's folders, what could not be located, and a warning worth a line."""

    __repr__ = value_repr

    sources: tuple[OrgSource, ...] = ()
    problems: tuple[ListingProblem, ...] = ()
    warning: str = ""


def org_root(
    environ: Mapping[str, str],
    project_dir: Path | None,
    points: list[EntryPoint] | None = None,
) -> OrgRoot:
    """The installed rule packs (`points`, by default those of RULE_PACK_GROUP in this
    environment, none from the working directory or the project) and the env directory."""
    if points is None:
        points = installed_entry_points(project_dir, RULE_PACK_GROUP)
    sources: list[OrgSource] = []
    problems: list[ListingProblem] = []
    for point in sorted(points, key=lambda p: (p.distribution.lower(), p.name)):
        located = _locate(point, project_dir)
        if isinstance(located, ListingProblem):
            problems.append(located)
        else:
            sources.append(located)
    warning = ""
    given = environ.get(ORG_RULES_OVERRIDE, "")
    if given:
        directory = Path(given).expanduser()
        if directory.is_absolute():
            sources.append(OrgSource(directory))
        else:
            warning = (
                f'{ORG_RULES_OVERRIDE}="{given}" is a relative path; it is ignored '
                "(give an absolute directory)"
            )
    return OrgRoot(tuple(sources), tuple(problems), warning)


def _pack_label(point: EntryPoint) -> str:
    return f"rule pack {point.name} = {point.target} of {point.project_name()} {point.version}"


def _locate(point: EntryPoint, project_dir: Path | None) -> OrgSource | ListingProblem:
    """The folder `point` names, found without importing anything of it."""
    target = point.target.strip()
    if ":" in target:
        return ListingProblem(
            _pack_label(point),
            "names an object; a rule pack names a package of definition files "
            '(e.g. acme = "inwards_rules_acme.definitions").',
        )
    top, *inner = target.split(".")
    try:
        # The top-level name only: finding a submodule would import its parent.
        spec = importlib.util.find_spec(top) if top.isidentifier() else None
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if not locations:
        return ListingProblem(
            _pack_label(point), f"names {top}, which is not an installed package."
        )
    directory = Path(locations[0], *inner)
    if project_dir is not None and inside_project(str(directory), project_dir):
        return ListingProblem(
            _pack_label(point),
            f"lies in {directory}, inside the checked project; only installed packs are read.",
        )
    pack = RulePack(point.name, point.project_name(), point.version, str(directory))
    return OrgSource(directory, pack)


def read_org_root(org: OrgRoot) -> tuple[RootReport, tuple[RuleDocument, ...]]:
    """Every definition of every pack and of the env directory, as one root: a pack's
    documents carry its distribution and version, and their path inside the root starts
    with the distribution (or `$INWARDS_ORG_RULES_DIR`), so the root's digest tells packs
    apart and covers their versions."""
    packs = tuple(source.pack for source in org.sources if source.pack is not None)
    locations = ", ".join(str(source.directory) for source in org.sources)
    if not org.sources and not org.problems:
        return RootReport(RootKind.ORG, "", RootState.ABSENT, warning=org.warning), ()
    documents: list[RuleDocument] = []
    problems = list(org.problems)
    found = False
    for source in org.sources:
        report, read = read_root(RootKind.ORG, source.directory)
        problems += report.problems
        if source.pack is not None and report.state is RootState.ABSENT:
            problems.append(
                ListingProblem(
                    str(source.directory),
                    f"does not exist (the folder rule pack {source.pack.name} names).",
                )
            )
        found = found or report.state is RootState.FOUND
        prefix = source.pack.distribution if source.pack is not None else ORG_DIR_FAMILY
        documents += [
            attrs.evolve(
                document,
                family=prefix,
                family_version=source.pack.version if source.pack is not None else "",
                relative=f"{prefix}/{document.root_relative}",
            )
            for document in read
        ]
    state = RootState.FOUND if found else RootState.UNREADABLE if problems else RootState.ABSENT
    note = _note(len(packs), any(source.pack is None for source in org.sources))
    report = RootReport(
        RootKind.ORG,
        locations,
        state,
        tuple(problems),
        note=note,
        warning=org.warning,
        packs=packs,
    )
    return report, tuple(documents)


def _note(packs: int, env_dir: bool) -> str:
    found = [f"{packs} installed rule pack{'s' * (packs > 1)}"] if packs else []
    found += [ORG_RULES_OVERRIDE] if env_dir else []
    return "from " + " and ".join(found) if found else ""
