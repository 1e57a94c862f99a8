"""Writing: reports, baselines, rule files and standard output.

Nothing that isn't a regular file is ever replaced (a device, a FIFO, /dev/stdout is written
in place), nothing is written through a symbolic link to a file or out of the project, a
read-only file is refused, and a report that can't be written (a full disk, a file-size
limit) is exit 2 with one line on stderr, never a truncated report with exit 0.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import inwards_executable
from tests.hostile.harness import Budget, LimitedRun, layered_project, run_limited

BUDGET = Budget(seconds=15, memory_mb=1024)
# Under a file-size limit only the report may meet it: no .pyc written, no cache.
NO_PYC = {"PYTHONDONTWRITEBYTECODE": "1", "INWARDS_NO_CACHE": "1"}
VIOLATION = {
    "src/shop/domain/model.py": "import shop.adapters.db\n",
    "src/shop/adapters/db.py": "",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project with one layer violation (exit 1), so every report has something in it."""
    return layered_project(tmp_path / "project", VIOLATION)


def run(*args: str, cwd: Path, **options: Any) -> LimitedRun:
    return run_limited(*args, cwd=cwd, budget=BUDGET, **options)


def one_line(result: LimitedRun) -> str:
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    return result.stderr


def no_temp_files(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# --- -o / --output: what is at the target decides -------------------------------------------


# A /dev of its own for the cases that name /dev/null or /dev/stdout: run as root, a build
# that regressed would replace the machine's own /dev/null, for every process on it.
PRIVATE_DEV = (
    "mount -t tmpfs -o mode=755 tmpfs /dev && mknod -m 666 /dev/null c 1 3 "
    "&& ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/1 /dev/stdout "
    "&& ln -s /proc/self/fd/2 /dev/stderr && mkdir /dev/shm || exit 98; "
    '"$@"; code=$?; test -c /dev/null && test -L /dev/stdout || exit 99; exit $code'
)


@pytest.fixture(scope="module")
def in_private_dev() -> list[str]:
    """A command prefix running inwards with a private /dev; exit 99 if it was replaced."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare: /dev/null can't be tested without risking the real one")
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", PRIVATE_DEV, "sh", "true"], capture_output=True, check=False
    )
    if probe.returncode != 0:
        pytest.skip(f"no private mount namespace here: {probe.stderr[-200:]!r}")
    return [unshare, "-m", "sh", "-c", PRIVATE_DEV, "sh", *inwards_executable()]


def test_o_dev_null_stays_a_device(project: Path, in_private_dev: list[str]) -> None:
    result = run("check", "-o", "/dev/null", cwd=project, command=in_private_dev)
    assert (result.code, result.stdout, result.stderr) == (1, "", "")


def test_o_device_node_in_the_project_is_written_in_place(project: Path) -> None:
    node = project / "null-device"
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError) as error:
        pytest.skip(f"can't make a device node here: {error}")
    for args in (("check", "-o", str(node)), ("baseline", "--output-file", str(node))):
        result = run(*args, cwd=project)
        assert result.code in (0, 1), result.stderr
        assert stat.S_ISCHR(os.lstat(node).st_mode), args


def test_o_fifo_with_a_reader_is_written_in_place(project: Path) -> None:
    fifo = project / "report.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        result = run("check", "-o", str(fifo), cwd=project)
        received = os.read(reader, 1 << 20)
    finally:
        os.close(reader)
    assert (result.code, result.stderr) == (1, "")
    assert b"INW001" in received
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_o_fifo_nobody_reads_is_an_error_not_a_hang(project: Path) -> None:
    fifo = project / "report.fifo"
    os.mkfifo(fifo)
    for args, what in (
        (("check", "-o", str(fifo)), "the report"),
        (("baseline", "--output-file", str(fifo)), "the baseline"),
    ):
        result = run(*args, cwd=project)
        assert result.code == 2
        assert f"can't write {what} to {fifo}: is a FIFO that nothing reads" in one_line(result)
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("alias", ["/proc/self/fd/1", "/dev/stdout", "/dev/fd/1"])
def test_o_descriptor_alias_writes_to_standard_output(
    project: Path, alias: str, in_private_dev: list[str]
) -> None:
    result = run("check", "-o", alias, cwd=project, command=in_private_dev)  # a pipe
    assert result.code == 1, result.stderr
    assert "INW001" in result.stdout


def test_o_link_to_proc_self_fd_1_stays_a_link(project: Path) -> None:
    link = project / "report.txt"
    link.symlink_to("/proc/self/fd/1")
    result = run("check", "-o", "report.txt", cwd=project)
    assert result.code == 1, result.stderr
    assert "INW001" in result.stdout
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"


def test_o_dev_stdout_keeps_what_standard_output_already_holds(
    project: Path, in_private_dev: list[str]
) -> None:
    """Written to descriptor 1 itself: a file opened for appending keeps its head."""
    log = project.parent / "log.txt"
    log.write_text("earlier line\n")
    with log.open("ab") as stdout:
        result = run(
            "check", "-o", "/dev/stdout", cwd=project, stdout=stdout, command=in_private_dev
        )
    assert result.code == 1, result.stderr
    text = log.read_text()
    assert text.startswith("earlier line\n") and text.count("Found 1 error") == 1


def test_o_read_only_file_is_refused(project: Path) -> None:
    report = project / "report.txt"
    report.write_text("old report\n")
    report.chmod(0o444)
    result = run("check", "-o", "report.txt", cwd=project)
    assert result.code == 2
    assert one_line(result) == (
        "can't write the report to report.txt: is read-only; make it writable or name "
        "another file.\n"
    )
    assert report.read_text() == "old report\n"
    assert stat.S_IMODE(report.stat().st_mode) == 0o444


def test_read_only_baseline_is_refused(project: Path) -> None:
    for name, args in (
        ("inwards-baseline.json", ()),
        ("accepted.json", ("--output-file", "accepted.json")),
    ):
        baseline = project / name
        baseline.write_text("{}\n")
        baseline.chmod(0o444)
        result = run("baseline", *args, cwd=project)
        assert result.code == 2
        assert f"{name}: is read-only" in one_line(result)
        assert baseline.read_text() == "{}\n"


def test_writable_report_is_still_replaced_atomically_keeping_its_mode(project: Path) -> None:
    report = project / "report.txt"
    report.write_text("old report\n")
    report.chmod(0o640)
    inode = report.stat().st_ino
    result = run("check", "-o", "report.txt", cwd=project)
    assert result.code == 1, result.stderr
    assert "INW001" in report.read_text()
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert report.stat().st_ino != inode  # a new file renamed over the old one
    no_temp_files(project)


@pytest.mark.parametrize("kind", ["file", "missing", "directory"])
def test_link_at_the_report_path_is_refused(project: Path, kind: str) -> None:
    """A pull request can commit `report.sarif -> ~/.bashrc` where CI writes."""
    outside = project.parent / "victim"
    if kind == "file":
        outside.write_text("export PATH=/usr/bin\n")
    elif kind == "directory":
        outside.mkdir()
    link = project / "report.sarif"
    link.symlink_to(outside)
    result = run("check", "--format=sarif", "--output-file=report.sarif", cwd=project)
    assert result.code == 2
    what = {"file": "the file ", "directory": "the directory ", "missing": ""}[kind]
    assert one_line(result).startswith(
        f"can't write the report to report.sarif: is a symbolic link to {what}{outside}"
    )
    assert link.is_symlink()
    if kind == "file":
        assert outside.read_text() == "export PATH=/usr/bin\n"
    elif kind == "missing":
        assert not os.path.lexists(outside)
    else:
        assert list(outside.iterdir()) == []


def test_link_at_the_baseline_path_is_refused(project: Path) -> None:
    victim = project.parent / "bashrc"
    victim.write_text("alias ls='ls -l'\n")
    (project / "inwards-baseline.json").symlink_to(victim)
    for args in ((), ("--output-file", "inwards-baseline.json")):
        result = run("baseline", *args, cwd=project)
        assert result.code == 2
        assert f"is a symbolic link to the file {victim}" in one_line(result)
        assert victim.read_text() == "alias ls='ls -l'\n"


@pytest.fixture
def shared_project() -> Iterator[Path]:
    """A project anyone may enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="inwards-shared-"))
    try:
        folder.chmod(0o777)
        yield layered_project(folder, VIOLATION)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_file_an_unprivileged_user_may_not_write_is_refused(shared_project: Path) -> None:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run as another user")
    for path in [shared_project, *shared_project.rglob("*")]:
        path.chmod(0o777 if path.is_dir() else 0o644)
    report = shared_project / "report.txt"
    report.write_text("root's report\n")
    report.chmod(0o644)  # owned by root: nobody has no write access, though a bit is set
    as_nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run(
        [*as_nobody, *inwards_executable(), "--version"],
        capture_output=True,
        check=False,
        cwd=shared_project,
    )
    if probe.returncode != 0:
        pytest.skip(f"the unprivileged user can't run inwards: {probe.stderr[-200:]!r}")
    command = [*as_nobody, *inwards_executable()]
    result = run(
        "check", "--no-cache", "-o", "report.txt", cwd=shared_project, command=command, env=NO_PYC
    )
    assert result.code == 2
    assert "can't write the report to report.txt: is read-only" in one_line(result)
    assert report.read_text() == "root's report\n"


