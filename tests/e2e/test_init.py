"""`inwards init` through the installed command: presets, --scaffold, --dry-run, --force,
--style auto, and the refusals (exit 2) that write nothing."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from inwards_core.presets import PRESETS
from inwards_core.version import VERSION
from tests.e2e.helpers import run_inwards, write_tree

PYPROJECT = """\
# Our project, our comments.
[project]
name = "Acme-Shop"   # normalised to acme_shop
version = "1.0"

[tool.ruff]
line-length = 99
lint.select = ["E"]  # a dotted key

[tool.mypy]
strict = true
"""


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.mark.parametrize("style", list(PRESETS))
def test_init_scaffold_passes(tmp_path: Path, style: str) -> None:
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "shop"\n'})
    done = run_inwards("init", "--style", style, "--scaffold", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert f"Wrote [tool.inwards] ({style}, package shop) in pyproject.toml." in done.stdout
    assert "All clear" in done.stdout
    assert "What each layer may import" in done.stdout
    assert "<- may import: no other layer" in done.stdout  # the tree itself, innermost first
    assert done.stderr == ""
    table = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["inwards"]
    assert table["required-version"] == VERSION
    checked = run_inwards("check", cwd=tmp_path)
    assert checked.code == 0, checked.stdout + checked.stderr
    assert "All clear" in checked.stdout


@pytest.mark.parametrize("style", ["layered", "clean", "hexagonal", "vertical-slices", "fastapi"])
def test_the_scaffolded_test_passes(tmp_path: Path, style: str) -> None:
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "shop"\n'})
    assert run_inwards("init", "--style", style, "--scaffold", cwd=tmp_path).code == 0
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_a_broken_scaffold_is_caught(tmp_path: Path) -> None:
    """The preset enforces: the domain importing an adapter fails the check."""
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "shop"\n'})
    assert run_inwards("init", "--style", "hexagonal", "--scaffold", cwd=tmp_path).code == 0
    entities = tmp_path / "src/shop/domain/entities.py"
    entities.write_text(entities.read_text() + "from shop.adapters.outbound import memory\n")
    checked = run_inwards("check", cwd=tmp_path)
    assert checked.code == 1
    assert "INW001" in checked.stdout


def test_scaffold_without_a_pyproject_creates_one(tmp_path: Path) -> None:
    done = run_inwards("init", "--style", "clean", "--scaffold", "--package", "shop", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "(a new file)" in done.stdout
    data = tomllib.loads((tmp_path / "pyproject.toml").read_text())
    assert data["project"]["name"] == "shop"
    assert run_inwards("check", cwd=tmp_path).code == 0


def test_init_keeps_the_pyproject_byte_for_byte(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT})
    done = run_inwards("init", "--style", "clean", cwd=tmp_path)
    assert done.code == 0, done.stderr
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(PYPROJECT + "\n[tool.inwards]\n# Preset: clean ")
    table = tomllib.loads(text)["tool"]["inwards"]
    assert table["layers"][0] == {"name": "domain", "modules": ["acme_shop.domain"]}
    assert table["root"] == "."
    assert "Next: run `inwards check`" in done.stdout


def test_crlf_pyproject_stays_crlf(tmp_path: Path) -> None:
    original = PYPROJECT.replace("\n", "\r\n").encode()
    (tmp_path / "pyproject.toml").write_bytes(original)
    assert run_inwards("init", "--style", "layered", cwd=tmp_path).code == 0
    data = (tmp_path / "pyproject.toml").read_bytes()
    assert data.startswith(original)
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_an_existing_table_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    text = PYPROJECT + '\n[tool.inwards]\nlayers = [{ name = "a", modules = ["a"] }]\n'
    write_tree(tmp_path, {"pyproject.toml": text})
    before = snapshot(tmp_path)
    done = run_inwards("init", "--style", "clean", "--scaffold", cwd=tmp_path)
    assert done.code == 2
    assert "pyproject.toml:13: [tool.inwards] is already there; pass --force" in done.stderr
    assert done.stdout == ""
    assert snapshot(tmp_path) == before


def test_force_replaces_the_table_in_place(tmp_path: Path) -> None:
    text = PYPROJECT.replace(
        "[tool.mypy]", '[tool.inwards]\nlayers = [{ name = "a", modules = ["a"] }]\n\n[tool.mypy]'
    )
    write_tree(tmp_path, {"pyproject.toml": text})
    done = run_inwards("init", "--style", "layered", "--force", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "Replaced [tool.inwards]" in done.stdout
    new = (tmp_path / "pyproject.toml").read_text()
    assert new.index("[tool.inwards]") < new.index("[tool.mypy]")
    assert tomllib.loads(new)["tool"]["inwards"]["layers"][1]["name"] == "persistence"
    assert new.endswith("[tool.mypy]\nstrict = true\n")


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT})
    before = snapshot(tmp_path)
    done = run_inwards("init", "--style", "hexagonal", "--scaffold", "--dry-run", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert snapshot(tmp_path) == before
    assert "+++ b/pyproject.toml" in done.stdout
    assert '+  { name = "domain", modules = ["acme_shop.domain"] },' in done.stdout
    assert "would create src/acme_shop/bootstrap.py" in done.stdout
    assert done.stdout.endswith("Nothing written (--dry-run).\n")


def test_scaffold_never_overwrites(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\n',
            "src/shop/bootstrap.py": "# mine\n",
            "tests/conftest.py": "# mine too\n",
        },
    )
    before = snapshot(tmp_path)
    done = run_inwards("init", "--style", "clean", "--scaffold", cwd=tmp_path)
    assert done.code == 2
    assert "would write over 2 existing paths; nothing was written:" in done.stderr
    assert "    src/shop/bootstrap.py" in done.stderr
    assert "    tests/conftest.py" in done.stderr
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "inwards init needs --style when it can't ask"),
        (("--style", "mvc"), "--style 'mvc' is not a style"),
        (("--style", "clean", "--write"), "--write is for --style auto"),
        (("--style", "auto", "--scaffold"), "--scaffold needs a style"),
        (
            ("--style", "clean", "--package", "no-dash"),
            "'no-dash' is not a top-level Python package name",
        ),
        (("--style", "clean", "--package", "acme.shop"), "'acme.shop' is not a top-level"),
        (("--style", "clean", "--package", "class"), "'class' is not a top-level"),
    ],
)
def test_usage_errors_exit_2_and_never_prompt(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    write_tree(tmp_path, {"pyproject.toml": PYPROJECT})
    done = run_inwards("init", *args, cwd=tmp_path)
    assert done.code == 2
    assert message in done.stderr
    assert (tmp_path / "pyproject.toml").read_text() == PYPROJECT


def test_no_pyproject_is_exit_2(tmp_path: Path) -> None:
    done = run_inwards("init", "--style", "clean", cwd=tmp_path)
    assert done.code == 2
    assert "no pyproject.toml in" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_list_styles(tmp_path: Path) -> None:
    done = run_inwards("init", "--list-styles", cwd=tmp_path)
    assert done.code == 0
    for style in PRESETS:
        assert f"\n{style}: " in "\n" + done.stdout
    assert "auto: " in done.stdout


AUTO_PROJECT = {
    "pyproject.toml": '[project]\nname = "app"\n',
    "src/app/__init__.py": "",
    "src/app/utils/__init__.py": "",
    "src/app/domain/__init__.py": "",
    "src/app/domain/order.py": "from app.api import routes\n",  # the wrong way
    "src/app/services/__init__.py": "",
    "src/app/infrastructure/__init__.py": "",
    "src/app/api/__init__.py": "",
    "src/app/api/routes.py": "from app.services import x\n",
    "src/app/services/x.py": "",
}


def test_auto_prints_the_proposal_and_writes_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, AUTO_PROJECT)
    before = snapshot(tmp_path)
    done = run_inwards("init", "--style", "auto", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert snapshot(tmp_path) == before  # not even a cache
    out = done.stdout
    assert "app.services" in out and "-> application: `services` is a usual name" in out
    assert "Closest preset: clean" in out
    assert '{ name = "kernel", modules = ["app.utils"] },' in out
    assert "finds today: 1 error and 0 warnings in" in out
    assert "INW001 layer-dependency: 1 error" in out
    assert "run `inwards init --style auto --write` to write it" in out


def test_auto_write_writes_the_proposal(tmp_path: Path) -> None:
    write_tree(tmp_path, AUTO_PROJECT)
    done = run_inwards("init", "--style", "auto", "--write", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "Wrote [tool.inwards] (auto, closest to clean)" in done.stdout
    checked = run_inwards("check", cwd=tmp_path)
    assert checked.code == 1
    assert "INW001" in checked.stdout


def test_auto_prints_its_proposal_where_there_is_no_pyproject(tmp_path: Path) -> None:
    write_tree(tmp_path, {k: v for k, v in AUTO_PROJECT.items() if k != "pyproject.toml"})
    before = snapshot(tmp_path)
    nameless = run_inwards("init", "--style", "auto", cwd=tmp_path)
    assert nameless.code == 2
    assert "no pyproject.toml to read the package name from; pass --package NAME" in (
        nameless.stderr
    )
    done = run_inwards("init", "--style", "auto", "--package", "app", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert "Closest preset: clean" in done.stdout
    assert "run `inwards init --style auto --write` to write it" in done.stdout
    assert snapshot(tmp_path) == before
    refused = run_inwards("init", "--style", "auto", "--package", "app", "--write", cwd=tmp_path)
    assert refused.code == 2 and "no pyproject.toml in" in refused.stderr
    assert snapshot(tmp_path) == before


def test_auto_with_no_known_names_is_exit_2(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "app"\n',
            "src/app/__init__.py": "",
            "src/app/x.py": "",
        },
    )
    done = run_inwards("init", "--style", "auto", cwd=tmp_path)
    assert done.code == 2
    assert "no package below app has a name auto knows" in done.stderr


def _converse(command: list[str], cwd: Path, answers: dict[str, str]) -> tuple[int, str]:
    """Run `command` on a pseudo-terminal, answering each prompt (a text it prints) once."""
    import os
    import pty
    import select
    import time

    from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable

    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("INWARDS_")}
    env["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    pid, descriptor = pty.fork()
    if pid == 0:  # the child: becomes inwards on the terminal
        os.chdir(cwd)
        executable = inwards_executable()[0]
        os.execve(executable, [executable, *command], env)
    seen = b""
    pending = dict(answers)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([descriptor], [], [], 1)
        if not ready:
            continue
        try:
            chunk = os.read(descriptor, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
        for prompt, answer in list(pending.items()):
            if prompt.encode() in seen:
                os.write(descriptor, answer.encode() + b"\n")
                del pending[prompt]
    _, status = os.waitpid(pid, 0)
    os.close(descriptor)
    return os.waitstatus_to_exitcode(status), seen.decode(errors="replace")


def test_on_a_terminal_without_flags_it_asks(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "my-shop"\n'})
    code, output = _converse(
        ["init"],
        tmp_path,
        {"Style (number or name)": "3", "Package [my_shop]": "", "(--scaffold)?": "y"},
    )
    assert code == 0, output
    assert "3. hexagonal" in output
    assert "Wrote [tool.inwards] (hexagonal, package my_shop)" in output
    assert (tmp_path / "src/my_shop/bootstrap.py").is_file()


def test_scaffold_follows_an_existing_flat_layout(tmp_path: Path) -> None:
    """A package at the top stays there: the example goes beside it, not into src/."""
    write_tree(tmp_path, {"pyproject.toml": '[project]\nname = "shop"\n', "shop/__init__.py": ""})
    done = run_inwards("init", "--style", "hexagonal", "--scaffold", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert (tmp_path / "shop/bootstrap.py").is_file()
    assert not (tmp_path / "src").exists()
    table = tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["inwards"]
    assert table["root"] == "."
    assert "All clear" in done.stdout
    tested = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_django_scaffold_follows_a_src_layout(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"pyproject.toml": '[project]\nname = "shop"\n', "src/shop/__init__.py": ""}
    )
    done = run_inwards("init", "--style", "django", "--scaffold", cwd=tmp_path)
    assert done.code == 0, done.stderr
    assert (tmp_path / "src/shop/settings.py").is_file()
    assert (tmp_path / "manage.py").is_file()
    assert (
        tomllib.loads((tmp_path / "pyproject.toml").read_text())["tool"]["inwards"]["root"] == "src"
    )
    assert run_inwards("check", cwd=tmp_path).code == 0
