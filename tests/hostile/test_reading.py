"""Reading: the project's files, its configuration and its rule roots.

Only regular files are read, and opening one never blocks; no symlink that leads out of
the project directory is followed (it is reported, saying where it leads); each real
directory is walked once; a configuration that is there but can't be read, or nests
without end, is a configuration error naming it (never a silent step to a parent's); a
rule root is walked within a bound, so a link to `/` ends quickly.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.helpers import inwards_executable
from tests.hostile.harness import LAYERED_CONFIG, Budget, LimitedRun, layered_project, run_limited

BUDGET = Budget(seconds=10, memory_mb=1024)
QUICK = Budget(seconds=5, memory_mb=1024)
NO_CACHE = {"INWARDS_NO_CACHE": "1"}
CLEAN = {"src/shop/domain/model.py": "import os\n"}

DEEP_VALUES = {
    "arrays": "[" * 500 + "]" * 500,  # tomllib raises RecursionError
    "inline tables": "{ a = " * 500 + "1" + " }" * 500,
}
TOO_DEEP = "nests arrays or tables more than 100 levels deep, which inwards does not read."


def run(*args: str, cwd: Path, budget: Budget = BUDGET, **options: object) -> LimitedRun:
    env = {**NO_CACHE, **options.pop("env", {})}  # type: ignore[dict-item]
    return run_limited(*args, cwd=cwd, budget=budget, env=env, **options)  # type: ignore[arg-type]


def clean_exit(result: LimitedRun, code: int) -> None:
    assert result.code == code, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def config_error(result: LimitedRun) -> str:
    """The stderr of a run that stopped on a configuration error."""
    clean_exit(result, 2)
    assert result.stdout == ""
    assert result.stderr.startswith("config error: ") or "error:" in result.stderr
    return result.stderr


# --- the project's files ----------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return layered_project(tmp_path / "project", CLEAN)


def test_a_link_to_proc_kmsg_is_not_read(project: Path) -> None:
    if not os.path.exists("/proc/kmsg"):
        pytest.skip("no /proc/kmsg here (its read blocks until the kernel logs something)")
    (project / "src/shop/domain/x.py").symlink_to("/proc/kmsg")
    for args in ((), ("--full-parse",)):
        result = run("check", *args, cwd=project)
        clean_exit(result, 0)
        assert (
            "warning: src/shop/domain/x.py is a symlink to /proc/kmsg, outside the project "
            "directory; it was not followed" in result.output
        )


def test_a_link_to_etc_passwd_is_not_parsed(project: Path) -> None:
    (project / "src/shop/domain/passwd.py").symlink_to("/etc/passwd")
    result = run("check", "--full-parse", cwd=project)
    clean_exit(result, 0)  # /etc/passwd parsed as Python would be a syntax error (exit 1)
    assert "src/shop/domain/passwd.py is a symlink to /etc/passwd, outside" in result.output
    assert "root:" not in result.output


def test_a_link_to_the_root_directory_is_not_walked(project: Path) -> None:
    (project / "src/shop/domain/everything").symlink_to("/")
    (project / "src/everything").symlink_to("/")
    result = run("check", cwd=project, budget=QUICK)
    clean_exit(result, 0)
    for link in ("src/everything", "src/shop/domain/everything"):
        assert f"warning: {link} is a symlink to /, outside the project directory" in result.stderr


@pytest.mark.parametrize("depth", [16, 31])
def test_a_ladder_of_links_is_walked_once(tmp_path: Path, depth: int) -> None:
    # d0 holds two links to d1, d1 two links to d2, ...: 2**depth paths, 2*depth links.
    files = {f"src/shop/domain/ladder/d{level}/m.py": "import os\n" for level in range(depth + 1)}
    project = layered_project(tmp_path / "project", files)
    ladder = project / "src/shop/domain/ladder"
    for level in range(depth):
        for name in ("a", "b"):
            (ladder / f"d{level}" / name).symlink_to(Path("..") / f"d{level + 1}")
    result = run("check", cwd=project, budget=QUICK)
    clean_exit(result, 0)
    assert result.seconds < 5
    assert result.stderr.count("which is listed already; it was not followed") == 2 * depth
    assert f"in {depth + 3} files" in result.stdout  # each module once, by its own path


def test_a_file_claiming_100_gb_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    project = layered_project(
        tmp_path / "project",
        {"src/shop/domain/model.py": "import shop.adapters\n", "src/shop/domain/huge.py": ""},
    )
    os.truncate(project / "src/shop/domain/huge.py", 100 * 1024**3)  # sparse: costs no disk
    result = run("check", cwd=project, budget=QUICK)
    clean_exit(result, 1)  # the other file's finding is still reported
    assert "INW001" in result.stdout
    assert (
        "src/shop/domain/huge.py could not be read (it is larger than 128 MiB, more than "
        "inwards reads), so it was not checked." in result.stderr
    )


def test_a_named_path_in_a_directory_that_cant_be_searched(tmp_path: Path) -> None:
    project = layered_project(tmp_path / "project", {"a/b/c.py": "import os\n", **CLEAN})
    with unsearchable(project / "a"):
        result = run("check", "a/b/c.py", cwd=project, command=without_file_privileges())
    clean_exit(result, 2)
    assert result.stderr == "a/b/c.py can't be examined: permission denied.\n"


# --- configuration ------------------------------------------------------------------------


@pytest.fixture
def nested(tmp_path: Path) -> Path:
    """`pkg/` inside a project whose own pyproject.toml is valid: a run in `pkg/` whose
    pyproject.toml is passed over would silently use the parent's."""
    layered_project(tmp_path / "project", CLEAN)
    (tmp_path / "project/pkg").mkdir()
    return tmp_path / "project/pkg"