# --- -o over a file-size limit or on a full disk ---------------------------------------------


def test_o_over_the_file_size_limit_leaves_the_old_report(project: Path) -> None:
    report = project / "report.json"
    report.write_text("old report\n")
    result = run(
        "check",
        "--no-cache",
        "--format",
        "json",
        "-o",
        "report.json",
        cwd=project,
        env=NO_PYC,
        limits={resource.RLIMIT_FSIZE: (256, 256)},
    )
    assert result.code == 2
    assert one_line(result) == "can't write the report to report.json: file too large.\n"
    assert report.read_text() == "old report\n"
    no_temp_files(project)


# A full disk of its own: a 64 KB tmpfs in a private mount namespace, holding an old report
# and filled to the last byte; after the run, what is left on it is printed on stdout.
FULL_DISK = (
    'mount -t tmpfs -o size=64k tmpfs "$DISK" && echo "old report" > "$DISK/report.txt" '
    '|| exit 98; head -c 1000000 /dev/zero > "$DISK/filler" 2>/dev/null; '
    '"$@"; code=$?; echo "left: $(ls "$DISK" | tr "\\n" " ")"; cat "$DISK/report.txt"; '
    "exit $code"
)


def test_o_on_a_full_disk_leaves_the_old_report(project: Path, tmp_path: Path) -> None:
    unshare = shutil.which("unshare")
    disk = tmp_path / "disk"
    disk.mkdir()
    probe = subprocess.run(
        [unshare or "unshare", "-m", "sh", "-c", FULL_DISK, "sh", "true"],
        env={**os.environ, "DISK": str(disk)},
        capture_output=True,
        check=False,
    )
    if unshare is None or probe.returncode != 0:
        pytest.skip(f"no private mount namespace with a tmpfs here: {probe.stderr[-200:]!r}")
    target = disk / "report.txt"
    result = run(
        "check",
        "--no-cache",
        "-o",
        str(target),
        cwd=project,
        command=[unshare, "-m", "sh", "-c", FULL_DISK, "sh", *inwards_executable()],
        env={"DISK": str(disk)},
    )
    assert result.code == 2
    assert one_line(result) == f"can't write the report to {target}: no space left on device.\n"
    # The old report as it was, and no temp file left behind.
    assert result.stdout == "left: filler report.txt \nold report\n"


