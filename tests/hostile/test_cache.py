"""The cache: nothing in `.inwards/cache` can change a verdict unseen.

Each extraction entry records the key it was made for and each parsed rule table the
sha256 of the bytes it was parsed from, so an entry moved under another name is a miss;
the rule-set fingerprint covers the tables in force; `check --verify-cache` re-derives
everything it read from the cache and fails (exit 2, naming the entry) on a difference;
a FIFO or a device in a cache file's place is a miss, never waited on; nothing is read or
written through a symlinked `.inwards`; and a run killed while writing never leaves a
truncated pack.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import stat
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable
from tests.hostile.harness import Budget, LimitedRun, layered_project, run_limited

BUDGET = Budget(seconds=15, memory_mb=1024)
VIOLATION = {
    "src/shop/domain/model.py": "import shop.adapters.db\n",
    "src/shop/domain/clean.py": "import os\n",
    "src/shop/adapters/db.py": "",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """One layer violation (exit 1), with a warm cache."""
    root = layered_project(tmp_path / "project", VIOLATION)
    assert run("check", cwd=root).code == 1
    return root


def run(*args: str, cwd: Path) -> LimitedRun:
    return run_limited(*args, cwd=cwd, budget=BUDGET)


def cache_dir(project: Path) -> Path:
    return project / ".inwards" / "cache"


def pack_of(project: Path) -> Path:
    (pack,) = cache_dir(project).glob("extraction-*/facts.json")
    return pack


def memos_of(project: Path) -> list[Path]:
    return sorted(cache_dir(project).glob("findings-*.json"))


def forget_memos(project: Path) -> None:
    """Remove the remembered reports: a run of the unchanged tree would take one and read
    neither the pack nor the files, while these tests are about the pack."""
    for memo in memos_of(project):
        memo.unlink()


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    document = json.loads(path.read_bytes())
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


def entry_names(document: Any) -> dict[str, str]:
    """Module name -> its entry's name in the pack."""
    return {entry["key"][1]: name for name, entry in document["entries"].items()}


def fingerprint(project: Path) -> str:
    done = run("check", "--format", "json", cwd=project)
    assert done.code in (0, 1), done.stderr
    return str(json.loads(done.stdout)["ruleSet"]["fingerprint"])


# -- extraction entries ----------------------------------------------------------------


def test_an_entry_copied_under_another_files_name_is_a_miss(project: Path) -> None:
    def copy_clean_over_model(document: Any) -> None:
        names = entry_names(document)
        clean = document["entries"][names["shop.domain.clean"]]
        document["entries"][names["shop.domain.model"]] = clean

    edit_json(pack_of(project), copy_clean_over_model)
    done = run("check", cwd=project)
    assert done.code == 1, done.output
    assert "INW001" in done.stdout and "src/shop/domain/model.py" in done.stdout


def test_verify_cache_names_a_file_whose_cached_facts_were_swapped(project: Path) -> None:
    def swap_facts(document: Any) -> None:
        names = entry_names(document)
        entries = document["entries"]
        entries[names["shop.domain.model"]]["facts"] = entries[names["shop.domain.clean"]]["facts"]

    edit_json(pack_of(project), swap_facts)
    forget_memos(project)
    # The key still matches, so only re-deriving the facts can tell: without the flag the
    # forged facts stand (which is why a cache must come from a run you trust).
    assert run("check", cwd=project).code == 0
    verified = run("check", "--verify-cache", cwd=project)
    assert verified.code == 2, verified.output
    assert verified.stdout == ""
    assert verified.stderr.startswith(
        "cache error: 1 cached entry differs from what it was made from (--verify-cache):\n"
        "  src/shop/domain/model.py: imports: the cache holds 1, the file 1; the cache has "
        'line 1 "import os" where the file has line 1 "import shop.adapters.db"\n'
    )
    # The entry now holds what the file gives: the next run is right even unverified.
    assert run("check", cwd=project).code == 1
    assert run("check", "--no-cache", cwd=project).code == 1


