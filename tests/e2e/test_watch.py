"""`inwards check --watch`: a first check, then only what a save changed; Ctrl-C is exit 0."""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from inwards_cli.commands.check.options import CheckArguments
from inwards_cli.commands.check.watch import run_watch
from tests.e2e.helpers import (
    EXAMPLES,
    NO_USER_CONFIG,
    WAIT,
    inwards_executable,
    read_lines,
    run_inwards,
    until_line,
)


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _watching(shop: Path) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    """`inwards check --watch` started in `shop`, and the lines it prints as they come."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("INWARDS_")}
    environment["XDG_CONFIG_HOME"] = str(NO_USER_CONFIG)
    process = subprocess.Popen(
        [*inwards_executable(), "check", "--watch"],
        cwd=shop,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A runner that starts tests in the background (a shell's `&`) hands its children
        # SIGINT ignored, and Python then never raises KeyboardInterrupt: Ctrl-C as a
        # terminal gives it needs the default disposition.
        preexec_fn=_interruptible,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=read_lines, args=(process.stdout, lines), daemon=True).start()
    return process, lines


def test_a_saved_outward_import_is_printed_and_ctrl_c_is_exit_0(tmp_path: Path) -> None:
    shop = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", shop)
    process, lines = _watching(shop)
    try:
        first = until_line(lines, "Watching")
        assert any(line.startswith("All clear") for line in first)
        pricing = shop / "src/shop/domain/pricing.py"
        edited = pricing.read_text() + "import shop.adapters.outbound\n"
        pricing.write_text(edited)
        # The watcher starts just after it says so: a save before then is saved again.
        changed = until_line(lines, " new, ", poke=lambda: pricing.write_text(edited))
        assert any(
            line.startswith("+ src/shop/domain/pricing.py:") and "INW001" in line
            for line in changed
        )
        assert changed[-1].startswith("2 new, 0 gone. Found 2 errors")
        # The watch keeps one session: a changed configuration rebuilds its setup.
        pyproject = shop / "pyproject.toml"
        ignoring = pyproject.read_text() + '\n[tool.inwards.rules]\nignore = ["INW001"]\n'
        pyproject.write_text(ignoring)
        reloaded = until_line(lines, " new, ", poke=lambda: pyproject.write_text(ignoring))
        assert any(line.startswith("- src/shop/domain/pricing.py:") for line in reloaded)
        assert reloaded[-1].startswith("0 new, 1 gone. Found 1 error")
        # A saved project rule definition rebuilds the setup too: SHOP001 becomes a warning.
        rule = shop / ".inwards" / "rules" / "SHOP001.toml"
        warning = rule.read_text().replace('severity = "error"', 'severity = "warning"')
        rule.write_text(warning)
        redefined = until_line(lines, " new, ", poke=lambda: rule.write_text(warning))
        assert "No errors, 1 warning" in redefined[-1], redefined
        # And a file fixed on disk is read again: the last finding goes.
        original = edited.replace("import shop.adapters.outbound\n", "")
        pricing.write_text(original)
        fixed = until_line(lines, " new, ", poke=lambda: pricing.write_text(original))
        assert fixed[-1].startswith("0 new, 1 gone. All clear"), fixed
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0
    assert "Traceback" not in stderr


def test_after_a_check_the_first_save_is_seen(tmp_path: Path) -> None:
    # The check leaves the memo of its run: the watch's first check is the memo's answer,
    # and the save after it must be read from the disk, not from what that answer hashed.
    shop = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", shop, ignore=shutil.ignore_patterns("cache"))
    before = run_inwards("check", cwd=shop)
    assert before.code == 0, before.stderr
    assert (shop / ".inwards" / "cache").is_dir()
    process, lines = _watching(shop)
    try:
        until_line(lines, "Watching")
        pricing = shop / "src/shop/domain/pricing.py"
        edited = pricing.read_text() + "import shop.adapters.outbound\n"
        pricing.write_text(edited)
        changed = until_line(lines, " new, ", poke=lambda: pricing.write_text(edited))
        assert changed[-1].startswith("2 new, 0 gone. Found 2 errors"), changed
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--format", "json"], "--format json"),
        (["--format", "sarif"], "--format sarif"),
        (["-o", "report.txt"], "--output-file"),
    ],
)
def test_watch_with_a_document_or_a_file_is_a_usage_error(options: list[str], named: str) -> None:
    run = run_inwards("check", "--watch", *options, cwd=EXAMPLES / "shop")
    assert run.code == 2
    assert f"--watch can't be used with {named}" in run.stderr
    assert run.stdout == ""


def test_without_watchfiles_watch_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "watchfiles", None)  # import fails
    with pytest.raises(SystemExit) as stopped:
        run_watch(CheckArguments(output_format="text", watch=True))
    assert stopped.value.code == 2
    assert 'pip install "inwards-lint[watch]"' in capsys.readouterr().err


def test_the_watch_covers_the_rule_roots_and_not_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from inwards_cli.adapters.watched_directories import rule_roots, watched_tree
    from inwards_cli.commands.check.watch import _own_write

    project = tmp_path / "shop"
    (project / ".inwards" / "rules" / "more").mkdir(parents=True)
    (project / ".inwards" / "cache").mkdir(parents=True)
    (project / "src" / "shop").mkdir(parents=True)
    (project / "build" / "lib").mkdir(parents=True)
    config_home = tmp_path / "config"
    (config_home / "inwards" / "rules").mkdir(parents=True)
    org = tmp_path / "org-rules"
    org.mkdir()
    monkeypatch.delenv("INWARDS_USER_RULES_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    monkeypatch.setenv("INWARDS_ORG_RULES_DIR", str(org))
    assert rule_roots(project) == [(config_home / "inwards" / "rules").resolve(), org.resolve()]
    tree = watched_tree(project, {"build"})
    assert tree.directories == tuple(
        sorted(
            str(path)
            for path in (
                project,
                project / ".inwards",
                project / ".inwards" / "rules",
                project / ".inwards" / "rules" / "more",
                project / "src",
                project / "src" / "shop",
                (config_home / "inwards" / "rules").resolve(),
                org.resolve(),
            )
        )
    )
    (project / ".config" / "inwards" / "rules").mkdir(parents=True)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(project / ".config"))  # inside, yet a root
    assert rule_roots(project) == [(project / ".config/inwards/rules").resolve(), org.resolve()]
    assert _own_write(str(project / ".inwards" / "cache" / "rule-roots.json"))
    assert not _own_write(str(project / ".inwards" / "rules" / "SHOP001.toml"))
