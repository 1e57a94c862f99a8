"""The memo of whole-project checks, seen from outside: a warm run of an unchanged tree
prints what a run without the cache prints, any edit is a miss, and `--verify-cache`
redoes the work and names a memo that differs."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.helpers import EXAMPLES, Run, inwards_executable, run_inwards

_DURATIONS = (
    (re.compile(r'"durationMs": ?[0-9.]+'), '"durationMs": 0'),
    (re.compile(r"\([0-9.]+ ms\)"), "(0 ms)"),
)

FORMATS = (
    (),
    ("--format", "json"),
    ("--format", "concise"),
    ("--format", "sarif"),
    ("--format", "github"),
    ("--show-fixes", "--statistics"),
)


def _without_durations(run: Run) -> Run:
    stdout = run.stdout
    for pattern, replacement in _DURATIONS:
        stdout = pattern.sub(replacement, stdout)
    return Run(run.code, stdout, run.stderr)


def _memos(project: Path) -> list[Path]:
    return sorted((project / ".inwards" / "cache").glob("findings-*.json"))


def _memo(project: Path) -> Path:
    """The memo the last run wrote (`inwards baseline` writes one too, for its options;
    an edit of inwards' own code in an editable install starts another)."""
    return max(_memos(project), key=lambda memo: memo.stat().st_mtime_ns)


@pytest.fixture
def project(copy_example):  # type: ignore[no-untyped-def]
    """shop-violations (findings of several rules, frames, suppression comments) with a
    baseline that accepts its findings, and one new finding the baseline doesn't hold."""
    project: Path = copy_example("shop-violations")
    assert run_inwards("baseline", cwd=project).code == 0
    order = project / "src/shop/domain/order.py"
    order.write_text(order.read_text() + "from shop.bootstrap import main\n", encoding="utf-8")
    return project


def _forge(memo: Path) -> None:
    """Change every remembered finding's message, as a party with write access to the
    cache could."""
    document = json.loads(memo.read_text(encoding="utf-8"))
    for finding in document["report"]["findings"]:
        finding[6] = "forged"
    memo.write_text(json.dumps(document), encoding="utf-8")


@pytest.mark.parametrize("options", FORMATS, ids=lambda options: " ".join(options) or "text")
def test_a_remembered_report_prints_as_a_run_without_the_cache(
    project: Path, options: tuple[str, ...]
) -> None:
    cold = _without_durations(run_inwards("check", "--no-cache", *options, cwd=project))
    assert cold.code == 1
    assert "accepted" in run_inwards("check", "--no-cache", cwd=project).stdout
    filled = _without_durations(run_inwards("check", *options, cwd=project))
    memo = _memo(project)
    remembered = _without_durations(run_inwards("check", *options, cwd=project))
    assert filled == cold
    assert remembered == cold
    # The second run took the memo's report: a forged one shows.
    _forge(memo)
    assert "forged" in run_inwards("check", *options, cwd=project).stdout


def test_every_input_change_is_a_miss(project: Path) -> None:
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)

    def check() -> dict[str, object]:
        run = run_inwards("check", "--format", "json", cwd=project)
        assert run.code in (0, 1), run.stderr
        document: dict[str, object] = json.loads(run.stdout)
        document.pop("summary")
        return document

    first = check()
    assert check() == first
    expected = json.loads(cold.stdout)
    expected.pop("summary")
    assert first == expected

    def after(edit: str) -> None:
        fresh = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
        expected = json.loads(fresh.stdout)
        expected.pop("summary")
        assert check() == expected, edit

    order = project / "src/shop/domain/order.py"
    text = order.read_text(encoding="utf-8")
    # Same size, same second: the stamps can't tell, the digest does.
    order.write_text(
        text.replace("from shop.bootstrap import main", "from shop.bootstrap import mian")
    )
    after("a file edited")
    (project / "src/shop/domain/extra.py").write_text("import requests\n", encoding="utf-8")
    after("a file added")
    (project / "src/shop/domain/extra.py").unlink()
    after("a file removed")
    config = project / "pyproject.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(', "shop.kernel"]', "]"), encoding="utf-8")
    after("the configuration edited")  # its INW006 warning is gone
    rules = project / ".inwards" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    shipped = (EXAMPLES / "shop" / ".inwards" / "rules" / "SHOP001.toml").read_text()
    (rules / "SHOP002.toml").write_text(
        shipped.replace("SHOP001", "SHOP002")
        .replace("adapters-wired-in-bootstrap", "domain-from-bootstrap")
        .replace('["shop.adapters.outbound"]', '["shop.domain"]'),
        encoding="utf-8",
    )
    after("a project rule added")  # its findings appear
    assert len(_memos(project)) >= 2  # one per configuration and rule set


def test_verify_cache_redoes_the_run_and_names_a_forged_memo(project: Path) -> None:
    clean = run_inwards("check", cwd=project)
    memo = _memo(project)
    _forge(memo)
    verified = run_inwards("check", "--verify-cache", cwd=project)
    assert verified.code == 2
    assert memo.name in verified.stderr
    assert "findings" in verified.stderr
    # The fresh report replaced the forged one.
    assert _without_durations(run_inwards("check", cwd=project)) == _without_durations(clean)
    verified = run_inwards("check", "--verify-cache", cwd=project)
    assert _without_durations(verified) == _without_durations(clean)


