"""bench/precision_corpora.py: the corpus configurations, what the written pyproject.toml
keeps of them for the installed inwards, the copies, and how a run is reported. Nothing here
needs /work/corpora: the corpora are small trees made in tmp_path."""

from __future__ import annotations

import json
import os
import stat
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

CONTENT_KINDS = {
    "inw.thin-endpoint": {"modules", "check-tests", "delegate-to", "frameworks"},
    "inw.ports-abstract": {"modules", "check-tests"},
    "inw.layer-dependency": {"modules"},
}


def _installed(pc: ModuleType, *, diagrams: bool = False) -> Any:
    rules = {
        "rules": [
            {"code": "INW001", "name": "layer-dependency", "kind": "inw.layer-dependency"},
            {"code": "INW012", "name": "thin-endpoint", "kind": "inw.thin-endpoint"},
            {"code": "INW014", "name": "ports-abstract", "kind": "inw.ports-abstract"},
        ]
    }
    keys = {"root": {}, "layers": {}, "rules": {}}
    if diagrams:
        keys["diagrams"] = {}
    schema = {
        "properties": keys,
        "$defs": {
            f"options.{kind}": {"properties": {name: {} for name in names}}
            for kind, names in CONTENT_KINDS.items()
        }
        | {"rules": {"properties": {}}},
    }
    return pc.read_installed(rules, schema)


def _config(pc: ModuleType, tool: dict[str, Any], layers_from: str = "") -> Any:
    return pc.CorpusConfig("demo", "dist-1.0", ("pkg",), layers_from, tool)


def test_every_shipped_configuration_loads_and_names_its_rules(
    bench_precision_corpora: ModuleType,
) -> None:
    pc = bench_precision_corpora
    for corpus in pc.CORPORA:
        config = pc.load_config(pc.config_path(corpus))
        assert config.name == corpus
        assert config.copy and config.source
        assert config.selected, corpus
        assert all(code.startswith(("INW", "FAPI")) for code in config.selected)
    tests = pc.load_config(pc.config_path("fastapi-tests"))
    assert all(
        table.get("check-tests") is True
        for table in tests.tool["rules"].values()
        if isinstance(table, dict)
    )
    assert pc.load_config(pc.config_path("django")).layers_from == "django"


def test_a_rule_the_installed_inwards_lacks_loses_its_table_and_its_selection(
    bench_precision_corpora: ModuleType,
) -> None:
    pc = bench_precision_corpora
    config = _config(
        pc,
        {
            "root": ".",
            "layers": [{"name": "app", "modules": ["pkg"]}],
            "rules": {
                "extend-select": ["INW012", "INW013"],
                "thin-endpoint": {"delegate-to": ["app"], "max-loops": 3},
                "async-blocking": {"check-tests": True},
                "INW014": {"modules": ["pkg.ports"]},
            },
        },
    )
    written = pc.fit_tool_table(config, _installed(pc), None, has_diagram=False)
    assert written.tool["rules"] == {
        "extend-select": ["INW012"],
        "thin-endpoint": {"delegate-to": ["app"]},
        "ports-abstract": {"modules": ["pkg.ports"]},  # a code keys the table by its name
    }
    notes = " | ".join(written.left_out)
    assert "INW013 (not installed)" in notes
    assert "rules.async-blocking (no such rule installed)" in notes
    assert "rules.thin-endpoint.max-loops (inw.thin-endpoint takes no such option)" in notes


def test_diagrams_are_named_only_when_a_diagram_is_copied_and_the_key_exists(
    bench_precision_corpora: ModuleType,
) -> None:
    pc = bench_precision_corpora
    config = _config(pc, {"root": ".", "rules": {}})
    with_key = pc.fit_tool_table(config, _installed(pc, diagrams=True), None, has_diagram=True)
    assert with_key.tool["diagrams"] == [pc.DIAGRAM_NAME]
    without_key = pc.fit_tool_table(config, _installed(pc), None, has_diagram=True)
    assert "diagrams" not in without_key.tool
    assert any("'diagrams'" in note for note in without_key.left_out)
    no_diagram = pc.fit_tool_table(config, _installed(pc, diagrams=True), None, False)
    assert "diagrams" not in no_diagram.tool
    unknown = pc.fit_tool_table(
        _config(pc, {"root": ".", "shiny": 1, "rules": {}}), _installed(pc), None, False
    )
    assert "shiny" not in unknown.tool