def test_an_unreadable_pyproject_is_a_config_error(nested: Path) -> None:
    config = nested / "pyproject.toml"
    config.write_text(LAYERED_CONFIG)
    config.chmod(0)
    result = run("check", cwd=nested, command=without_file_privileges())
    assert (
        config_error(result) == "config error: pyproject.toml: can't be read: Permission denied.\n"
    )


@pytest.mark.parametrize("kind", ["fifo", "device", "/proc/kmsg", "directory"])
def test_a_pyproject_that_is_not_a_file_is_a_config_error(nested: Path, kind: str) -> None:
    config = nested / "pyproject.toml"
    if kind == "fifo":
        os.mkfifo(config)
        expected = "is a FIFO, not a regular file; a configuration file must be one."
    elif kind == "device":
        config.symlink_to("/dev/zero")
        expected = "is a device, not a regular file; a configuration file must be one."
    elif kind == "directory":
        config.mkdir()
        expected = "is a directory, not a configuration file."
    else:
        if not os.path.exists("/proc/kmsg"):
            pytest.skip("no /proc/kmsg here")
        config.symlink_to("/proc/kmsg")
        expected = "can't be read:"
    for args in ((), ("--config", "pyproject.toml")):
        result = run("check", *args, cwd=nested, budget=QUICK)
        assert config_error(result).startswith(f"config error: pyproject.toml: {expected}")


@pytest.mark.parametrize("shape", list(DEEP_VALUES))
def test_a_pyproject_nested_500_deep_is_a_config_error(nested: Path, shape: str) -> None:
    (nested / "pyproject.toml").write_text(f"{LAYERED_CONFIG}deep = {DEEP_VALUES[shape]}\n")
    for args in ((), ("--config", "pyproject.toml")):  # found by discovery, or named
        result = run("check", *args, cwd=nested, budget=QUICK)
        assert config_error(result) == f"config error: pyproject.toml: {TOO_DEEP}\n"
    # Discovery passes over a deep pyproject.toml that doesn't mention [tool.inwards].
    (nested / "pyproject.toml").write_text(f"deep = {DEEP_VALUES[shape]}\n")
    clean_exit(run("check", cwd=nested, budget=QUICK), 0)


def test_a_nul_in_root_is_a_config_error(tmp_path: Path) -> None:
    config = LAYERED_CONFIG.replace('root = "src"', 'root = "src\\u0000x"')
    project = layered_project(tmp_path / "project", CLEAN, config)
    result = run("check", cwd=project, budget=QUICK)
    assert config_error(result) == (
        "config error: pyproject.toml:2:1: tool.inwards.root: must not hold a NUL character "
        "(\\u0000); no directory name can.\n"
    )