# --- standard output ---------------------------------------------------------------------


STDOUT_COMMANDS = [
    ("check",),  # the fast path, without typer
    ("check", "--format", "text", "--format", "json"),  # a repeated option: the typer path
    ("check", "--statistics", "--format", "concise"),
    ("status",),
    ("status", "--json"),
    ("rules",),
    ("rules", "--json"),
    ("rules", "explain", "INW001"),
    ("rules", "shadow", "INW001", "--to", "project", "--print"),
    ("rules", "new", "ACME001", "--kind", "inw.forbidden", "--to", "project", "--print"),
    ("rule", "INW001"),
    ("rule", "INW001", "--full"),
    ("schema",),
    ("schema", "config"),
    ("--version",),
    ("--help",),
]


@pytest.mark.parametrize("args", STDOUT_COMMANDS, ids=" ".join)
def test_standard_output_on_a_full_disk_is_exit_2(project: Path, args: tuple[str, ...]) -> None:
    with open("/dev/full", "wb") as stdout:
        result = run(*args, cwd=project, stdout=stdout)
    assert result.code == 2
    line = one_line(result)
    assert line.startswith("can't write the ") and line.endswith(
        " to standard output: no space left on device; what was written is incomplete.\n"
    )


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
def test_check_report_on_a_full_disk_says_the_report(project: Path, unbuffered: str) -> None:
    for args, subject in ((("check",), "the report"), (("schema", "config"), "the output")):
        with open("/dev/full", "wb") as stdout:
            result = run(*args, cwd=project, stdout=stdout, env={"PYTHONUNBUFFERED": unbuffered})
        assert result.code == 2
        assert one_line(result) == (
            f"can't write {subject} to standard output: no space left on device; what was "
            "written is incomplete.\n"
        )


