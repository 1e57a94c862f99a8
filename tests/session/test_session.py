"""`inwards_core.Session`: a warm session gives the report a fresh whole run gives on the same
tree, after every change it is told of and with unsaved contents, while redoing only what a
change reaches. The differential tests edit a real project on disk at random (imports that
break a layer or close a cycle, body edits, shifted lines, syntax errors, suppression
comments, new and deleted modules) and compare each report with `check_path`'s."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

import inwards_core
from inwards_core import Report, Session
from tests.e2e.helpers import write_tree

LAYERS = ("domain", "application", "adapters")
PYPROJECT = """\
[project]
name = "shop"

[tool.inwards]
cycles = ["modules"]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""


def _project(root: Path, modules_per_layer: int = 4) -> list[str]:
    files: dict[str, str] = {"pyproject.toml": PYPROJECT, "shop/__init__.py": ""}
    for layer in LAYERS:
        files[f"shop/{layer}/__init__.py"] = ""
        for index in range(modules_per_layer):
            inner = LAYERS[: LAYERS.index(layer) + 1]
            target = f"shop.{inner[index % len(inner)]}.m{(index + 1) % modules_per_layer}"
            files[f"shop/{layer}/m{index}.py"] = (
                f"import json\nfrom {target} import value\n\n\ndef value() -> int:\n    return 1\n"
            )
    write_tree(root, files)
    return sorted(path for path in files if path.endswith(".py") and "__init__" not in path)


def _timeless(report: Report) -> Report:
    return attrs.evolve(report, duration_ms=0.0)


def _fresh(root: Path) -> Report:
    return _timeless(inwards_core.check_path(root, isolated=True))


def _engine(root: Path) -> Report:
    """The phases run once by `check_project` on the disk composition: what a session's
    warm runs must equal."""
    from inwards_cli.composition import open_directory
    from inwards_core.engine import RunOptions, check_project

    setup = open_directory(str(root), isolated=True)
    ports = attrs.evolve(setup.ports, memo=None)
    return _timeless(
        setup.finish(check_project(setup.config, setup.rules, ports, RunOptions()), ())
    )


def _edit(rng: random.Random, text: str, module: str) -> str:
    layer = rng.choice(LAYERS)
    other = f"shop.{layer}.m{rng.randrange(4)}"
    choices = [
        f"from {other} import value as v{rng.randrange(99)}\n" + text,  # maybe breaks a layer
        text + f"\nX = {rng.randrange(1000)}\n",  # a body edit: imports as they were
        "\n" + text,  # every line shifts
        "\n".join(line for line in text.splitlines() if not line.startswith("from ")) + "\n",
        text + "\ndef broken(:\n",  # a syntax error
        f'from {other} import value  # inwards: ignore[INW001] reason="legacy"\n' + text,
        f"import {module}\n" + text,  # imports itself
        "from shop.domain.missing import value\n" + text,  # a module that isn't there
    ]
    return rng.choice(choices)


