"""Whether a shell command may touch what the agent must not change (`.inwards/`, the
baseline, the rule roots, the hook settings), and whether it is read-only.

A command that names one of them runs only when the whole command is read-only: a chain
(`;`, `&&`, `||`, `|`, `&`) of commands from a short list that can't write a file, with no
redirection, no substitution (`$...`, backticks), no subshell and no variable assignment.
Anything else that names them is refused. This is a guard against the agent working around
the checks by mistake, not a sandbox: a command can reach a file without naming it, and the
Stop gate, which compares digests, catches what this lets through.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
from collections.abc import Iterable, Sequence

# Commands that only read files (with the options of theirs that would write or run
# something refused below).
READ_ONLY_COMMANDS = frozenset(
    {"cat", "head", "tail", "grep", "rg", "wc", "ls", "stat", "file", "diff", "find", "echo", "pwd"}
)
READ_ONLY_GIT = frozenset({"status", "diff", "log", "show"})
_REFUSED_OPTIONS = {
    "find": (
        "-delete",
        "-exec",
        "-execdir",
        "-ok",
        "-okdir",
        "-fprint",
        "-fprint0",
        "-fprintf",
        "-fls",
    ),
    "rg": ("--pre",),  # runs a program on each file
    "git": ("--output", "--ext-diff", "--textconv", "--exec-path"),
}
_SEPARATORS = frozenset({";", "&&", "||", "|", "&"})
# What no read-only command here needs: substitutions, redirections, subshells, groups and
# line breaks (each a way to run a second command the parser below would not see).
_UNSAFE_CHARACTERS = frozenset("$`<>(){}\n\r\\")
# Commands of inwards itself that rewrite what the checks rely on.
_OUR_WRITERS = re.compile(
    r"\binwards(?:_cli)?\b[^;&|]*?\b(?:baseline|hook|init|import-config|import-diagram|"
    r"rules\s+(?:shadow|new))\b"
)


def is_read_only(command: str) -> bool:
    """Whether every command of the chain only reads (see the module's docstring)."""
    if not command.strip() or any(character in _UNSAFE_CHARACTERS for character in command):
        return False
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # an unclosed quote
        return False
    segments: list[list[str]] = [[]]
    for token in tokens:
        if token in _SEPARATORS:
            segments.append([])
        elif token and set(token) <= set(";&|"):
            return False  # `|&`, `;;` and the like
        else:
            segments[-1].append(token)
    return all(segment and _reads_only(segment) for segment in segments)


def _reads_only(words: Sequence[str]) -> bool:
    name = words[0]
    if "=" in name:
        return False  # an assignment (`GIT_EXTERNAL_DIFF=... git diff`) changes what runs
    if name == "git":
        if len(words) < 2 or words[1] not in READ_ONLY_GIT:
            return False  # `git -c ...` before the subcommand too
    elif name not in READ_ONLY_COMMANDS:
        return False
    refused = _REFUSED_OPTIONS.get(name, ())
    return not any(
        word == option or word.startswith(option + "=") for word in words for option in refused
    )


def named_in(command: str, names: Iterable[str], paths: Iterable[str]) -> list[str]:
    """What of `names` (file or directory names: `.inwards`, `settings.json`) and `paths`
    (absolute directories) the command names, literally or by a glob that matches it;
    and "inwards" when it runs an inwards command that rewrites them."""
    text = command.casefold()
    found = [name for name in names if name.casefold() in text]
    found += [path for path in paths if path and path.casefold() in text]
    for word in _words(command):
        for part in word.split("/"):
            if _is_glob(part):
                found += [name for name in names if name not in found and _matches(name, part)]
    if _OUR_WRITERS.search(command):
        found.append("inwards")
    return list(dict.fromkeys(found))


def _is_glob(part: str) -> bool:
    """A part of a path with a wildcard and something literal: `*` alone matches any name
    (and guarding on it would refuse every `rm build/*`)."""
    return any(c in part for c in "*?[") and bool(part.strip("*?[]!"))


def _matches(name: str, pattern: str) -> bool:
    # As the shell globs: a wildcard never matches the leading dot of a hidden name.
    if name.startswith(".") and not pattern.startswith("."):
        return False
    return fnmatch.fnmatchcase(name.casefold(), pattern.casefold())


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()