# --- rule roots ---------------------------------------------------------------------------

DEEP_DEFINITION = (
    'code = "INW011"\nname = "dynamic-import"\nsummary = "x"\ncheck = "inw.dynamic-import"\n'
    "[options]\ndeep = " + DEEP_VALUES["arrays"] + "\n"
)


def test_a_definition_nested_500_deep(project: Path, tmp_path: Path) -> None:
    rules = project / ".inwards/rules"
    rules.mkdir(parents=True)
    (rules / "INW011.toml").write_text(DEEP_DEFINITION)
    result = run("check", cwd=project, budget=QUICK)
    assert config_error(result) == f"config error: .inwards/rules/INW011.toml: {TOO_DEEP}\n"
    # In the user root it is a warning, and the core definition stays in force.
    (rules / "INW011.toml").unlink()
    user = tmp_path / "xdg/inwards/rules"
    user.mkdir(parents=True)
    (user / "INW011.toml").write_text(DEEP_DEFINITION)
    result = run("check", cwd=project, budget=QUICK, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    clean_exit(result, 0)
    assert f"INW011.toml: {TOO_DEEP}" in result.stderr and "warning:" in result.stderr


def test_a_link_out_of_the_project_rule_root_is_not_followed(project: Path) -> None:
    rules = project / ".inwards/rules"
    rules.mkdir(parents=True)
    (rules / "x").symlink_to("/")
    result = run("check", cwd=project, budget=QUICK)
    assert config_error(result) == (
        "config error: .inwards/rules/x: is a symbolic link to /, outside the project "
        "directory; it was not followed.\n"
    )


def test_a_link_to_the_root_directory_in_the_user_root_ends_quickly(
    project: Path, tmp_path: Path
) -> None:
    user = tmp_path / "xdg/inwards/rules"
    user.mkdir(parents=True)
    (user / "x").symlink_to("/")
    result = run("check", cwd=project, budget=QUICK, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    clean_exit(result, 0)
    # Which bound ends it depends on the machine: 10000 entries, or folders 8 deep.
    bounds = ("holds more than 10000 files, folders and links", "folders deep below the root")
    assert any(f"{bound}" in result.stderr for bound in bounds), result.stderr
    assert result.stderr.count("\nwarning: ") <= 25  # named problems are capped per root


# --- what held up -------------------------------------------------------------------------


def test_encodings_still_read(tmp_path: Path) -> None:
    project = layered_project(
        tmp_path / "project",
        {
            "src/shop/domain/latin.py": "# -*- coding: latin-1 -*-\nimport shop.adapters\nx = 'é'\n".encode(
                "latin-1"
            ),
            "src/shop/domain/bom.py": b"\xef\xbb\xbfimport shop.adapters\n",
            "src/shop/domain/binary.py": bytes(range(256)) * 64,
        },
    )
    result = run("check", cwd=project)
    clean_exit(result, 1)
    assert result.stdout.count("INW001") >= 2  # both inward imports found, the binary reported


# --- helpers ----------------------------------------------------------------------------


def without_file_privileges() -> list[str]:
    """The inwards command, run so that file permissions apply: as root, without the
    capabilities that let root read and search any directory (as any user, unchanged)."""
    if os.geteuid() != 0:
        return inwards_executable()
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("needs setpriv to drop root's file capabilities")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *inwards_executable()]


@contextlib.contextmanager
def unsearchable(folder: Path) -> Iterator[Path]:
    """`folder` with mode 000 for the length of a `with` block."""
    folder.chmod(0)
    try:
        yield folder
    finally:
        folder.chmod(0o755)


def test_a_baseline_claiming_100_gb_is_refused_unread(project: Path) -> None:
    """A sparse file costs nothing to make; reading it whole would take the machine."""
    with open(project / "inwards-baseline.json", "wb") as sparse:
        sparse.truncate(100 * 1024**3)
    result = run("check", cwd=project, budget=QUICK)
    clean_exit(result, 2)
    assert result.stdout == ""
    assert "inwards-baseline.json: is larger than 64 MiB" in result.stderr
