"""The memo of whole-project checks and the files' stamps, as units: what they keep, what
they refuse, and what a run with them returns."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import attrs
import pytest

from inwards_cli.adapters.file_stamps import (
    RACY_SECONDS,
    STAMPS_NAME,
    FileStamps,
    StampedProjectFiles,
)
from inwards_cli.adapters.run_memo import MAX_MEMOS, DiskRunMemo, code_fingerprint
from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import load_config_text, load_rules, prepare
from inwards_core.engine import Ports, RunOptions, check_project
from inwards_core.model.findings import (
    ChainStep,
    Finding,
    Fix,
    NotChecked,
    Report,
    RootKind,
    Severity,
    Span,
    SuppressedFinding,
)
from inwards_core.model.report_data import report_from_data, report_to_data
from inwards_core.model.source_lines import SourceLine
from inwards_core.ports import RunMemo
from inwards_core.verification import CachedFactsDiffer


def _finding(code: str, file: str, line: int, **changes: object) -> Finding:
    fields: dict[str, object] = {
        "code": code,
        "rule": "some-rule",
        "severity": Severity.ERROR,
        "file": file,
        "module": "shop.domain.order",
        "span": Span(line, 1, line, 9),
        "message": f"{code} at line {line} \u202e\udcff",
        "fix": Fix("do it", ("one", "two")),
        "docs": "inwards rule " + code,
    }
    fields.update(changes)
    return Finding(**fields)  # type: ignore[arg-type]


REPORT = Report(
    findings=(
        _finding(
            "INW004",
            "src/a.py",
            3,
            chain=(
                ChainStep("shop.a", "shop.b", "src/a.py", Span(3, 6, 3, 12)),
                ChainStep("shop.b", "shop.a", "src/b.py", Span(1, 8, 1, 14)),
            ),
        ),
        _finding("INW006", "pyproject.toml", 9, module=None, whole_project=True),
        _finding(
            "ACME001",
            "src/b.py",
            1,
            severity=Severity.WARNING,
            origin=RootKind.PROJECT,
            suppressible=False,
            stable_message="stable",
            fix=Fix("nothing"),
        ),
    ),
    files_checked=17,
    suppressed=(SuppressedFinding(_finding("INW005", "src/c.py", 2), "kept for now"),),
    not_checked=(NotChecked("src/x.py", "src/x.py could not be read."),),
    whole_project=True,
    duration_ms=12.5,
    notes=("a note",),
    source_lines=(SourceLine("src/a.py", 3, 1, "import x", 0, 8),),
)


def test_a_report_survives_its_data_exactly() -> None:
    back = report_from_data(json.loads(json.dumps(report_to_data(REPORT))))
    assert back == attrs.evolve(REPORT, duration_ms=0.0)  # a run's duration is its own
    assert back.source_lines == REPORT.source_lines  # not part of a report's equality
    # Nor is a finding's chain: compared on its own.
    assert [f.chain for f in back.findings] == [f.chain for f in REPORT.findings]
    assert back.findings[0].chain


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("findings"),
        lambda d: d.__setitem__("files_checked", True),
        lambda d: d["findings"][0].__setitem__(2, "fatal"),
        lambda d: d["findings"][0].pop(),
        lambda d: d["findings"][0][5].__setitem__(0, "3"),
        lambda d: d["findings"][0][14][0].__setitem__(3, [1, 2]),
        lambda d: d["suppressed"][0].append("more"),
        lambda d: d["source_lines"][0].__setitem__(3, None),
        lambda d: d.__setitem__("notes", "a note"),
    ],
)
def test_a_damaged_report_is_refused(damage) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(json.dumps(report_to_data(REPORT)))
    damage(data)
    with pytest.raises(ValueError):
        report_from_data(data)


def test_the_memo_keeps_one_report_per_context(tmp_path: Path) -> None:
    memo = DiskRunMemo(tmp_path, "context", "extractor")
    assert memo.recall("inputs") is None
    memo.keep("inputs", REPORT)
    # Whoever writes first tags the cache folder and keeps it out of git.
    assert (tmp_path / "CACHEDIR.TAG").is_file() and (tmp_path / ".gitignore").is_file()
    assert memo.recall("inputs") == report_from_data(report_to_data(REPORT))
    assert memo.recall("other inputs") is None
    assert DiskRunMemo(tmp_path, "context", "another extractor").recall("inputs") is None
    assert DiskRunMemo(tmp_path, "another context", "extractor").recall("inputs") is None
    (path,) = tmp_path.glob("findings-*.json")
    assert memo.entry_name == f".inwards/cache/{path.name}"
    path.write_bytes(path.read_bytes()[:100])
    assert memo.recall("inputs") is None


def test_a_report_with_the_baseline_applied_is_not_kept(tmp_path: Path) -> None:
    memo = DiskRunMemo(tmp_path, "context", "extractor")
    memo.keep("inputs", Report(findings=(), files_checked=1, baseline_file="b.json"))
    assert memo.recall("inputs") is None


def test_old_memos_are_forgotten(tmp_path: Path) -> None:
    for number in range(MAX_MEMOS + 3):
        DiskRunMemo(tmp_path, f"context {number}", "extractor").keep("inputs", REPORT)
        time.sleep(0.002)
    assert len(list(tmp_path.glob("findings-*.json"))) == MAX_MEMOS
    assert DiskRunMemo(tmp_path, f"context {MAX_MEMOS + 2}", "extractor").recall("inputs")
    assert DiskRunMemo(tmp_path, "context 0", "extractor").recall("inputs") is None


def _later() -> int:
    """A clock well after the files were written (their change time can't be set back,
    so the clock is moved on instead)."""
    return time.time_ns() + 10 * RACY_SECONDS * 10**9


def test_temp_files_left_by_a_crash_are_removed_after_an_hour(tmp_path: Path) -> None:
    old = [tmp_path / "findings-0123456789abcdef.json.1.ab.tmp", tmp_path / "stamps.json.2.cd.tmp"]
    young = tmp_path / "stamps.json.3.ef.tmp"
    for path in (*old, young):
        path.write_bytes(b"half")
    for path in old:
        os.utime(path, (time.time() - 7200, time.time() - 7200))
    DiskRunMemo(tmp_path, "context", "extractor").keep("inputs", REPORT)
    assert not any(path.exists() for path in old)
    assert young.exists()  # it may belong to a run going on


def _old(path: Path) -> None:
    past = time.time() - 10 * RACY_SECONDS
    os.utime(path, (past, past))


def _project(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    source = project / "src" / "a.py"
    source.write_text("import os\n", encoding="utf-8")
    return project, source


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_stable_file_is_digested_once_and_then_known_by_its_stat(tmp_path: Path) -> None:
    project, source = _project(tmp_path)
    cache = project / ".inwards" / "cache"
    _old(source)
    files = StampedProjectFiles(project, FileStamps(cache), clock=_later)
    assert files.digest("src/a.py") == _sha(b"import os\n")
    assert files.read_bytes("src/a.py") == b"import os\n"  # the bytes it read, once
    files.stamps.flush()
    assert (cache / STAMPS_NAME).is_file()
    again = FileStamps(cache)
    assert again.recorded("src/a.py", os.stat(source)) == _sha(b"import os\n")


def test_bytes_kept_from_a_digest_are_not_read_once_the_file_changed(tmp_path: Path) -> None:
    # A run the memo answered hashes files without reading them afterwards: the next run
    # of the same session (--watch, a server) must read the file as it is by then.
    project, source = _project(tmp_path)
    files = StampedProjectFiles(project, FileStamps(project / ".inwards" / "cache"))
    assert files.digest("src/a.py") == _sha(b"import os\n")  # its bytes are kept
    source.write_bytes(b"import os\nimport shop.adapters\n")
    assert files.read_bytes("src/a.py") == b"import os\nimport shop.adapters\n"
    files.digest("src/a.py")
    assert files.read_bytes("src/a.py") == b"import os\nimport shop.adapters\n"


def test_a_file_changed_within_the_racy_window_is_not_recorded(tmp_path: Path) -> None:
    project, source = _project(tmp_path)
    cache = project / ".inwards" / "cache"
    files = StampedProjectFiles(project, FileStamps(cache))
    files.digest("src/a.py")  # written just now
    files.stamps.flush()
    assert FileStamps(cache).recorded("src/a.py", os.stat(source)) is None


def test_a_same_size_edit_with_the_old_mtime_is_seen(tmp_path: Path) -> None:
    project, source = _project(tmp_path)
    cache = project / ".inwards" / "cache"
    _old(source)
    files = StampedProjectFiles(project, FileStamps(cache), clock=_later)
    files.digest("src/a.py")
    files.stamps.flush()
    before = os.stat(source)
    source.write_text("import re\n", encoding="utf-8")  # same size
    os.utime(source, ns=(before.st_atime_ns, before.st_mtime_ns))  # mtime set back
    fresh = StampedProjectFiles(project, FileStamps(cache), clock=_later)
    if os.name != "nt":  # the change time tells it; Windows has none to tell
        assert fresh.digest("src/a.py") == _sha(b"import re\n")


def test_a_forged_stamp_is_used_and_verify_names_it(tmp_path: Path) -> None:
    project, source = _project(tmp_path)
    cache = project / ".inwards" / "cache"
    _old(source)
    files = StampedProjectFiles(project, FileStamps(cache), clock=_later)
    files.digest("src/a.py")
    files.stamps.flush()
    stamps = cache / STAMPS_NAME
    document = json.loads(stamps.read_text(encoding="utf-8"))
    document["entries"]["src/a.py"][5] = "0" * 64
    stamps.write_text(json.dumps(document), encoding="utf-8")
    assert (
        StampedProjectFiles(project, FileStamps(cache), clock=_later).digest("src/a.py") == "0" * 64
    )
    verifying = StampedProjectFiles(project, FileStamps(cache), verify=True, clock=_later)
    assert verifying.digest("src/a.py") == _sha(b"import os\n")
    (mismatch,) = verifying.mismatches
    assert mismatch.entry == "src/a.py"
    verifying.stamps.flush()  # corrected
    assert StampedProjectFiles(project, FileStamps(cache), clock=_later).digest("src/a.py") == _sha(
        b"import os\n"
    )


@pytest.mark.parametrize(
    "damage", [b"", b"garbage", b'{"format": 1, "entries": []}', b"[" * 100_000]
)
def test_damaged_stamps_are_ignored(tmp_path: Path, damage: bytes) -> None:
    project, _ = _project(tmp_path)
    cache = project / ".inwards" / "cache"
    cache.mkdir(parents=True)
    (cache / STAMPS_NAME).write_bytes(damage)
    files = StampedProjectFiles(project, FileStamps(cache), clock=_later)
    assert files.digest("src/a.py") == _sha(b"import os\n")


def test_stamps_are_not_rewritten_by_a_run_that_asked_for_no_digest(tmp_path: Path) -> None:
    project, source = _project(tmp_path)
    cache = project / ".inwards" / "cache"
    _old(source)
    files = StampedProjectFiles(project, FileStamps(cache), clock=_later)
    files.digest("src/a.py")
    files.stamps.flush()
    written = (cache / STAMPS_NAME).read_bytes()
    FileStamps(cache).flush()
    assert (cache / STAMPS_NAME).read_bytes() == written


# -- the engine with a memo -------------------------------------------------------------

PYPROJECT = """\
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""

