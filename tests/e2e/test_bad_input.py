"""Bad input gets a clear message, the right exit status, and loses nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree

LAYERS = """
[tool.inwards]
layers = [
  { name = "domain", modules = ["app.domain"] },
  { name = "infra", modules = ["app.infra"] },
]
"""


def project(tmp_path: Path, pyproject: str = LAYERS, **files: str | bytes) -> Path:
    tree: dict[str, str | bytes] = {
        "pyproject.toml": pyproject,
        "app/__init__.py": "",
        "app/domain/__init__.py": "",
        "app/domain/model.py": "import decimal\n",
        "app/infra/__init__.py": "",
        "app/infra/db.py": "from app.domain import model\n",
    }
    tree.update({name.replace("__", "/"): content for name, content in files.items()})
    return write_tree(tmp_path, tree)


@pytest.mark.parametrize("fmt", ["text", "json", "concise"])
def test_unknown_key_is_a_config_error_on_stderr_only(tmp_path: Path, fmt: str) -> None:
    root = project(tmp_path, LAYERS + "bogus = 1\n")
    run = run_inwards("check", "--format", fmt, cwd=root)
    assert run.code == 2
    assert run.stdout == ""
    assert "pyproject.toml:7:1: tool.inwards.bogus:" in run.stderr
    assert "Known keys" in run.stderr


def test_bad_layer_entry_names_the_dotted_key(tmp_path: Path) -> None:
    config = LAYERS.replace('"app.infra"', '"app..infra"')
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert "pyproject.toml:5:32: tool.inwards.layers[1].modules[0]:" in run.stderr
    assert "empty segment" in run.stderr


def test_prefix_in_two_layers(tmp_path: Path) -> None:
    config = LAYERS.replace('"app.infra"', '"app.domain"')
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert '"app.domain"' in run.stderr and "domain" in run.stderr and "infra" in run.stderr


def test_unknown_rule_code(tmp_path: Path) -> None:
    config = LAYERS + '\n[tool.inwards.rules]\nignore = ["INW999"]\n'
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert "tool.inwards.rules.ignore[0]" in run.stderr and "INW999" in run.stderr


def test_option_the_kind_rejects(tmp_path: Path) -> None:
    config = LAYERS + "\n[tool.inwards.rules.layer-dependency]\nmodules = 3\n"
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert "tool.inwards.rules.layer-dependency.modules" in run.stderr


def test_invalid_toml_shows_line_and_column(tmp_path: Path) -> None:
    run = run_inwards("check", cwd=project(tmp_path, LAYERS + "root = \n"))
    assert run.code == 2
    assert run.stdout == ""
    assert "pyproject.toml:7" in run.stderr


def test_no_config_found(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    run = run_inwards("check", cwd=tmp_path)
    assert run.code == 2
    assert run.stdout == ""
    assert "[tool.inwards]" in run.stderr and "--config" in run.stderr


@pytest.mark.parametrize(
    "command", [["check"], ["baseline"], ["context"], ["diagram"], ["explain-module", "x"]]
)
def test_no_config_found_says_inwards_init_writes_one(tmp_path: Path, command: list[str]) -> None:
    run = run_inwards(*command, cwd=tmp_path)
    assert run.code == 2
    assert "Run `inwards init` in the project's directory to write a starting one" in run.stderr


def test_a_config_file_without_the_table_says_inwards_init_writes_one(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    run = run_inwards("check", "--config", "pyproject.toml", cwd=tmp_path)
    assert run.code == 2
    assert "Run `inwards init` in its directory to write a starting one" in run.stderr


def test_required_version_newer_than_this_one(tmp_path: Path) -> None:
    config = LAYERS.replace("[tool.inwards]", '[tool.inwards]\nrequired-version = "99.0.0"')
    run = run_inwards("check", cwd=project(tmp_path, config))
    assert run.code == 2
    assert "99.0.0" in run.stderr


def test_undecodable_bytes_are_reported_not_crashed_on(tmp_path: Path) -> None:
    root = project(tmp_path, app__domain__bad=b"")
    (root / "app/domain/bad.py").write_bytes(b"import os\nx = '\xff\xfe'\n")
    run = run_inwards("check", "--format", "json", cwd=root)
    assert run.code == 1, run.stderr
    (diagnostic,) = json.loads(run.stdout)["diagnostics"]
    assert diagnostic["code"] == "INW000"
    assert diagnostic["line"] == 2


def test_a_file_that_does_not_parse_still_has_its_imports_checked(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "app/domain/half.py").write_text(
        "from app.infra import db\n\ndef broken(:\n    pass\n", encoding="utf-8"
    )

    def codes(*args: str) -> list[tuple[str, int]]:
        run = run_inwards("check", "--format", "json", *args, cwd=root)
        return sorted((d["code"], d["line"]) for d in json.loads(run.stdout)["diagnostics"])

    # Named files and --full-parse parse every file whole: the error in the body is found.
    assert codes("--full-parse") == [("INW001", 1), ("INW020", 3)]
    assert codes("app/domain/half.py") == [("INW001", 1), ("INW020", 3)]
    # A whole-project run reads imports and the blocks around them only (documented).
    assert codes() == [("INW001", 1)]
    # ... but it meets an unterminated string, and reports it.
    (root / "app/domain/half.py").write_text(
        "from app.infra import db\nNAME = 'unfinished\n", encoding="utf-8"
    )
    assert codes() == [("INW001", 1), ("INW020", 2)]


def test_symlink_loop_is_reported_not_followed_forever(tmp_path: Path) -> None:
    root = project(tmp_path)
    os.symlink(root / "app", root / "app" / "domain" / "loop")
    run = run_inwards("check", "--format", "json", cwd=root, timeout=60)
    assert run.code == 0, run.stdout + run.stderr
    document = json.loads(run.stdout)
    assert any("loop" in item["message"] for item in document["notChecked"])


def test_path_that_does_not_exist(tmp_path: Path) -> None:
    run = run_inwards("check", "nope.py", cwd=project(tmp_path))
    assert run.code == 2
    assert "nope.py is not a file or directory." in run.stderr


def test_path_with_no_module_means_nothing_checked(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# docs\n", encoding="utf-8")
    run = run_inwards("check", "docs", cwd=root)
    assert run.code == 2
    assert "Nothing checked" in run.stdout
    # A warning, so on stderr with the others: stdout is the report
    assert run.stderr == "warning: docs holds no Python module, so it was not checked.\n"
    assert "warning:" not in run.stdout
    concise = run_inwards("check", "docs", "--format", "concise", cwd=root)
    assert (concise.code, concise.stderr) == (2, run.stderr)
    assert "warning:" not in concise.stdout
    machine = json.loads(run_inwards("check", "docs", "--format", "json", cwd=root).stdout)
    assert machine["notChecked"] == [
        {"path": "docs", "message": "docs holds no Python module, so it was not checked."}
    ]


def test_paths_mode_skips_whole_project_findings(tmp_path: Path) -> None:
    config = LAYERS.replace('"app.infra"', '"app.infra", "app.gone"')
    root = project(tmp_path, config)
    whole = run_inwards("check", "--format", "json", cwd=root)
    assert [d["code"] for d in json.loads(whole.stdout)["diagnostics"]] == ["INW006"]
    named = run_inwards("check", "--format", "json", "app/domain", cwd=root)
    document = json.loads(named.stdout)
    assert document["diagnostics"] == []
    assert document["summary"]["filesChecked"] == 2
    assert named.code == 0


def test_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    run = run_inwards("check", "--bogus", cwd=project(tmp_path))
    assert run.code == 2
    assert run.stdout == ""