def test_verify_cache_on_a_sound_cache_changes_nothing(project: Path) -> None:
    plain = run("check", "--format", "json", cwd=project)
    verified = run("check", "--format", "json", "--verify-cache", cwd=project)
    assert (verified.code, verified.stderr) == (plain.code, plain.stderr) == (1, "")

    def without_duration(text: str) -> Any:
        document = json.loads(text)
        del document["summary"]["durationMs"]
        return document

    assert without_duration(verified.stdout) == without_duration(plain.stdout)


def test_verify_cache_with_no_cache_reads_and_writes_nothing(tmp_path: Path) -> None:
    root = layered_project(tmp_path / "project", VIOLATION)
    done = run("check", "--verify-cache", "--no-cache", cwd=root)
    assert done.code == 1, done.output
    assert not cache_dir(root).exists()


# -- parsed rule tables ------------------------------------------------------------------


def manifest_of(project: Path) -> Path:
    return cache_dir(project) / "rule-roots.json"


def tables_by_code(document: Any) -> dict[str, str]:
    return {entry["table"]["code"]: sha for sha, entry in document["tables"].items()}


def test_an_edited_rule_table_changes_the_fingerprint_and_fails_verification(
    project: Path,
) -> None:
    clean = fingerprint(project)

    def opt_out(document: Any) -> None:
        sha = tables_by_code(document)["INW001"]
        document["tables"][sha]["table"]["default"] = "opt-in"

    edit_json(manifest_of(project), opt_out)
    forged = run("check", "--format", "json", cwd=project)
    assert forged.code == 0  # the forged table turned INW001 off...
    assert json.loads(forged.stdout)["ruleSet"]["fingerprint"] != clean  # ...visibly
    edit_json(manifest_of(project), opt_out)  # that run kept the forged table in use
    verified = run("check", "--verify-cache", cwd=project)
    assert verified.code == 2, verified.output
    assert verified.stdout == ""
    lines = verified.stderr.splitlines()
    assert lines[0] == (
        "cache error: 1 cached entry differs from what it was made from (--verify-cache):"
    )
    assert lines[1].endswith(
        '/INW001.toml: default: the cache has "opt-in", the definition "on"'
    ), lines
    assert run("check", cwd=project).code == 1  # the table was replaced by the parsed one
    assert fingerprint(project) == clean


def test_a_rule_table_moved_under_another_definitions_sha256_is_a_miss(project: Path) -> None:
    def move(document: Any) -> None:
        shas = tables_by_code(document)
        document["tables"][shas["INW001"]] = document["tables"][shas["INW005"]]

    clean = fingerprint(project)
    edit_json(manifest_of(project), move)
    done = run("check", "--format", "json", cwd=project)
    assert done.code == 1, done.output
    assert json.loads(done.stdout)["ruleSet"]["fingerprint"] == clean


# -- what is not a regular file --------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_fifos_in_place_of_every_cache_file_are_misses_and_nothing_hangs(project: Path) -> None:
    cache_files = [
        pack_of(project),
        manifest_of(project),
        cache_dir(project) / "CACHEDIR.TAG",
        cache_dir(project) / ".gitignore",
        *memos_of(project),
    ]
    for path in cache_files:
        path.unlink()
        os.mkfifo(path)
    status = run("status", cwd=project)
    assert status.code == 0, status.output
    done = run("check", cwd=project)
    assert done.code == 1, done.output
    assert "INW001" in done.stdout and done.stderr == ""
    for path in cache_files:  # each replaced by the file it should be
        assert stat.S_ISREG(os.lstat(path).st_mode), path
    assert run("check", "--verify-cache", cwd=project).code == 1