SOURCES = {
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/adapters/__init__.py": "",
    "src/shop/domain/model.py": "import shop.adapters\n",
    "src/shop/domain/clean.py": "import os\n",
}


class _DictMemo(RunMemo):
    def __init__(self) -> None:
        self.kept: dict[str, Report] = {}

    def recall(self, inputs: str) -> Report | None:
        return self.kept.get(inputs)

    def keep(self, inputs: str, report: Report) -> None:
        self.kept[inputs] = report

    def forget(self) -> None:
        self.kept.clear()

    @property
    def entry_name(self) -> str:
        return "the memo"


class _CountingFiles(InMemoryProjectFiles):
    def __init__(self, files: dict[str, str]) -> None:
        super().__init__(files)
        self.reads = 0

    def read_bytes(self, path: str) -> bytes:
        self.reads += 1
        return super().read_bytes(path)


def _check(memo: RunMemo, files: InMemoryProjectFiles, *, verify: bool = False) -> Report:
    prepared = prepare(load_config_text(PYPROJECT), load_rules())
    return check_project(
        prepared.config,
        prepared.rules,
        Ports(files, DictExtractionCache(), StandardGrammars(), memo=memo),
        RunOptions(verify_cache=verify, source_lines=True),
    )


def _timeless(report: Report) -> Report:
    return attrs.evolve(report, duration_ms=0.0)