def test_layers_from_django_come_from_bench_corpora(
    bench_precision_corpora: ModuleType, tmp_path: Path
) -> None:
    pc = bench_precision_corpora
    package = tmp_path / "pkg"
    for sub in ("contrib", "db", "utils"):
        (package / sub).mkdir(parents=True)
        (package / sub / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "shortcuts.py").write_text("")
    config = _config(pc, {"root": ".", "rules": {}}, layers_from="django")
    written = pc.fit_tool_table(config, _installed(pc), tmp_path, has_diagram=False)
    assert written.tool["layers"] == [
        {"name": "framework", "modules": ["pkg.db", "pkg.shortcuts", "pkg.utils"]},
        {"name": "contrib", "modules": ["pkg.contrib"]},
    ]


def test_the_written_pyproject_reads_back_as_the_table(
    bench_precision_corpora: ModuleType,
) -> None:
    pc = bench_precision_corpora
    tool = {
        "root": ".",
        "layers": [
            {"name": "core", "modules": ["a.b", 'odd "name"']},
            [{"name": "x", "modules": ["a.x"]}, {"name": "y", "modules": ["a.y"]}],
        ],
        "rules": {
            "extend-select": ["INW012"],
            "thin-endpoint": {"check-tests": True, "max-statements": 12, "frameworks": []},
        },
    }
    written = pc.Written(tool, ())
    text = pc.pyproject_text(_config(pc, tool), written)
    assert tomllib.loads(text)["tool"]["inwards"] == tool
    assert text.startswith("# Written by bench/precision_corpora.py")


def _fake_corpus(root: Path) -> Path:
    dist = root / "dist-1.0"
    (dist / "pkg" / "sub").mkdir(parents=True)
    (dist / "pkg" / "__init__.py").write_text("")
    (dist / "pkg" / "sub" / "m.py").write_text("import os\n")
    (dist / "pkg" / "__pycache__").mkdir()
    (dist / "pkg" / "__pycache__" / "m.pyc").write_bytes(b"x")
    (dist / "other").mkdir()
    return dist


def test_a_copy_takes_only_the_named_entries_and_is_made_again_only_when_stale(
    bench_precision_corpora: ModuleType, tmp_path: Path
) -> None:
    pc = bench_precision_corpora
    _fake_corpus(tmp_path / "corpora")
    out = tmp_path / "out"
    config = _config(pc, {"root": "."})
    copy, made = pc.ensure_copy(config, tmp_path / "corpora", out)
    assert made and copy == out / "demo"
    assert (copy / "pkg" / "sub" / "m.py").read_text() == "import os\n"
    assert not (copy / "other").exists() and not (copy / "pkg" / "__pycache__").exists()
    (copy / "pkg" / "sub" / "m.py").write_text("# kept\n")
    assert pc.ensure_copy(config, tmp_path / "corpora", out) == (copy, False)
    assert (copy / "pkg" / "sub" / "m.py").read_text() == "# kept\n"
    wider = pc.CorpusConfig("demo", "dist-1.0", ("pkg", "other"), "", {})
    assert pc.ensure_copy(wider, tmp_path / "corpora", out) == (copy, True)
    assert (copy / "other").is_dir()
    assert (copy / "pkg" / "sub" / "m.py").read_text() == "import os\n"
    assert [p.name for p in out.iterdir()] == ["demo"]  # no half-built copy left behind


