from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from inwards_cli.config_file import (
    MAX_CONFIG_BYTES,
    NO_CONFIG_MESSAGE,
    LoadedConfig,
    find_config,
    read_config,
)
from inwards_core.config.load import build_config
from inwards_core.config.nesting import MAX_TOML_NESTING
from inwards_core.config.positions import TomlPositions
from inwards_core.config.values import ConfigError

VALID = '[tool.inwards]\nroot = "src"\nlayers = [{ name = "domain", modules = ["shop.domain"] }]\n'


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def only_problem(path: Path) -> str:
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    assert len(caught.value.problems) == 1
    return caught.value.problems[0].render()


class TestFindConfig:
    def test_nearest_with_the_table_wins(self, tmp_path: Path) -> None:
        outer = write(tmp_path / "pyproject.toml", VALID)
        inner = write(tmp_path / "pkg" / "pyproject.toml", VALID)
        (tmp_path / "pkg" / "src" / "shop").mkdir(parents=True)
        assert find_config(tmp_path / "pkg" / "src" / "shop") == inner.absolute()
        assert find_config(tmp_path) == outer.absolute()

    def test_pyproject_without_the_table_is_passed_over(self, tmp_path: Path) -> None:
        outer = write(tmp_path / "pyproject.toml", VALID)
        write(tmp_path / "member" / "pyproject.toml", '[project]\nname = "member"\n')
        assert find_config(tmp_path / "member") == outer.absolute()

    def test_start_may_be_a_file(self, tmp_path: Path) -> None:
        config = write(tmp_path / "pyproject.toml", VALID)
        module = write(tmp_path / "shop" / "x.py", "")
        assert find_config(module) == config.absolute()

    def test_relative_start(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        config = write(tmp_path / "pyproject.toml", VALID)
        (tmp_path / "a").mkdir()
        monkeypatch.chdir(tmp_path / "a")
        assert find_config(Path(".")) == config.absolute()

    def test_broken_file_that_mentions_the_table_is_returned(self, tmp_path: Path) -> None:
        outer = write(tmp_path / "pyproject.toml", VALID)
        broken = write(tmp_path / "pkg" / "pyproject.toml", "[tool.inwards]\nlayers = [\n")
        assert find_config(tmp_path / "pkg") == broken.absolute()
        write(broken, "[project\nname = 1\n")
        assert find_config(tmp_path / "pkg") == outer.absolute()

    @pytest.mark.parametrize("kind", ["fifo", "directory", "broken link", "too deep"])
    def test_a_pyproject_that_cant_be_read_stops_the_walk(self, tmp_path: Path, kind: str) -> None:
        # Passing over it would silently use the configuration further up.
        write(tmp_path / "pyproject.toml", VALID)
        candidate = tmp_path / "pkg" / "pyproject.toml"
        candidate.parent.mkdir()
        if kind == "fifo":
            os.mkfifo(candidate)
        elif kind == "directory":
            candidate.mkdir()
        elif kind == "broken link":
            candidate.symlink_to(tmp_path / "gone.toml")
        else:
            write(candidate, "[tool.inwards]\nx = " + "[" * 500 + "]" * 500 + "\n")
        assert find_config(tmp_path / "pkg") == candidate

    def test_a_deep_pyproject_that_does_not_mention_the_table_is_passed_over(
        self, tmp_path: Path
    ) -> None:
        outer = write(tmp_path / "pyproject.toml", VALID)
        write(tmp_path / "pkg" / "pyproject.toml", "x = " + "{a = " * 400 + "1" + "}" * 400)
        assert find_config(tmp_path / "pkg") == outer.absolute()

    def test_nothing_found(self, tmp_path: Path) -> None:
        write(tmp_path / "pyproject.toml", "[project]\n")
        above = [d for d in tmp_path.parents if (d / "pyproject.toml").is_file()]
        if above:
            pytest.skip("a pyproject.toml above the temporary directory")
        assert find_config(tmp_path) is None


class TestReadConfig:
    def test_valid(self, tmp_path: Path) -> None:
        path = write(tmp_path / "pyproject.toml", VALID)
        loaded = read_config(path)
        assert loaded.path == path
        assert loaded.project_dir == tmp_path
        assert loaded.text == VALID
        assert loaded.table == tomllib.loads(VALID)["tool"]["inwards"]
        assert loaded.positions.locate("tool.inwards.layers[0].modules[0]") == (3, 41)
        config = loaded.build()
        assert config.file == "pyproject.toml"
        assert config.root == "src"
        assert config.locate("tool.inwards.root") == (2, 1)

    def test_build_errors_name_the_file_and_position(self, tmp_path: Path) -> None:
        path = write(tmp_path / "pyproject.toml", "[tool.inwards]\nlayers = []\n")
        with pytest.raises(ConfigError) as caught:
            read_config(path).build()
        assert str(caught.value) == (
            "pyproject.toml:2:1: tool.inwards.layers: must be a non-empty array of layer tables, "
            "not an empty array."
        )

    def test_byte_order_mark_is_dropped(self, tmp_path: Path) -> None:
        path = write(tmp_path / "pyproject.toml", b"\xef\xbb\xbf" + VALID.encode())
        loaded = read_config(path)
        assert loaded.text == VALID
        assert loaded.positions.locate("tool.inwards.root") == (2, 1)

    def test_not_utf8(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        path = write(tmp_path / "pyproject.toml", b'[tool.inwards]\nroot = "\xff"\n')
        assert only_problem(path) == (
            "pyproject.toml:2: is not UTF-8 text (byte 24 of the file); TOML files must be UTF-8."
        )

    def test_invalid_toml_shows_the_spot(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        text = '[tool.inwards]\nroot = "src"\nlayers = [ { name = "d" modules = [] } ]\n'
        path = write(tmp_path / "pyproject.toml", text)
        with pytest.raises(tomllib.TOMLDecodeError) as parse_error:
            tomllib.loads(text)
        column = int(str(parse_error.value).rsplit("column ", 1)[1].rstrip(")"))
        rendered = only_problem(path)
        first, source, caret = rendered.split("\n")
        assert first.startswith(f"pyproject.toml:3:{column}: is not valid TOML: ")
        assert "(at line" not in first
        assert source == "    " + text.splitlines()[2]
        assert caret == "    " + " " * (column - 1) + "^"

    def test_invalid_toml_at_end_of_document(self, tmp_path: Path) -> None:
        path = write(tmp_path / "pyproject.toml", '[tool.inwards]\nroot = "src')
        with pytest.raises(ConfigError) as caught:
            read_config(path)
        problem = caught.value.problems[0]
        assert problem.line == 2
        assert "is not valid TOML" in problem.message

    def test_missing_table(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        path = write(tmp_path / "sub" / "pyproject.toml", '[project]\nname = "x"\n')
        rendered = only_problem(path)
        assert rendered.startswith("sub/pyproject.toml: has no [tool.inwards] table.")
        assert "    [tool.inwards]" in rendered

    @pytest.mark.parametrize(
        ("text", "kind"),
        [('[tool]\ninwards = "yes"\n', "a string"), ("tool.inwards = [1]\n", "an array")],
    )
    def test_table_of_the_wrong_type(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, kind: str
    ) -> None:
        monkeypatch.chdir(tmp_path)
        path = write(tmp_path / "pyproject.toml", text)
        line, column = TomlPositions(text).locate("tool.inwards") or (0, 0)
        assert only_problem(path) == (
            f"pyproject.toml:{line}:{column}: tool.inwards: must be a table, not {kind}."
        )

    def test_missing_file(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        assert only_problem(tmp_path / "nope.toml") == "nope.toml: does not exist."

    def test_directory(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        (tmp_path / "conf").mkdir()
        assert only_problem(tmp_path / "conf") == "conf: is a directory, not a configuration file."

    def test_fifo_is_refused_without_waiting(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        os.mkfifo(tmp_path / "pyproject.toml")
        assert only_problem(tmp_path / "pyproject.toml") == (
            "pyproject.toml: is a FIFO, not a regular file; a configuration file must be one."
        )

    def test_broken_link(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        (tmp_path / "pyproject.toml").symlink_to(tmp_path / "gone.toml")
        assert only_problem(tmp_path / "pyproject.toml") == (
            "pyproject.toml: is a symbolic link to nothing (broken link)."
        )

    def test_too_large(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        path = write(tmp_path / "pyproject.toml", VALID)
        os.truncate(path, MAX_CONFIG_BYTES + 1)  # sparse: nothing is written
        assert only_problem(path) == (
            "pyproject.toml: is larger than 10 MiB, too large to be a configuration file."
        )

    @pytest.mark.parametrize(
        "value",
        [
            "[" * 500 + "]" * 500,  # tomllib gives up (RecursionError)
            "[" * 150 + "]" * 150,  # tomllib copes; inwards draws the line
            "{a = " * 400 + "1" + "}" * 400,
        ],
    )
    def test_nested_too_deep(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
    ) -> None:
        monkeypatch.chdir(tmp_path)
        path = write(tmp_path / "pyproject.toml", f"[tool.inwards]\nx = {value}\n")
        assert only_problem(path) == (
            f"pyproject.toml: nests arrays or tables more than {MAX_TOML_NESTING} levels deep, "
            "which inwards does not read."
        )

    def test_nested_up_to_the_limit_is_read(self, tmp_path: Path) -> None:
        depth = MAX_TOML_NESTING - 3  # the document, [tool], [tool.inwards] come first
        value = "[" * depth + "]" * depth
        path = write(tmp_path / "pyproject.toml", f"[tool.inwards]\nx = {value}\n")
        assert read_config(path).table["x"] is not None

    def test_path_outside_the_working_directory_is_shown_whole(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        (tmp_path / "here").mkdir()
        monkeypatch.chdir(tmp_path / "here")
        missing = tmp_path / "elsewhere.toml"
        assert only_problem(missing) == f"{missing}: does not exist."


class TestNoConfigMessage:
    def test_names_the_table_and_the_option(self) -> None:
        assert "[tool.inwards]" in NO_CONFIG_MESSAGE
        assert "pyproject.toml" in NO_CONFIG_MESSAGE
        assert "--config FILE" in NO_CONFIG_MESSAGE

    def test_its_example_is_a_valid_configuration(self) -> None:
        example = "\n".join(
            line[4:] for line in NO_CONFIG_MESSAGE.splitlines() if line.startswith("    ")
        )
        assert len(example.splitlines()) == 3
        table = tomllib.loads(example)["tool"]["inwards"]
        config = build_config(table, file="pyproject.toml", positions=TomlPositions(example))
        assert [layer.name for layer in config.layers] == ["domain", "adapters"]


def test_loaded_config_is_frozen(tmp_path: Path) -> None:
    loaded = read_config(write(tmp_path / "pyproject.toml", VALID))
    assert isinstance(loaded, LoadedConfig)
    with pytest.raises(AttributeError):
        loaded.text = ""  # type: ignore[misc]