def test_the_engine_answers_an_unchanged_tree_from_its_memo() -> None:
    memo = _DictMemo()
    first = _check(memo, _CountingFiles(SOURCES))
    assert first.findings and len(memo.kept) == 1
    files = _CountingFiles(SOURCES)
    files.digest = lambda path: hashlib.sha256(files._files[path]).hexdigest()  # type: ignore[method-assign]
    again = _check(memo, files)
    assert files.reads == 0
    assert _timeless(again) == _timeless(first)
    assert again.source_lines == first.source_lines


def test_any_edit_is_a_new_run() -> None:
    memo = _DictMemo()
    first = _check(memo, InMemoryProjectFiles(SOURCES))
    edited = _check(memo, InMemoryProjectFiles({**SOURCES, "src/shop/domain/model.py": "\n"}))
    assert first.findings and not edited.findings
    added = _check(
        memo, InMemoryProjectFiles({**SOURCES, "src/shop/domain/x.py": "import shop.adapters\n"})
    )
    assert len(added.findings) == 2
    assert len(memo.kept) == 3


def test_verify_redoes_the_run_and_replaces_a_forged_memo() -> None:
    memo = _DictMemo()
    first = _check(memo, InMemoryProjectFiles(SOURCES))
    (inputs,) = memo.kept
    memo.kept[inputs] = attrs.evolve(first, findings=())
    assert _check(memo, InMemoryProjectFiles(SOURCES)).findings == ()  # trusted as it is
    with pytest.raises(CachedFactsDiffer) as raised:
        _check(memo, InMemoryProjectFiles(SOURCES), verify=True)
    (mismatch,) = raised.value.mismatches
    assert mismatch.entry == "the memo"
    assert "findings" in mismatch.difference
    assert _timeless(_check(memo, InMemoryProjectFiles(SOURCES))) == _timeless(first)