@pytest.mark.parametrize("seed", range(10))
def test_after_every_change_a_warm_session_gives_the_fresh_report(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    modules = _project(tmp_path)
    with Session.open(tmp_path, isolated=True) as session:
        assert _timeless(session.check()) == _fresh(tmp_path)
        for _ in range(12):
            changed: list[str] = []
            for _ in range(rng.choice((1, 1, 2))):
                roll = rng.random()
                if roll < 0.08 and len(modules) > 3:  # a module goes
                    gone = modules.pop(rng.randrange(len(modules)))
                    (tmp_path / gone).unlink()
                    changed.append(gone)
                elif roll < 0.16:  # a module comes
                    layer = rng.choice(LAYERS)
                    new = f"shop/{layer}/n{rng.randrange(1000)}.py"
                    (tmp_path / new).write_text("from shop.domain.m0 import value\n")
                    if new not in modules:
                        modules.append(new)
                    changed.append(new)
                elif roll < 0.22:  # a package says another distribution extends it
                    init = tmp_path / "shop/domain/__init__.py"
                    extends = "import pkgutil\n__path__ = pkgutil.extend_path(__path__, __name__)\n"
                    init.write_text("" if init.read_text() else extends)
                    changed.append("shop/domain/__init__.py")
                else:
                    path = rng.choice(modules)
                    module = path[:-3].replace("/", ".")
                    text = (tmp_path / path).read_text()
                    (tmp_path / path).write_text(_edit(rng, text, module))
                    changed.append(path)
            session.changed(changed)
            assert _timeless(session.check()) == _fresh(tmp_path), changed
        assert _timeless(session.check()) == _engine(tmp_path)


def test_a_package_that_gains_or_loses_an_import_hook_rechecks_the_files_below_it(
    tmp_path: Path,
) -> None:
    _project(tmp_path)
    (tmp_path / "shop/application/old.py").write_text("from shop.domain.renamed import x\n")
    init = tmp_path / "shop/domain/__init__.py"
    hook = "import sys\n\nsys.meta_path.append(RenamedFinder())\n"
    with Session.open(tmp_path, isolated=True) as session:
        before = _timeless(session.check())
        assert [f.code for f in before.findings if f.file == "shop/application/old.py"] == [
            "INW010"
        ]
        for text in (hook, "import sys\n\n\nsys.meta_path.append(RenamedFinder())\n", ""):
            init.write_text(text)
            session.changed(["shop/domain/__init__.py"])
            assert _timeless(session.check()) == _fresh(tmp_path), text
        assert _timeless(session.check()) == before


@pytest.mark.parametrize("seed", range(4))
def test_contents_stand_for_the_disk_for_one_call(tmp_path: Path, seed: int) -> None:
    """A report with unsaved contents is the report of the tree with those contents
    written; the next call without them is the disk's again, and nothing was written."""
    rng = random.Random(100 + seed)
    modules = _project(tmp_path)
    with Session.open(tmp_path, isolated=True) as session:
        on_disk = _timeless(session.check())
        for _ in range(8):
            path = rng.choice(modules)
            original = (tmp_path / path).read_text()
            edited = _edit(rng, original, path[:-3].replace("/", "."))
            (tmp_path / path).write_text(edited)
            expected = _fresh(tmp_path)
            expected_named = _timeless(
                inwards_core.check_path(tmp_path, paths=[path], isolated=True)
            )
            (tmp_path / path).write_text(original)
            assert _timeless(session.check(contents={path: edited})) == expected
            assert _timeless(session.check([path], contents={path: edited})) == expected_named
            assert _timeless(session.check()) == on_disk
        assert all((tmp_path / path).read_text().startswith("import json") for path in modules)


def test_contents_of_a_file_not_on_disk_yet(tmp_path: Path) -> None:
    _project(tmp_path)
    new = "shop/domain/planned.py"
    with Session.open(tmp_path, isolated=True) as session:
        before = _timeless(session.check())
        report = session.check(contents={new: "from shop.adapters.m0 import value\n"})
        assert [(f.code, f.file) for f in report.findings if f.file == new] == [("INW001", new)]
        assert not (tmp_path / new).exists()
        assert _timeless(session.check()) == before


def test_a_file_not_on_disk_yet_may_be_named_with_its_contents(tmp_path: Path) -> None:
    """Checking only the file about to be written gives what a check of it gives once it is
    written; a named path without contents must still be there."""
    _project(tmp_path)
    new = "shop/domain/planned.py"
    text = "from shop.adapters.m0 import value\n"
    with Session.open(tmp_path, isolated=True) as session:
        report = session.check([new], contents={new: text})
        assert not (tmp_path / new).exists()
        (tmp_path / new).write_text(text)
        expected = _timeless(inwards_core.check_path(tmp_path, paths=[new], isolated=True))
        assert _timeless(report) == expected
        assert [(f.code, f.file) for f in report.findings] == [("INW001", new)]
        with pytest.raises(FileNotFoundError):
            session.check(["shop/domain/absent.py"], contents={new: text})


def test_the_tree_is_the_listing_and_index_checks_use(tmp_path: Path) -> None:
    modules = _project(tmp_path)
    with Session.open(tmp_path, isolated=True) as session:
        tree = session.tree()
        assert set(modules) <= set(tree.listing.files)
        assert tree.index.modules_under(modules[0])[0].file == modules[0]
        assert session.tree() is tree
        (tmp_path / "shop/domain/later.py").write_text("import json\n")
        session.changed(["shop/domain/later.py"])
        assert "shop/domain/later.py" in session.tree().listing.files


def test_a_fresh_session_equals_check_path_and_absolute_paths_work(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "shop/domain/m0.py").write_text("from shop.adapters.m1 import value\n")
    with Session.open(tmp_path, isolated=True) as session:
        assert _timeless(session.check()) == _fresh(tmp_path) == _engine(tmp_path)
        named = session.check([str(tmp_path / "shop/domain/m0.py")])
        assert _timeless(named) == _timeless(
            inwards_core.check_path(tmp_path, paths=["shop/domain/m0.py"], isolated=True)
        )
        assert [f.code for f in named.findings] == ["INW001"]


def test_a_changed_configuration_reloads_the_session(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "shop/domain/m0.py").write_text("from shop.adapters.m1 import value\n")
    with Session.open(tmp_path, isolated=True) as session:
        assert "INW001" in [f.code for f in session.check().findings]
        pyproject = (tmp_path / "pyproject.toml").read_text()
        (tmp_path / "pyproject.toml").write_text(
            pyproject + '\n[tool.inwards.rules]\nignore = ["INW001"]\n'
        )
        session.changed(["pyproject.toml"])
        assert "INW001" not in [f.code for f in session.check().findings]
        assert _timeless(session.check()) == _fresh(tmp_path)


def test_an_edit_runs_again_only_what_it_reaches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit re-reads one file and runs the per-file kinds over it alone; the
    import-graph kinds keep their findings until an import changes (a body edit leaves
    them be)."""
    _project(tmp_path)
    import inwards_core.warm_results as warm_module

    runs: list[tuple[str, int]] = []
    real = warm_module.run_rule

    def counting(model: inwards_core.ProjectModel, rule: inwards_core.ActiveRule) -> object:
        runs.append((rule.code, len(model.checked)))
        return real(model, rule)

    monkeypatch.setattr(warm_module, "run_rule", counting)
    path = "shop/application/m1.py"
    with Session.open(tmp_path, isolated=True) as session:
        session.check()
        runs.clear()
        text = (tmp_path / path).read_text()
        (tmp_path / path).write_text(text + "\nX = 1\n")
        session.changed([path])
        session.check()
        by_code = dict(runs)
        assert "INW004" not in by_code  # the import graph stood
        assert by_code["INW010"] == 1
        assert by_code["INW001"] == 1  # over the one changed file
        runs.clear()
        (tmp_path / path).write_text("from shop.adapters.m0 import value\n" + text)
        session.changed([path])
        report = session.check()
        by_code = dict(runs)
        assert by_code["INW001"] == 1  # over the one changed file
        assert by_code["INW004"] > 1  # the import graph changed: whole
        assert "INW001" in [f.code for f in report.findings]


def test_in_memory_session_and_bad_arguments() -> None:
    session = Session.in_memory(
        {"shop/domain/a.py": "from shop.adapters import db\n", "shop/adapters/db.py": ""},
        pyproject=(
            "[tool.inwards]\nlayers = [\n"
            '  { name = "domain", modules = ["shop.domain"] },\n'
            '  { name = "adapters", modules = ["shop.adapters"] },\n]\n'
        ),
    )
    with session:
        assert [f.code for f in session.check().findings] == ["INW001"]
        fixed = session.check(contents={"shop/domain/a.py": "import json\n"})
        assert fixed.findings == ()
        with pytest.raises(TypeError, match="contents"):
            session.check(contents={"shop/domain/a.py": 3})  # type: ignore[dict-item]
        with pytest.raises(TypeError, match="paths"):
            session.check("shop/domain/a.py")
    with pytest.raises(RuntimeError, match="closed"):
        session.check()


def test_a_deleted_module_lists_the_tree_again(tmp_path: Path) -> None:
    """A changed file the warm run reads, gone when the session reads it again: the session
    lists the tree anew instead of keeping that file's old facts and findings."""
    _project(tmp_path)
    breaking = tmp_path / "shop/domain/m2.py"
    breaking.write_text("from shop.adapters.m1 import value\n")
    with Session.open(tmp_path, isolated=True) as session:
        assert any(f.file == "shop/domain/m2.py" for f in session.check().findings)
        breaking.unlink()
        session.changed(["shop/domain/m2.py"])
        after = _timeless(session.check())
        assert not any(f.file == "shop/domain/m2.py" for f in after.findings)
        assert after == _fresh(tmp_path)


def _engine_traced(root: Path, code: str) -> Report:
    """`_engine`, explaining the rule `code`: what a warm explaining run must equal."""
    from inwards_cli.composition import open_directory
    from inwards_core.engine import RunOptions, check_project

    setup = open_directory(str(root), isolated=True)
    ports = attrs.evolve(setup.ports, memo=None)
    options = RunOptions(trace_rule=code)
    return _timeless(setup.finish(check_project(setup.config, setup.rules, ports, options), ()))


def test_an_explaining_check_is_a_warm_run_that_traces_as_a_fresh_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An explaining run (`trace_rule`, what `inwards mcp`'s `why` asks) of the whole
    project is the warm run, traced: it starts the warm results once, runs again only
    what an edit reaches, and its report and trace are a fresh run's."""
    _project(tmp_path)
    from inwards_core.warm_results import WarmResults

    starts: list[object] = []
    real = WarmResults.start

    def counting(*args: Any, **kwargs: Any) -> WarmResults:
        starts.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(WarmResults, "start", staticmethod(counting))
    import inwards_core.session as session_module

    cold: list[object] = []  # the session's runs from scratch (`check_project`)
    real_cold = session_module.check_project

    def counting_cold(*args: Any, **kwargs: Any) -> Report:
        cold.append(args)
        return real_cold(*args, **kwargs)

    monkeypatch.setattr(session_module, "check_project", counting_cold)
    path = "shop/domain/m1.py"
    with Session.open(tmp_path, isolated=True) as session:
        session.check()  # the memo's, when there is one
        memo_runs = len(cold)
        for code in ("INW001", "INW004", "INW010", "INW019"):
            traced = _timeless(session.check(trace_rule=code))
            assert traced.trace is not None and traced.trace.code == code
            assert traced == _engine_traced(tmp_path, code)
        assert _timeless(session.check()).trace is None
        assert len(starts) == 1
        (tmp_path / path).write_text("from shop.adapters.m0 import value\n")
        session.changed([path])
        traced = _timeless(session.check(trace_rule="INW001"))
        assert any(f.file == path for f in traced.findings)
        assert traced == _engine_traced(tmp_path, "INW001")
        assert (len(starts), len(cold)) == (1, memo_runs)  # the edit was run incrementally
        # Given contents are this call's, for an explaining run too.
        draft = {path: "X = 1\n"}
        with_draft = _timeless(session.check(contents=draft, trace_rule="INW001"))
        assert not any(f.file == path for f in with_draft.findings)


def test_a_session_on_a_directory_knows_its_rule_roots(tmp_path: Path) -> None:
    _project(tmp_path)
    with Session.open(tmp_path, isolated=True) as session:
        sources = session.rule_sources
        assert sources is not None
        assert {root.root.value for root in sources.roots()} >= {"core", "project"}
        session.check()  # its cache directory made; no check recorded the digests in it
        assert session.recorded_digests() is None
        # Asked again, after another session recorded them on opening: read when asked.
        Session.open(tmp_path, isolated=True).close()
        recorded = session.recorded_digests()
        assert recorded is not None and "core" in recorded
    pyproject = '[tool.inwards]\nlayers = [{ name = "a", modules = ["a"] }]\n'
    with Session.in_memory({"a.py": ""}, pyproject=pyproject) as memory:
        assert memory.rule_sources is None
        assert memory.recorded_digests() is None


def test_a_rule_pack_installed_while_open_is_read_at_the_next_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon, the language server and the MCP server keep a session for hours: a
    distribution installed or removed meanwhile (here a rule pack) rebuilds its setup."""
    from tests.e2e.test_org_root import PROJECT, make_pack, new_rule

    project = write_tree(tmp_path / "project", PROJECT)
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("INWARDS_ORG_RULES_DIR", "")
    with Session.open(project, isolated=True) as session:
        assert "ACME003" not in [f.code for f in session.check().findings]
        make_pack(site, {"ACME003.toml": new_rule("ACME003", "From the pack")})
        [packed] = [f for f in session.check().findings if f.code == "ACME003"]
        assert packed.origin.value == "org"
        assert _timeless(session.check()) == _fresh(project)
        shutil.rmtree(next(site.glob("*.dist-info")))  # uninstalled
        assert "ACME003" not in [f.code for f in session.check().findings]
