"""The org root's sources: rule packs located without importing them, and one directory."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inwards_cli.adapters.org_rules import (
    ORG_RULES_OVERRIDE,
    RULE_PACK_GROUP,
    OrgRoot,
    org_root,
    read_org_root,
)
from inwards_cli.adapters.rule_roots import LocalRuleSources, UserRoot
from inwards_core.adapters import entry_points as entry_points_module
from inwards_core.adapters.entry_points import EntryPoint, entry_points
from inwards_core.api import load_rules
from inwards_core.families.inw import family
from inwards_core.model.findings import RootKind
from inwards_core.ports import ORG_DIR_FAMILY, RootState
from inwards_core.rules.digests import root_digests

FAMILIES = (family(),)
IMPORTED = "the pack was imported"
RULE = (
    'code = "{code}"\nname = "{name}"\nsummary = "s"\ncheck = "inw.pure-domain"\n'
    'default = "opt-in"\n'
)


def make_pack(site: Path, package: str, version: str, files: dict[str, str]) -> EntryPoint:
    """A data-only pack under `site`: a package whose `__init__` fails if imported, its
    definitions below `definitions/`, and its dist-info with the entry point."""
    top = site / package
    (top / "definitions").mkdir(parents=True)
    (top / "__init__.py").write_text(f"raise SystemExit({IMPORTED!r})\n")
    for name, text in files.items():
        (top / "definitions" / name).write_text(text)
    distribution = package.replace("_", "-")
    info = site / f"{package}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\n")
    (info / "entry_points.txt").write_text(
        f"[{RULE_PACK_GROUP}]\n{package} = {package}.definitions\n"
    )
    return EntryPoint(package, f"{package}.definitions", package, version, str(info))


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_a_pack_is_found_by_its_entry_point_and_never_imported(site: Path) -> None:
    make_pack(site, "acme_rules", "2.0", {"ACME100.toml": RULE.format(code="ACME100", name="a")})
    points = entry_points(RULE_PACK_GROUP, [str(site)])
    org = org_root({}, None, points)
    assert org.problems == ()
    [source] = org.sources
    assert source.directory == site / "acme_rules" / "definitions"
    assert source.pack is not None
    assert (source.pack.name, source.pack.distribution, source.pack.version) == (
        "acme_rules",
        "acme-rules",
        "2.0",
    )
    report, documents = read_org_root(org)
    assert "acme_rules" not in sys.modules
    assert (report.root, report.state, report.packs) == (
        RootKind.ORG,
        RootState.FOUND,
        (source.pack,),
    )
    [document] = documents
    assert (document.family, document.family_version) == ("acme-rules", "2.0")
    assert document.relative == "acme-rules/ACME100.toml"


def test_a_pack_naming_an_object_or_nothing_installed_is_a_problem(site: Path) -> None:
    point = make_pack(site, "acme_rules", "1.0", {})
    odd = [
        EntryPoint("obj", "acme_rules.definitions:RULES", "acme_rules", "1.0", point.metadata),
        EntryPoint("gone", "nowhere_at_all.definitions", "gone", "1.0"),
    ]
    org = org_root({}, None, odd)
    assert org.sources == ()
    messages = [p.message for p in org.problems]
    assert "names an object" in messages[0] or "names an object" in messages[1]
    assert any("nowhere_at_all, which is not an installed package" in m for m in messages)
    report, _ = read_org_root(org)
    assert report.state is RootState.UNREADABLE


def test_a_pack_inside_the_checked_project_is_refused(site: Path) -> None:
    point = make_pack(site, "acme_rules", "1.0", {})
    org = org_root({}, site.parent, [point])
    assert org.sources == ()
    assert "inside the checked project" in org.problems[0].message


def test_a_pack_in_a_virtualenv_inside_the_project_is_installed(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # uv makes `.venv` inside the project: its site-packages is installed code, as for
    # families (`installed_paths`), so a pack there is read, not refused.
    monkeypatch.setattr(entry_points_module, "_site_directories", lambda: {str(site.resolve())})
    point = make_pack(site, "acme_rules", "1.0", {})
    org = org_root({}, site.parent, [point])
    assert org.problems == ()
    assert [source.directory for source in org.sources] == [site / "acme_rules" / "definitions"]


def test_the_env_directory_is_one_absolute_folder(tmp_path: Path) -> None:
    folder = tmp_path / "org"
    folder.mkdir()
    (folder / "ACME200.toml").write_text(RULE.format(code="ACME200", name="b"))
    org = org_root({ORG_RULES_OVERRIDE: str(folder)}, None, [])
    assert [s.directory for s in org.sources] == [folder] and org.warning == ""
    report, documents = read_org_root(org)
    assert report.note == f"from {ORG_RULES_OVERRIDE}"
    assert [(d.family, d.relative) for d in documents] == [
        (ORG_DIR_FAMILY, f"{ORG_DIR_FAMILY}/ACME200.toml")
    ]
    relative = org_root({ORG_RULES_OVERRIDE: "org"}, None, [])
    assert relative.sources == ()
    assert "relative path; it is ignored" in relative.warning


def test_no_pack_and_no_directory_is_an_absent_root() -> None:
    report, documents = read_org_root(OrgRoot())
    assert (report.state, documents) == (RootState.ABSENT, ())


def test_two_packs_defining_one_code_are_both_void_and_named(site: Path) -> None:
    text = RULE.format(code="ACME300", name="c")
    points = [
        make_pack(site, "acme_one", "1.0", {"ACME300.toml": text}),
        make_pack(site, "acme_two", "1.0", {"ACME300.toml": text}),
    ]
    sources = LocalRuleSources(
        FAMILIES,
        project_dir=None,
        user=UserRoot(site / "no-user"),
        org=org_root({}, None, points),
    )
    rule_set = load_rules(FAMILIES, sources)
    assert rule_set.by_code("ACME300") is None
    [first, second] = [p for p in rule_set.problems if p.code == "ACME300"]
    assert not first.blocking and not second.blocking  # org problems only warn
    assert "acme_one" in first.message and "acme_two" in first.message


def test_the_org_digest_covers_each_packs_version(site: Path) -> None:
    text = RULE.format(code="ACME100", name="a")
    point = make_pack(site, "acme_rules", "1.0", {"ACME100.toml": text})
    _, documents = read_org_root(org_root({}, None, [point]))
    later = [d.__class__(d.root, d.path, d.data, d.family, "1.1", d.relative) for d in documents]
    assert (
        root_digests(documents, FAMILIES)[RootKind.ORG]
        != (root_digests(later, FAMILIES)[RootKind.ORG])
    )