def test_a_run_that_could_not_read_a_file_is_not_remembered() -> None:
    class Unreadable(InMemoryProjectFiles):
        def read_bytes(self, path: str) -> bytes:
            if path.endswith("clean.py"):
                raise PermissionError(13, "denied", path)
            return super().read_bytes(path)

    memo = _DictMemo()
    _check(memo, Unreadable(SOURCES))
    assert memo.kept == {}


def test_a_run_that_met_a_file_edited_since_its_digest_is_not_remembered() -> None:
    class Edited(InMemoryProjectFiles):
        def digest(self, path: str) -> str:
            if path.endswith("clean.py"):
                return _sha(b"import re\n")  # what a stamp said before the edit
            return _sha(self.read_bytes(path))

    memo = _DictMemo()
    _check(memo, Edited(SOURCES))
    assert memo.kept == {}


def test_the_code_fingerprint_follows_the_files_of_a_package_or_a_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "fampkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "kind.py").write_text("x = 1\n", encoding="utf-8")
    module = tmp_path / "fammod.py"
    module.write_text("y = 1\n", encoding="utf-8")
    (tmp_path / "unrelated.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fammod  # type: ignore[import-not-found]  # noqa: F401
    import fampkg  # type: ignore[import-not-found]  # noqa: F401

    before = code_fingerprint(["fampkg", "fammod"])
    (tmp_path / "unrelated.py").write_text("changed = True\n", encoding="utf-8")
    assert code_fingerprint(["fampkg", "fammod"]) == before  # not walked: not the module's
    (package / "kind.py").write_text("x = 22\n", encoding="utf-8")
    after_package = code_fingerprint(["fampkg", "fammod"])
    assert after_package != before
    module.write_text("y = 22\n", encoding="utf-8")
    assert code_fingerprint(["fampkg", "fammod"]) != after_package
