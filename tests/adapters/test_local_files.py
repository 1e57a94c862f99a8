"""LocalProjectFiles on real trees: symlinks, loops, unreadable directories, skipped ones."""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from inwards_cli.adapters.local_files import MAX_FILE_BYTES, LocalProjectFiles
from inwards_cli.adapters.reading import NotARegularFileError
from inwards_core.ports import ListingProblem


def _touch(path: Path, content: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    _touch(root / "pkg" / "__init__.py")
    _touch(root / "pkg" / "core.py", "X = 1\n")
    _touch(root / "pkg" / "sub" / "deep.py")
    _touch(root / "tools" / "run.py")
    return root


def test_a_link_back_to_an_ancestor_is_a_loop_not_a_hang(project: Path) -> None:
    (project / "pkg" / "sub" / "up").symlink_to("..")
    (project / "pkg" / "root").symlink_to(project)
    listing = LocalProjectFiles(project).listing("")
    assert listing.problems == (
        ListingProblem(
            "pkg/root",
            "pkg/root is a symlink loop: it leads back to the project directory, which "
            "contains it; it was not followed",
        ),
        ListingProblem(
            "pkg/sub/up",
            "pkg/sub/up is a symlink loop: it leads back to pkg, which contains it; "
            "it was not followed",
        ),
    )
    # The loops are recorded as links, not listed as directories; the rest is intact.
    assert listing.symlinks == (("pkg/root", "."), ("pkg/sub/up", "pkg"))
    assert listing.directories == ("pkg", "pkg/sub", "tools")
    assert listing.files == ("pkg/__init__.py", "pkg/core.py", "pkg/sub/deep.py", "tools/run.py")


def test_a_loop_is_found_when_listing_below_the_directory_it_leads_to(project: Path) -> None:
    (project / "pkg" / "sub" / "root").symlink_to(project)
    listing = LocalProjectFiles(project).listing("pkg/sub")
    assert [p.path for p in listing.problems] == ["pkg/sub/root"]
    assert "symlink loop" in listing.problems[0].message
    assert listing.files == ("pkg/sub/deep.py",)


def test_links_that_point_at_each_other_are_a_loop(project: Path) -> None:
    (project / "pkg" / "a.py").symlink_to("b.py")
    (project / "pkg" / "b.py").symlink_to("a.py")
    listing = LocalProjectFiles(project).listing("")
    assert {p.path for p in listing.problems} == {"pkg/a.py", "pkg/b.py"}
    assert all("symlink loop" in p.message for p in listing.problems)
    assert "pkg/a.py" not in listing.files
    assert "pkg/core.py" in listing.files


def test_a_broken_link_is_a_problem_and_the_rest_is_listed(project: Path) -> None:
    (project / "pkg" / "gone.py").symlink_to("missing.py")
    listing = LocalProjectFiles(project).listing("")
    assert listing.problems == (
        ListingProblem(
            "pkg/gone.py", "pkg/gone.py is a broken symlink: its target missing.py does not exist"
        ),
    )
    assert "pkg/gone.py" not in listing.files
    assert listing.files == ("pkg/__init__.py", "pkg/core.py", "pkg/sub/deep.py", "tools/run.py")


def test_a_file_reached_twice_is_listed_under_each_path(project: Path) -> None:
    (project / "tools" / "alias.py").symlink_to(Path("..") / "pkg" / "core.py")
    files = LocalProjectFiles(project)
    listing = files.listing("")
    assert "tools/alias.py" in listing.files and "pkg/core.py" in listing.files
    assert listing.symlinks == (("tools/alias.py", "pkg/core.py"),)
    assert files.read_bytes("tools/alias.py") == b"X = 1\n"


def test_a_directory_reached_twice_is_listed_once_under_its_own_path(project: Path) -> None:
    (project / "lib").symlink_to("pkg")
    (project / "tools" / "again").symlink_to(project / "pkg" / "sub")
    listing = LocalProjectFiles(project).listing("")
    # Real paths are walked first, so each module keeps its own name and the links are
    # reported as second paths, not listed twice.
    assert listing.problems == (
        ListingProblem(
            "lib",
            "lib is a symlink to pkg, which is listed already; it was not followed, "
            "so each file is checked once, under that path",
        ),
        ListingProblem(
            "tools/again",
            "tools/again is a symlink to pkg/sub, which is listed already; it was not "
            "followed, so each file is checked once, under that path",
        ),
    )
    assert listing.files == ("pkg/__init__.py", "pkg/core.py", "pkg/sub/deep.py", "tools/run.py")
    assert listing.directories == ("pkg", "pkg/sub", "tools")
    assert listing.symlinks == (("lib", "pkg"), ("tools/again", "pkg/sub"))


def test_a_directory_outside_under_is_walked_through_a_link(project: Path) -> None:
    (project / "pkg" / "vendored").symlink_to(project / "tools")
    listing = LocalProjectFiles(project).listing("pkg")
    assert listing.problems == ()
    assert listing.files == (
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/sub/deep.py",
        "pkg/vendored/run.py",
    )
    assert listing.symlinks == (("pkg/vendored", "tools"),)


def test_which_of_two_links_wins_is_decided_by_name_not_by_disk_order(project: Path) -> None:
    (project / "pkg" / "zz").symlink_to(project / "tools")
    (project / "pkg" / "aa").symlink_to(project / "tools")

    def backwards(path: str) -> AbstractContextManager[Iterator[os.DirEntry[str]]]:
        with os.scandir(path) as scanned:
            entries = sorted(scanned, key=lambda entry: entry.name, reverse=True)
        return contextlib.nullcontext(iter(entries))

    for scandir in (os.scandir, backwards):
        listing = LocalProjectFiles(project, scandir=scandir).listing("pkg")
        assert "pkg/aa/run.py" in listing.files and "pkg/zz/run.py" not in listing.files
        assert [p.path for p in listing.problems] == ["pkg/zz"]


def test_a_ladder_of_links_lists_each_directory_once(tmp_path: Path) -> None:
    # Two links in each directory to the next one: following every path through the
    # ladder would walk 2**31 directories; each real directory is walked once instead.
    depth = 31
    ladder = tmp_path / "ladder"
    for level in range(depth + 1):
        _touch(ladder / f"d{level}" / "m.py")
    for level in range(depth):
        for name in ("a", "b"):
            (ladder / f"d{level}" / name).symlink_to(Path("..") / f"d{level + 1}")
    started = time.monotonic()
    listing = LocalProjectFiles(ladder).listing("")
    assert time.monotonic() - started < 2
    assert listing.files == tuple(sorted(f"d{level}/m.py" for level in range(depth + 1)))
    assert len(listing.problems) == 2 * depth
    assert all("listed already" in problem.message for problem in listing.problems)


def test_links_that_leave_the_project_are_reported_not_followed(
    project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "vendor"
    _touch(outside / "thing.py")
    (project / "vendored").symlink_to(outside)
    (project / "pkg" / "passwd.py").symlink_to(outside / "thing.py")
    (project / "pkg" / "everything").symlink_to("/")
    listing = LocalProjectFiles(project).listing("")
    real_outside = Path(os.path.realpath(outside)).as_posix()
    assert listing.problems == (
        ListingProblem(
            "pkg/everything",
            "pkg/everything is a symlink to /, outside the project directory; it was not followed",
        ),
        ListingProblem(
            "pkg/passwd.py",
            f"pkg/passwd.py is a symlink to {real_outside}/thing.py, outside the project "
            "directory; it was not followed",
        ),
        ListingProblem(
            "vendored",
            f"vendored is a symlink to {real_outside}, outside the project directory; "
            "it was not followed",
        ),
    )
    assert listing.files == ("pkg/__init__.py", "pkg/core.py", "pkg/sub/deep.py", "tools/run.py")
    assert listing.directories == ("pkg", "pkg/sub", "tools")
    assert ("vendored", real_outside) in listing.symlinks


def test_listing_under_a_link_that_leaves_the_project_lists_nothing(
    project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "vendor"
    _touch(outside / "thing.py")
    (project / "vendored").symlink_to(outside)
    for under in ("vendored", "vendored/thing.py"):
        listing = LocalProjectFiles(project).listing(under)
        assert listing.files == () and listing.directories == ()
        assert [p.path for p in listing.problems] == [under]
        assert "outside the project directory" in listing.problems[0].message


def test_read_bytes_refuses_a_link_that_leaves_the_project(project: Path, tmp_path: Path) -> None:
    _touch(tmp_path / "secret.txt", "secret\n")
    (project / "pkg" / "passwd.py").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(PermissionError, match="outside the project directory"):
        LocalProjectFiles(project).read_bytes("pkg/passwd.py")


def test_read_bytes_checks_again_what_the_listing_saw(project: Path, tmp_path: Path) -> None:
    files = LocalProjectFiles(project)
    assert "pkg/core.py" in files.listing("").files
    core = project / "pkg" / "core.py"
    core.unlink()
    os.mkfifo(core)  # swapped in after the listing: refused, not waited on
    started = time.monotonic()
    with pytest.raises(NotARegularFileError, match="FIFO"):
        files.read_bytes("pkg/core.py")
    assert time.monotonic() - started < 1
    core.unlink()
    _touch(tmp_path / "secret.txt", "secret\n")
    core.symlink_to(tmp_path / "secret.txt")
    with pytest.raises(PermissionError, match="outside the project directory"):
        files.read_bytes("pkg/core.py")


def test_read_bytes_refuses_a_file_larger_than_the_limit(project: Path) -> None:
    huge = project / "pkg" / "huge.py"
    huge.write_bytes(b"import os\n")
    os.truncate(huge, 100 * 1024**3)  # sparse: a claim of 100 GB costs no disk
    with pytest.raises(OSError, match="larger than 128 MiB") as caught:
        LocalProjectFiles(project).read_bytes("pkg/huge.py")
    assert caught.value.errno == errno.EFBIG
    os.truncate(huge, MAX_FILE_BYTES)
    assert len(LocalProjectFiles(project).read_bytes("pkg/huge.py")) == MAX_FILE_BYTES


def test_fifos_are_not_listed(project: Path) -> None:
    os.mkfifo(project / "pkg" / "pipe.py")
    (project / "pkg" / "to_pipe.py").symlink_to("pipe.py")
    listing = LocalProjectFiles(project).listing("")
    assert "pkg/pipe.py" not in listing.files and "pkg/to_pipe.py" not in listing.files
    assert listing.problems == (
        ListingProblem(
            "pkg/to_pipe.py",
            "pkg/to_pipe.py is a symlink to something that is neither a file nor a directory",
        ),
    )
    named = LocalProjectFiles(project).listing("pkg/pipe.py")
    assert named.files == ()
    assert named.problems == (
        ListingProblem("pkg/pipe.py", "pkg/pipe.py is neither a file nor a directory"),
    )


def test_under_a_symlinked_directory_records_the_link(project: Path) -> None:
    (project / "lib").symlink_to("pkg")
    listing = LocalProjectFiles(project).listing("lib/sub")
    assert listing.files == ("lib/sub/deep.py",)
    assert listing.symlinks == ()  # lib/sub itself is a real directory seen through a link
    whole_link = LocalProjectFiles(project).listing("lib")
    assert whole_link.symlinks == (("lib", "pkg"),)


def test_under_a_broken_link_is_a_problem(project: Path) -> None:
    (project / "dangling").symlink_to("nowhere")
    listing = LocalProjectFiles(project).listing("dangling")
    assert listing.files == () and listing.directories == ()
    assert [p.path for p in listing.problems] == ["dangling"]
    assert "broken symlink" in listing.problems[0].message


class _ScanDenying:
    """os.scandir, except that the given directories raise PermissionError (as root,
    `chmod 000` would not stop the walk)."""

    def __init__(self, *denied: Path) -> None:
        self.denied = {str(path) for path in denied}
        self.scanned: list[str] = []

    def __call__(self, path: str) -> AbstractContextManager[Iterator[os.DirEntry[str]]]:
        self.scanned.append(path)
        if path in self.denied:
            raise PermissionError(13, "Permission denied", path)
        return os.scandir(path)


def test_an_unreadable_directory_is_a_problem_and_the_rest_is_listed(project: Path) -> None:
    scandir = _ScanDenying(project / "pkg" / "sub")
    listing = LocalProjectFiles(project, scandir=scandir).listing("")
    assert listing.problems == (
        ListingProblem(
            "pkg/sub", "pkg/sub could not be read (permission denied); nothing below it is listed"
        ),
    )
    assert listing.directories == ("pkg", "pkg/sub", "tools")
    assert listing.files == ("pkg/__init__.py", "pkg/core.py", "tools/run.py")


def test_an_unreadable_project_directory_is_a_problem(project: Path) -> None:
    listing = LocalProjectFiles(project, scandir=_ScanDenying(project)).listing("")
    assert listing.files == ()
    assert listing.problems == (
        ListingProblem(
            ".",
            "the project directory could not be read (permission denied); "
            "nothing below it is listed",
        ),
    )


def test_skipped_directories_are_not_even_scanned(project: Path) -> None:
    for skipped in (".git", ".tox", "__pycache__", "node_modules", "shop.egg-info"):
        _touch(project / "pkg" / skipped / "x.py")
    _touch(project / "myenv" / "pyvenv.cfg", "home = /usr\n")
    _touch(project / "myenv" / "lib" / "site.py")
    (project / ".linked").symlink_to("pkg")  # a hidden name hides a link too
    scandir = _ScanDenying()
    listing = LocalProjectFiles(project, scandir=scandir).listing("")
    assert listing.files == ("pkg/__init__.py", "pkg/core.py", "pkg/sub/deep.py", "tools/run.py")
    assert listing.directories == ("pkg", "pkg/sub", "tools")
    assert listing.symlinks == ()
    scanned = {Path(p).relative_to(project).as_posix() for p in scandir.scanned}
    # A virtualenv is recognised by its content, so it is scanned once, not descended into.
    assert scanned == {".", "pkg", "pkg/sub", "tools", "myenv"}


def test_paths_that_leave_the_project_are_refused(project: Path) -> None:
    files = LocalProjectFiles(project)
    listing = files.listing("../")
    assert listing.files == ()
    assert [p.path for p in listing.problems] == ["../"]
    with pytest.raises(FileNotFoundError):
        files.read_bytes("../project/pkg/core.py")


@pytest.mark.corpus
def test_listing_django_matches_a_plain_walk(corpora: Path) -> None:
    django = corpora / "big" / "django-6.1.3"
    if not django.is_dir():
        pytest.skip("django corpus missing")
    expected = sorted(
        (Path(folder) / name).relative_to(django).as_posix()
        for folder, dirs, names in os.walk(django)
        for name in names
        if not any(part.startswith(".") for part in Path(folder).relative_to(django).parts)
    )
    listing = LocalProjectFiles(django).listing("")
    assert listing.problems == ()
    assert list(listing.files) == expected
    assert sum(f.endswith(".py") for f in listing.files) > 800