@pytest.mark.parametrize("unbuffered", ["", "1"], ids=["buffered", "PYTHONUNBUFFERED"])
@pytest.mark.parametrize(
    "args", [("check", "--format", "json"), ("schema", "config"), ("rules",)], ids=" ".join
)
def test_standard_output_over_the_file_size_limit_is_exit_2(
    project: Path, tmp_path: Path, args: tuple[str, ...], unbuffered: str
) -> None:
    """The write that passes the limit fails (SIGXFSZ is ignored) and says so, also when
    unbuffered, where a short write was silently dropped."""
    captured = tmp_path / "stdout.txt"
    with captured.open("wb") as stdout:
        result = run(
            *args,
            cwd=project,
            stdout=stdout,
            env={**NO_PYC, "PYTHONUNBUFFERED": unbuffered},
            limits={resource.RLIMIT_FSIZE: (300, 300)},
        )
    assert result.code == 2, result.stderr
    assert one_line(result).endswith(
        " to standard output: file too large; what was written is incomplete.\n"
    )
    assert captured.stat().st_size == 300  # as far as the limit let it


@pytest.mark.parametrize("args", [("check",), ("schema", "config"), ("rules",)], ids=" ".join)
def test_broken_pipe_ends_quietly_by_sigpipe(project: Path, args: tuple[str, ...]) -> None:
    """`inwards check | head -1`: the reader is gone before we write. Like cat or grep, the
    run ends by SIGPIPE (status 141 in a shell) and says nothing."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = run(*args, cwd=project, stdout=write_end)
    finally:
        os.close(write_end)
    assert result.code == -signal.SIGPIPE
    assert result.stderr == ""


def test_head_of_the_output_through_a_shell_pipe(project: Path) -> None:
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    command = " ".join(inwards_executable())
    script = (
        f"{command} schema config | head -c 10; echo; echo first=${{PIPESTATUS[0]}}; "
        f"{command} check | head -c 0; echo second=${{PIPESTATUS[0]}}"
    )
    done = subprocess.run(
        [bash, "-c", script],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=BUDGET.seconds,
        check=False,
    )
    assert done.stderr == ""
    assert done.stdout.startswith('{\n  "$sch')  # head's ten bytes of the schema
    statuses = [line for line in done.stdout.splitlines() if "=" in line and "$" not in line]
    # Whether the reader was gone before the write is a race: 141 if it was, else the verdict.
    assert statuses[0] in ("first=0", "first=141")
    assert statuses[1] in ("second=1", "second=141")


# --- reading a baseline ----------------------------------------------------------------------


def test_baseline_nested_100000_deep_is_a_baseline_error(project: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    (project / "deep.json").write_text(deep)
    (project / "inwards-baseline.json").write_text(deep)
    for args, shown in (
        (("check", "--baseline", "deep.json"), "deep.json"),
        (("check",), "inwards-baseline.json"),
    ):
        result = run(*args, cwd=project)
        assert (result.code, result.stdout) == (2, "")
        assert result.stderr.startswith(
            f"baseline error: {shown}: the baseline nests arrays or objects too deeply"
        ), result.stderr
        assert "Traceback" not in result.stderr
    # Writing afresh replaces it.
    result = run("baseline", cwd=project)
    assert result.code == 0, result.stderr
    assert "replacing a file that was not a readable baseline" in result.stdout


@pytest.mark.parametrize("kind", ["fifo", "device", "named fifo"])
def test_baseline_that_is_not_a_file_is_an_error_not_a_hang(project: Path, kind: str) -> None:
    if kind == "device":
        args: tuple[str, ...] = ("--baseline", "/dev/zero")
        shown = "/dev/zero is a device"
    elif kind == "fifo":
        os.mkfifo(project / "inwards-baseline.json")
        args, shown = (), "inwards-baseline.json is a FIFO"
    else:
        os.mkfifo(project / "accepted.json")
        args, shown = ("--baseline", "accepted.json"), "accepted.json is a FIFO"
    result = run("check", *args, cwd=project)
    assert (result.code, result.stdout) == (2, "")
    assert shown in one_line(result)


# --- rule files: nothing through a link out of the project ----------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    return folder


@pytest.fixture
def copy_of_inw001(project: Path) -> bytes:
    printed = run("rules", "shadow", "INW001", "--to", "project", "--print", cwd=project)
    assert printed.code == 0, printed.stderr
    return printed.stdout.encode()


SHADOW = ("rules", "shadow", "INW001", "--to", "project", "--force")
NEW = ("rules", "new", "ACME001", "--kind", "inw.forbidden", "--to", "project", "--force")


@pytest.mark.parametrize("args", [SHADOW, NEW], ids=["shadow", "new"])
@pytest.mark.parametrize("linked", [".inwards", ".inwards/rules"])
def test_rule_file_through_a_link_out_of_the_project_is_refused(
    project: Path, outside: Path, copy_of_inw001: bytes, args: tuple[str, ...], linked: str
) -> None:
    (project / linked).parent.mkdir(exist_ok=True)
    (project / linked).symlink_to(outside, target_is_directory=True)
    # A differently cased copy, which `shadow` would delete: a real definition, so that
    # reading the rules through the link succeeds and the write is what gets refused.
    (outside / "inw001.toml").write_bytes(copy_of_inw001)
    result = run(*args, cwd=project)
    assert (result.code, result.stdout) == (2, "")
    # Refused when writing, or already when reading the rules through the link.
    line = one_line(result)
    assert f"{project / linked}" in line and str(outside) in line, line
    assert "outside the project" in line
    # No rule file written there, none deleted (shadow removes a differently cased copy).
    assert [p.relative_to(outside).as_posix() for p in outside.rglob("*.toml")] == ["inw001.toml"]


@pytest.mark.parametrize("args", [SHADOW, NEW], ids=["shadow", "new"])
def test_rule_file_that_is_a_link_is_refused(
    project: Path, tmp_path: Path, outside: Path, copy_of_inw001: bytes, args: tuple[str, ...]
) -> None:
    """In the user root, where links are the user's own (a dotfiles repository), a link
    at the file's own path is still refused, never written through."""
    victim = outside / "victim.toml"
    victim.write_bytes(copy_of_inw001)
    user_rules = tmp_path / "config" / "inwards" / "rules"
    user_rules.mkdir(parents=True)
    link = user_rules / f"{args[2]}.toml"
    link.symlink_to(victim)
    user = tuple("user" if arg == "project" else arg for arg in args)
    result = run(*user, cwd=project, env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert result.code == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (  # after a warning about the file's content
        f"can't write {link}: is a symbolic link to the file {victim}; inwards does not "
        "write through links (remove the link, or name the file itself)."
    )
    assert victim.read_bytes() == copy_of_inw001 and link.is_symlink()


def test_link_that_stays_inside_the_project_is_followed(project: Path) -> None:
    (project / "rule-data").mkdir()
    (project / ".inwards").symlink_to("rule-data", target_is_directory=True)
    result = run(*NEW, cwd=project)
    assert result.code == 0, result.stderr
    assert (project / "rule-data" / "rules" / "ACME001.toml").is_file()