@pytest.mark.parametrize(
    "damage",
    [b"", b"\x00\xff garbage", b'{"format": 1}', b"[" * 100_000, "half"],
    ids=["empty", "garbage", "no-entry", "deep", "truncated"],
)
def test_a_damaged_memo_is_a_miss(project: Path, damage: bytes | str) -> None:
    clean = run_inwards("check", cwd=project)
    memo = _memo(project)
    data = memo.read_bytes()
    memo.write_bytes(data[: len(data) // 2] if damage == "half" else damage)  # type: ignore[arg-type]
    again = run_inwards("check", cwd=project)
    assert _without_durations(again) == _without_durations(clean)
    assert json.loads(memo.read_text(encoding="utf-8"))["format"] == 1  # written whole again


def test_a_memo_through_a_symlink_is_not_followed(project: Path, tmp_path: Path) -> None:
    clean = run_inwards("check", cwd=project)
    memo = _memo(project)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(memo.read_bytes())
    _forge(elsewhere)
    memo.unlink()
    memo.symlink_to(elsewhere)
    again = run_inwards("check", cwd=project)
    assert "forged" not in again.stdout
    assert again.code == clean.code


def test_two_runs_at_once_leave_a_whole_memo(project: Path) -> None:
    clean = run_inwards("check", "--no-cache", cwd=project)
    for memo in _memos(project):
        memo.unlink()
    runs = [
        subprocess.Popen(
            [*inwards_executable(), "check"],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    for stdout, stderr in outputs:
        assert stderr == ""
        assert _without_durations(Run(1, stdout, "")) == _without_durations(
            Run(1, clean.stdout, "")
        )
    memo = _memo(project)
    assert json.loads(memo.read_text(encoding="utf-8"))["format"] == 1
    again = run_inwards("check", cwd=project)
    assert _without_durations(again) == _without_durations(clean)


def test_text_and_json_runs_keep_a_memo_each(project: Path) -> None:
    run_inwards("check", cwd=project)
    text_memo = _memo(project)
    run_inwards("check", "--format", "json", cwd=project)
    assert _memo(project) != text_memo  # frames or not: one memo each
    _forge(text_memo)
    assert "forged" in run_inwards("check", cwd=project).stdout  # still the text run's


def test_a_user_rule_added_is_a_miss(project: Path, tmp_path: Path) -> None:
    home = tmp_path / "config-home"
    (home / "inwards" / "rules").mkdir(parents=True)
    env = {"XDG_CONFIG_HOME": str(home)}
    before = run_inwards("check", cwd=project, env=env)
    assert "SHOP002" not in before.stdout
    assert _without_durations(run_inwards("check", cwd=project, env=env)) == _without_durations(
        before
    )
    shipped = (EXAMPLES / "shop" / ".inwards" / "rules" / "SHOP001.toml").read_text()
    (home / "inwards" / "rules" / "SHOP002.toml").write_text(
        shipped.replace("SHOP001", "SHOP002")
        .replace("adapters-wired-in-bootstrap", "domain-from-bootstrap")
        .replace('["shop.adapters.outbound"]', '["shop.domain"]'),
        encoding="utf-8",
    )
    after = run_inwards("check", cwd=project, env=env)
    cold = run_inwards("check", "--no-cache", cwd=project, env=env)
    assert "SHOP002" in after.stdout
    assert _without_durations(after) == _without_durations(cold)


def test_a_diagram_edit_is_a_miss(tmp_path: Path) -> None:
    """Diagram files live outside `root` and are not Python: the memo keys on them too,
    when a diagram rule is on."""
    from tests.e2e.helpers import write_tree
    from tests.e2e.test_optin_diagrams import FILES, ON, PYPROJECT

    write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})

    def check() -> list[dict[str, object]]:
        run = run_inwards("check", "--format", "json", cwd=tmp_path)
        assert run.code == 0, run.stderr
        cold = run_inwards("check", "--no-cache", "--format", "json", cwd=tmp_path)
        found: list[dict[str, object]] = json.loads(run.stdout)["diagnostics"]
        assert found == json.loads(cold.stdout)["diagnostics"]
        return found

    first = check()
    assert check() == first  # remembered
    diagram = tmp_path / "docs/architecture.md"
    diagram.write_text(
        diagram.read_text(encoding="utf-8").replace("shop.aplication", "shop.application"),
        encoding="utf-8",
    )
    edited = check()
    assert len(edited) == len(first) - 1
    (tmp_path / "docs/missing.md").write_text("no diagram here\n", encoding="utf-8")
    added = check()
    assert [d["message"] for d in added if d["file"] == "pyproject.toml"] == [
        'The diagrams entry "docs/missing.md" matches "docs/missing.md", and none holds a '
        'diagram marked "inwards: layers" or "inwards: contexts".'
    ]
