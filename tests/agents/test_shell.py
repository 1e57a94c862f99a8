"""The Bash guard's allow-list: a command naming what the agent may not change runs only
when the whole chain is read-only."""

from __future__ import annotations

import pytest

from inwards_cli.agents.shell import is_read_only, named_in

NAMES = [".inwards", "inwards-baseline.json", "settings.json", "settings.local.json"]
USER_ROOT = "/home/dev/.config/inwards/rules"


@pytest.mark.parametrize(
    "command",
    [
        "cat .inwards/rules/SHOP001.toml",
        "head -n 5 inwards-baseline.json | grep INW001",
        "ls -la .inwards && wc -l .inwards/state/*.jsonl",
        "rg -n layer .inwards/rules; stat .inwards",
        "git diff -- .inwards/rules",
        "git log --oneline -3 -- inwards-baseline.json",
        "find .inwards -name '*.toml'",
        "diff .inwards/rules/A.toml .inwards/rules/B.toml",
        'grep "a;b" .inwards/rules/X.toml',
        "echo .inwards",
    ],
)
def test_read_only_chains(command: str) -> None:
    assert is_read_only(command)


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf .inwards",
        "cat .inwards/x > y",  # a redirection
        "cat < .inwards/x",
        "cat $(ls .inwards)",  # a substitution
        "cat `ls .inwards`",
        "cat ${HOME}/x",
        "cat x; rm -rf .inwards",  # one command of the chain writes
        "cat x\nrm -rf .inwards",  # a line break starts a second command
        "cat x | tee .inwards/y",
        "(cat .inwards/x)",  # a subshell
        "find .inwards -delete",
        "find .inwards -exec rm {} ;",
        "rg --pre ./script .inwards",
        "git diff --output=.inwards/x",
        "git -c core.pager=x log",
        "git checkout -- .inwards",
        "GIT_EXTERNAL_DIFF=x git diff",
        "sed -i s/a/b/ inwards-baseline.json",
        "python -c 'import shutil; shutil.rmtree(\".inwards\")'",
        "cat 'unclosed",
        "cat x |& grep y",
        "",
    ],
)
def test_anything_else_is_not(command: str) -> None:
    assert not is_read_only(command)


def test_what_a_command_names() -> None:
    assert named_in("rm -rf .inwards/state", NAMES, [USER_ROOT]) == [".inwards"]
    assert named_in("rm -rf .inw*", NAMES, []) == [".inwards"]
    assert named_in("rm .i?wards/state/x", NAMES, []) == [".inwards"]
    assert named_in("rm -f inwards-base*", NAMES, []) == ["inwards-baseline.json"]
    assert named_in(f"rm {USER_ROOT}/X.toml", NAMES, [USER_ROOT]) == [USER_ROOT]
    assert named_in("inwards baseline", NAMES, []) == ["inwards"]
    assert named_in("uv run inwards rules shadow INW001 --to project", NAMES, []) == ["inwards"]
    assert named_in("inwards check src", NAMES, []) == []
    # A wildcard alone names nothing (or every `rm build/*` would be refused), nor does one
    # that the shell would not let match a hidden name.
    assert named_in("rm -rf build/* *", NAMES, []) == []
    assert named_in("rm -rf *wards", NAMES, []) == []