def test_a_missing_corpus_is_named_and_skipped(
    bench_precision_corpora: ModuleType, tmp_path: Path
) -> None:
    pc = bench_precision_corpora
    config = _config(pc, {"root": ".", "rules": {"extend-select": ["INW012"]}})
    why = pc.missing_source(config, tmp_path)
    assert "dist-1.0 lacks pkg" in why and "get-corpora.sh" in why
    outcomes = pc.run_corpus(config, ["INW012"], _installed(pc), tmp_path, tmp_path, "inwards")
    assert [(o.status, o.detail) for o in outcomes] == [("skipped", why)]
    assert not (tmp_path / "demo").exists()


def test_rules_not_installed_or_not_measured_on_a_corpus_are_skipped(
    bench_precision_corpora: ModuleType,
) -> None:
    pc = bench_precision_corpora
    config = _config(pc, {"rules": {"extend-select": ["INW012"]}})
    skipped = pc.plan(config, ["INW012", "INW014", "INW099"], _installed(pc))
    assert [(o.code, o.detail) for o in skipped] == [
        ("INW014", "not measured on this corpus (not in its extend-select)"),
        ("INW099", "not installed"),
    ]


def _fake_inwards(path: Path, body: str) -> str:
    path.write_text(f"#!{sys.executable}\nimport sys\n{body}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_a_run_writes_the_document_and_counts_the_rules_findings(
    bench_precision_corpora: ModuleType, tmp_path: Path
) -> None:
    pc = bench_precision_corpora
    document = {
        "schema": "inwards/diagnostics@1",
        "diagnostics": [{"code": "INW012"}, {"code": "INW012"}, {"code": "INW000"}],
    }
    inwards = _fake_inwards(tmp_path / "inwards", f"print({json.dumps(document)!r}); sys.exit(1)")
    (tmp_path / "demo").mkdir()
    outcome = pc.run_rule(inwards, tmp_path / "demo", "demo", "INW012", tmp_path)
    assert (outcome.status, outcome.findings) == ("ok", 2)
    written = json.loads((tmp_path / "demo.INW012.json").read_text(encoding="utf-8"))
    # Another rule's diagnostic (its table doing nothing in this run) is left out.
    assert written == {**document, "diagnostics": [{"code": "INW012"}, {"code": "INW012"}]}
    assert "2 findings" in pc.describe(outcome)


def test_a_failed_run_is_reported_with_its_stderr(
    bench_precision_corpora: ModuleType, tmp_path: Path
) -> None:
    pc = bench_precision_corpora
    inwards = _fake_inwards(
        tmp_path / "inwards", "print('config error: bad option', file=sys.stderr); sys.exit(2)"
    )
    (tmp_path / "demo").mkdir()
    outcome = pc.run_rule(inwards, tmp_path / "demo", "demo", "INW012", tmp_path)
    assert outcome.status == "failed"
    assert "exit 2" in outcome.detail and "config error: bad option" in outcome.detail
    assert "FAILED" in pc.describe(outcome)
    assert not (tmp_path / "demo.INW012.json").exists()


@pytest.mark.skipif(os.name != "posix", reason="runs the installed CLI")
def test_the_installed_inwards_is_read_for_its_rules_and_options(
    bench_precision_corpora: ModuleType,
) -> None:
    pc = bench_precision_corpora
    inwards = Path(sys.executable).parent / "inwards"
    if not inwards.is_file():
        pytest.skip("no inwards next to this interpreter")
    installed = pc.query_installed(str(inwards))
    rule = installed.rule("INW001")
    assert rule is not None and rule.name == "layer-dependency"
    assert "modules" in installed.kind_options[rule.kind]
    assert {"root", "layers", "rules"} <= installed.top_keys


def test_a_configuration_added_beside_the_four_is_a_corpus_too(
    bench_precision_corpora: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pc = bench_precision_corpora
    (tmp_path / "flask-app.toml").write_text("", encoding="utf-8")
    (tmp_path / "django.toml").write_text("", encoding="utf-8")
    monkeypatch.setattr(pc, "CONFIG_DIR", tmp_path)
    assert pc.configured_corpora() == [*pc.CORPORA, "flask-app"]
