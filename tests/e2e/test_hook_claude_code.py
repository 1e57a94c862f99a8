"""`inwards hook claude-code` end to end: payloads shaped as Claude Code's hooks reference
documents them (tests/fixtures/claude-code/) on the standard input of the installed command,
in a copy of the example shop, asserting exit statuses, standard output and standard error.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from inwards_cli.agents.claude_code import open_hook_session, run_hook
from inwards_cli.agents.state import session_stem
from tests.e2e.claude_code import (
    SETTINGS,
    Hook,
    blocked_diagnostics,
    context_of,
    payload,
    shop_project,
)

ORDER = "src/shop/domain/order.py"
VIOLATION = "from shop.adapters.outbound.sql_orders import SqlOrders\n"
SESSION = "6f1c3a52-94d0-4b7e-8a21-5c0e9b7d3f18"


def _state(hook: Hook) -> Path:
    return hook.project / ".inwards" / "state"


def _start_record(hook: Hook) -> dict[str, object]:
    document: dict[str, object] = json.loads(
        (_state(hook) / f"{session_stem(SESSION)}.start.json").read_text()
    )
    return document


def _log(hook: Hook) -> list[dict[str, object]]:
    text = (_state(hook) / f"{session_stem(SESSION)}.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _append(hook: Hook, path: str, text: str) -> None:
    with (hook.project / path).open("a", encoding="utf-8") as stream:
        stream.write(text)


def _edited(hook: Hook, path: str = ORDER, **changes: object) -> dict[str, object]:
    """The PostToolUse payload of an Edit of `path` (already made on disk)."""
    return payload(
        "post-tool-use-edit",
        hook.project,
        tool_input={"file_path": str(hook.project / path)},
        **changes,
    )


# -- SessionStart -------------------------------------------------------------------------


def test_session_start_records_the_start_and_hands_over_the_brief(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    run = hook.send("session-start")
    context = context_of(run)
    assert run.stderr == ""
    assert context.startswith("## Architecture brief (inwards)")
    assert "1. **domain** (`shop.domain`): imports no other layer." in context
    assert "## How inwards checks this session" in context
    assert "After 3 blocks for the same finding" in context
    state = _state(hook)
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    for child in state.iterdir():
        assert stat.S_IMODE(child.stat().st_mode) == 0o600, child
    record = _start_record(hook)
    assert record["schema"] == "inwards/agent-session-start@1"
    assert record["config"]["root"] == "src"  # type: ignore[index]
    files = record["files"]
    assert isinstance(files, dict) and ORDER in files and len(files) == 14
    assert record["hooks"] == {
        "events": ["PostToolUse", "PreToolUse", "SessionStart", "Stop"],
        "disabled": False,
    }
    assert set(record["ruleRoots"]) == {"core", "org", "user", "project"}  # type: ignore[arg-type]
    assert _log(hook)[-1]["event"] == "SessionStart"


def test_a_resumed_or_compacted_session_keeps_its_start(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    before = (_state(hook) / f"{SESSION}.start.json").read_bytes()
    _append(hook, ORDER, VIOLATION)
    for source in ("resume", "compact"):
        assert "Architecture brief" in context_of(hook.send("session-start", source=source))
    assert (_state(hook) / f"{SESSION}.start.json").read_bytes() == before
    assert blocked_diagnostics(hook(_edited(hook)))["summary"]["violations"] == 2


def test_without_a_configuration_the_hooks_say_nothing(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    (hook.project / "pyproject.toml").write_text('[project]\nname = "shop"\n')
    for name in ("session-start", "pre-tool-use-edit", "post-tool-use-edit", "stop"):
        run = hook.send(name)
        assert (run.code, run.stdout, run.stderr) == (0, "", ""), name
    assert not _state(hook).exists()


# -- PostToolUse --------------------------------------------------------------------------


def test_a_new_violation_blocks_with_the_compact_diagnostics(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    _append(hook, ORDER, VIOLATION)
    run = hook.send("post-tool-use-edit")
    document = blocked_diagnostics(run)
    assert len(run.stderr.strip().splitlines()) == 1  # one compact line
    assert [(d["code"], d["file"], d["line"]) for d in document["diagnostics"]] == [
        ("INW001", ORDER, 28),
        ("SHOP001", ORDER, 28),
    ]
    assert document["summary"]["durationMs"] == 0.0
    assert [d["origin"] for d in document["diagnostics"]] == ["core", "project"]
    entry = _log(hook)[-1]
    assert entry["event"] == "PostToolUse" and entry["blocked"] is True
    assert entry["file"] == ORDER and entry["linesAdded"] == 1
    rules = entry["rules"]
    assert isinstance(rules, dict) and sorted(rules) == entry["new"]
    assert sorted((v["code"], v["origin"]) for v in rules.values()) == [
        ("INW001", "core"),
        ("SHOP001", "project"),
    ]


def test_violations_there_at_the_start_are_context_not_a_block(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    _append(hook, ORDER, VIOLATION)  # before the session
    hook.send("session-start")
    _append(hook, ORDER, "\n\ndef later() -> None:\n    pass\n")
    context = context_of(hook.send("post-tool-use-edit"))
    assert context.startswith(f"inwards: {ORDER} has no new errors.")
    assert f"- {ORDER}:28:47: INW001 " in context
    # A second copy of the same import is one more than the start had: it blocks.
    _append(hook, ORDER, "from shop.adapters.outbound import sql_orders\n")
    document = blocked_diagnostics(hook.send("post-tool-use-edit"))
    assert [d["line"] for d in document["diagnostics"]] == [33, 33]
    assert document["notes"] == [
        "2 other errors of this file were there when the session started; they don't block."
    ]


def test_a_multi_edit_is_checked_as_its_file_now_is(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    use_case = "src/shop/application/place_order.py"
    _append(hook, use_case, "from shop.adapters.inbound.cli import run\n")
    document = blocked_diagnostics(hook.send("post-tool-use-multiedit"))
    assert [(d["code"], d["file"]) for d in document["diagnostics"]] == [("INW001", use_case)]
    assert _log(hook)[-1]["tool"] == "MultiEdit"


def test_an_edit_through_a_link_is_checked_under_both_names(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    (hook.project / "src/shop/domain/alias.py").symlink_to("order.py")
    hook.send("session-start")
    _append(hook, ORDER, VIOLATION)
    alias = str(hook.project / "src/shop/domain/alias.py")
    edit = payload("post-tool-use-edit", hook.project, tool_input={"file_path": alias})
    document = blocked_diagnostics(hook(edit))
    assert sorted({(d["code"], d["file"]) for d in document["diagnostics"]}) == [
        ("INW001", "src/shop/domain/alias.py"),
        ("INW001", ORDER),
        ("SHOP001", "src/shop/domain/alias.py"),
        ("SHOP001", ORDER),
    ]


def test_warnings_only_are_context(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    pyproject = hook.project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text() + '\n[tool.inwards.rules]\nseverity = { SHOP001 = "warning" }\n'
    )
    hook.send("session-start")
    adapters = "src/shop/adapters/__init__.py"
    _append(hook, adapters, "from shop.adapters.outbound import sql_orders\n")
    context = context_of(hook(_edited(hook, adapters)))
    assert "SHOP001 (warning)" in context
    assert _log(hook)[-1]["blocked"] is False


def test_a_fixed_edit_is_quiet_and_other_files_are_not_checked(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    original = (hook.project / ORDER).read_text()
    _append(hook, ORDER, VIOLATION)
    assert hook.send("post-tool-use-edit").code == 2
    (hook.project / ORDER).write_text(original)
    run = hook.send("post-tool-use-edit")
    assert (run.code, run.stdout, run.stderr) == (0, "", "")
    readme = hook.project / "README.md"
    readme.write_text("notes\n")
    run = hook(_edited(hook, "README.md"))
    assert (run.code, run.stdout, run.stderr) == (0, "", "")


def test_escalation_after_escalate_after_blocks(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    pyproject = hook.project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace('root = "src"', 'root = "src"\nescalate-after = 2')
    )
    hook.send("session-start")
    _append(hook, ORDER, VIOLATION)
    codes = []
    for attempt in range(4):
        run = hook(_edited(hook, tool_use_id=f"toolu_attempt{attempt}"))
        codes.append(run.code)
        if run.code == 0:
            context = context_of(run)
            assert context.startswith("inwards: these findings have blocked 2 edits each.")
            assert "ask how to go on" in context
    assert codes == [2, 2, 0, 2]  # two blocks, then ask the user; then it counts again
    # The same tool call delivered twice counts once.
    assert hook(_edited(hook, tool_use_id="toolu_attempt3")).code == 2
    assert hook(_edited(hook, tool_use_id="toolu_attempt4")).code == 2
    assert hook(_edited(hook, tool_use_id="toolu_attempt5")).code == 0


@pytest.mark.parametrize("policy", ["deny", "allow"])
def test_a_suppression_the_agent_adds_counts_only_when_allowed(tmp_path: Path, policy: str) -> None:
    hook = shop_project(tmp_path)
    pyproject = hook.project / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace(
            'root = "src"', f'root = "src"\nagent-suppressions = "{policy}"'
        )
    )
    hook.send("session-start")
    _append(
        hook,
        ORDER,
        'from shop.adapters.outbound.sql_orders import SqlOrders  # inwards: ignore[INW001,SHOP001] reason="needed"\n',
    )
    run = hook.send("post-tool-use-edit")
    if policy == "allow":
        assert (run.code, run.stdout, run.stderr) == (0, "", "")
        return
    document = blocked_diagnostics(run)
    assert [d["code"] for d in document["diagnostics"]] == ["INW001", "SHOP001"]
    assert document["notes"][0].startswith(
        f"The suppression of INW001 at {ORDER}:28 was not there when the session started"
    )
    assert _log(hook)[-1]["rejected"] == 2


def test_a_suppression_there_at_the_start_still_counts(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    _append(
        hook,
        ORDER,
        'from shop.adapters.outbound.sql_orders import SqlOrders  # inwards: ignore[INW001,SHOP001] reason="legacy"\n',
    )
    hook.send("session-start")
    _append(hook, ORDER, "\n\ndef later() -> None:\n    pass\n")
    run = hook.send("post-tool-use-edit")
    assert (run.code, run.stdout, run.stderr) == (0, "", "")


def test_replies_are_byte_identical_run_to_run_and_with_a_warm_session(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    _append(hook, ORDER, VIOLATION)
    first, second = hook.send("post-tool-use-edit"), hook.send("post-tool-use-edit")
    assert (first.code, first.stdout, first.stderr) == (second.code, second.stdout, second.stderr)
    data = json.dumps(payload("post-tool-use-edit", hook.project)).encode()
    environ = {"CLAUDE_PROJECT_DIR": str(hook.project), "HOME": str(hook.home)}
    environ["XDG_CONFIG_HOME"] = str(tmp_path / "no-config")
    cold = run_hook(data, environ=environ)
    with open_hook_session(hook.project) as session:
        session.check()  # warm
        warm = run_hook(data, environ=environ, session=session, project=hook.project)
    assert cold == warm
    assert (cold.exit_code, cold.stderr) == (2, first.stderr)


def test_a_configuration_that_cant_be_used_fails_open(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    pyproject = hook.project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('root = "src"', 'root = "src"\nbogus = 1'))
    _append(hook, ORDER, VIOLATION)
    run = hook.send("post-tool-use-edit")
    assert run.code == 1 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith("inwards: the configuration can't be used, so this hook checked")
    assert "tool.inwards.bogus" in run.stderr


# -- Stop ---------------------------------------------------------------------------------


def _stop(hook: Hook, active: bool = False) -> object:
    return hook.send("stop", stop_hook_active=active)


def test_the_stop_gate_checks_what_changed_by_hash(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    _append(hook, "src/shop/bootstrap.py", "")  # touched, same bytes: not a change
    hook.send("session-start")
    run = hook.send("stop")
    assert (run.code, run.stdout, run.stderr) == (0, "", "")
    # A change no edit hook saw (a shell command, a generator) is found by its hash.
    _append(hook, ORDER, VIOLATION)
    run = hook.send("stop")
    assert run.code == 2 and run.stdout == ""
    first, document = run.stderr.splitlines()
    assert first == (
        "inwards: 2 violations are new since this session started, in the files it changed. "
        "Fix them before ending the turn:"
    )
    assert [d["code"] for d in json.loads(document)["diagnostics"]] == ["INW001", "SHOP001"]
    assert _log(hook)[-1]["changed"] == 1


def test_the_stop_gate_lets_the_turn_end_after_escalate_after_blocks(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    _append(hook, ORDER, VIOLATION)
    codes = [hook.send("stop", stop_hook_active=active).code for active in (False, True, True)]
    assert codes == [2, 2, 2]
    run = hook.send("stop", stop_hook_active=True)
    assert run.code == 0 and run.stderr == ""
    message = json.loads(run.stdout)["systemMessage"]
    assert message.splitlines()[0] == (
        "inwards: the turn ended with architecture problems the agent did not resolve after "
        "3 tries:"
    )
    assert message.splitlines()[1].startswith(f"- {ORDER}:28:47: INW001 ")
    # A new turn (stop_hook_active false) starts the count again.
    assert hook.send("stop").code == 2


def test_the_stop_gate_blocks_a_loosened_configuration_and_checks_with_the_start_one(
    tmp_path: Path,
) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    pyproject = hook.project / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "# a comment changes nothing\n")
    assert hook.send("stop").code == 0
    # The agent "fixes" its violation by moving the domain into the outermost layer.
    _append(hook, ORDER, VIOLATION)
    pyproject.write_text(
        pyproject.read_text().replace('"shop.bootstrap", ', '"shop.bootstrap", "shop.domain", ')
    )
    run = hook.send("stop")
    assert run.code == 2
    lines = run.stderr.splitlines()
    assert lines[0] == (
        "inwards: [tool.inwards] of pyproject.toml changed during this session. Put it back "
        "as it was, or ask the user to make the change; the changed files are checked with the "
        "configuration the session started with."
    )
    assert [d["code"] for d in json.loads(lines[-1])["diagnostics"]] == ["INW001", "SHOP001"]


def test_the_stop_gate_blocks_changed_rules_baseline_and_hooks(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    hook.send("session-start")
    rule = hook.project / ".inwards" / "rules" / "SHOP001.toml"
    rule.write_text(rule.read_text().replace('default = "on"', 'default = "opt-in"'))
    (hook.project / "inwards-baseline.json").write_text(
        '{"schema": "inwards/baseline@1", "entries": []}\n'
    )
    settings = hook.project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"hooks": {}}))
    run = hook.send("stop")
    assert run.code == 2
    assert run.stderr.splitlines() == [
        "inwards: rule definitions of the project rule root changed during this session. Put "
        "them back as they were, or ask the user to make the change.",
        "inwards: inwards-baseline.json changed during this session. Put it back as it was; "
        "only the user accepts findings into the baseline.",
        "inwards: the inwards hooks for PostToolUse, PreToolUse, SessionStart, Stop are gone "
        "from the Claude Code settings since this session started. Put them back, or ask the "
        "user.",
    ]
    settings.write_text(json.dumps({**SETTINGS, "disableAllHooks": True}))
    assert "disableAllHooks turns every hook off" in hook.send("stop").stderr


def test_the_stop_gate_without_a_start_record(tmp_path: Path) -> None:
    hook = shop_project(tmp_path)
    run = hook.send("stop")  # hooks set up in the middle of a session: tell the user
    assert run.code == 1 and run.stdout == ""
    assert run.stderr == (
        "inwards: this session has no start record (its SessionStart hook did not run), so "
        "the Stop gate checked nothing.\n"
    )
    hook.send("session-start")
    os.unlink(_state(hook) / f"{SESSION}.start.json")  # removed behind the guards' back
    run = hook.send("stop")
    assert run.code == 2
    assert run.stderr.startswith("inwards: this session has no start record (.inwards/state/)")