def test_a_device_or_directory_in_place_of_the_pack_is_a_miss(project: Path) -> None:
    pack = pack_of(project)
    pack.unlink()
    try:
        os.mknod(pack, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # a twin of /dev/zero
    except PermissionError:
        pytest.skip("making a device node needs root")
    forget_memos(project)
    done = run("check", cwd=project)
    assert done.code == 1 and done.stderr == "", done.output
    assert stat.S_ISREG(os.lstat(pack).st_mode)
    pack.unlink()
    pack.mkdir()
    forget_memos(project)
    done = run("check", cwd=project)
    assert done.code == 1, done.output
    assert done.stderr.startswith("warning: the extraction cache was not saved: ")
    assert done.stderr.count("\n") == 1


# -- symlinks ------------------------------------------------------------------------------


@pytest.mark.parametrize("linked", [".inwards", ".inwards/cache", "namespace"])
def test_nothing_is_written_through_a_symlinked_cache_directory(
    tmp_path: Path, linked: str
) -> None:
    root = layered_project(tmp_path / "project", VIOLATION)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if linked == "namespace":
        assert run("check", cwd=root).code == 1
        folder = pack_of(root).parent
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
        folder.symlink_to(elsewhere)
        (cache_dir(root) / "rule-roots.json").unlink()
        forget_memos(root)
    else:
        (root / linked).parent.mkdir(parents=True, exist_ok=True)
        (root / linked).symlink_to(elsewhere)
    if linked == ".inwards":  # a cache folder where the link leads, ready to write into
        (elsewhere / "cache").mkdir()
    before = sorted(elsewhere.rglob("*"))
    done = run("check", cwd=root)
    assert done.code == 1, done.output
    assert sorted(elsewhere.rglob("*")) == before
    (warning,) = done.stderr.splitlines()
    assert warning.startswith("warning: the extraction cache is not used: ")
    assert warning.endswith(" is a symlink, and the cache follows none")
    if linked == "namespace":  # the manifest beside the link, in a real directory, is fine
        assert stat.S_ISREG(os.lstat(cache_dir(root) / "rule-roots.json").st_mode)
    status = run("status", cwd=root)
    assert status.code == 0 and sorted(elsewhere.rglob("*")) == before


# -- kill -9 while writing -----------------------------------------------------------------


def whole_or_absent(root: Path) -> None:
    for pack in cache_dir(root).glob("extraction-*/facts.json"):
        assert json.loads(pack.read_bytes())["format"] == 2  # never cut short
    if manifest_of(root).exists():
        json.loads(manifest_of(root).read_bytes())


MANY_MODULES = {
    f"src/shop/domain/m{n}.py": f"import os\nimport json\nX = {n}\n" for n in range(400)
}


def test_a_run_killed_at_any_moment_never_leaves_a_truncated_pack(tmp_path: Path) -> None:
    root = layered_project(tmp_path / "project", MANY_MODULES)
    assert run("check", cwd=root).code == 0
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    # A warm run here takes about 0.25 s and writes its pack at the end: the kills land
    # before, around and after that write.
    for round_number, delay in enumerate((0.1, 0.15, 0.2, 0.25, 0.3, 0.35)):
        edited = root / "src/shop/domain/m0.py"
        edited.write_text(f"import os\nY = {round_number}\n", encoding="utf-8")  # a write due
        process = subprocess.Popen(
            [*inwards_executable(), "check"],
            cwd=root,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        time.sleep(delay)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        whole_or_absent(root)
    done = run("check", cwd=root)
    assert done.code == 0 and done.stderr == "", done.output


def test_a_pack_write_cut_short_by_a_file_size_limit_leaves_the_old_pack(tmp_path: Path) -> None:
    root = layered_project(tmp_path / "project", MANY_MODULES)
    assert run("check", cwd=root).code == 0
    before = pack_of(root).read_bytes()
    assert len(before) > 100_000
    (root / "src/shop/domain/m0.py").write_text("import sys\n", encoding="utf-8")
    limit = 64 * 1024  # room for the manifest and the markers, not for the pack
    done = run_limited(
        "check",
        cwd=root,
        budget=BUDGET,
        env={"PYTHONDONTWRITEBYTECODE": "1"},
        limits={resource.RLIMIT_FSIZE: (limit, limit)},
    )
    assert done.code == 0, done.output
    (warning,) = done.stderr.splitlines()
    assert warning.startswith("warning: the extraction cache was not saved: ")
    assert pack_of(root).read_bytes() == before
    assert [p.name for p in pack_of(root).parent.iterdir()] == ["facts.json"]  # no temp left
