"""Finding and reading the `pyproject.toml` that holds `[tool.inwards]`.

This is the disk side of configuration: it reads bytes, decodes and parses them with
tomllib, and hands the core a plain mapping plus the positions of every key. Every
failure is a `ConfigError` naming the file (and line and column when there is one).
"""

from __future__ import annotations

import errno
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file
from inwards_core.config.load import build_config
from inwards_core.config.nesting import TomlTooDeepError, load_toml
from inwards_core.config.positions import (
    TomlPositions,
    caret_excerpt,
    decode_error_position,
    decode_error_reason,
)
from inwards_core.config.problems import type_name
from inwards_core.config.values import Config, ConfigError, ConfigProblem
from inwards_core.model.value_repr import value_repr

CONFIG_NAME = "pyproject.toml"

MAX_CONFIG_BYTES = 10 * 1024 * 1024
"""A pyproject.toml larger than this is refused unread (a link to a huge file, or to one
that never ends, must not fill the memory)."""

NO_CONFIG_MESSAGE = (
    "No pyproject.toml with a [tool.inwards] table was found in this directory or any "
    "directory above it.\n"
    "Run `inwards init` in the project's directory to write a starting one, or add one to "
    "your project's pyproject.toml, listing the layers innermost first, for example:\n"
    "\n"
    "    [tool.inwards]\n"
    '    layers = [{ name = "domain", modules = ["shop.domain"] },\n'
    '              { name = "adapters", modules = ["shop.adapters"] }]\n'
    "\n"
    "or pass --config FILE to name the file to use."
)


@attrs.frozen
class LoadedConfig:
    """A parsed configuration file: `table` is its `[tool.inwards]` table; `project_dir`
    is the directory holding the file."""

    __repr__ = value_repr

    path: Path
    project_dir: Path
    table: Mapping[str, Any]
    positions: TomlPositions
    text: str

    def build(self) -> Config:
        """The validated `Config` (`ConfigError` lists every problem)."""
        return build_config(self.table, file=self.path.name, positions=self.positions)


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a `[tool.inwards]` table.

    A pyproject.toml without the table is passed over and the walk goes on upwards. One
    that is there but can't be read (no permission, a FIFO, a device, a directory, a
    broken link, too large) is returned, and so is one that can't be parsed but mentions
    `tool.inwards`: reading it reports the error, instead of silently using a file
    further up.
    """
    here = start.absolute()
    if not os.path.isdir(here):
        here = here.parent
    for directory in (here, *here.parents):
        candidate = directory / CONFIG_NAME
        try:
            os.lstat(candidate)
        except OSError as error:
            if error.errno in (errno.ENOENT, errno.ENOTDIR):
                continue  # nothing there
            return candidate  # something we can't even look at: reading it says what
        if _declares_inwards(candidate):
            return candidate
    return None


def _declares_inwards(path: Path) -> bool:
    """Whether `path` has a `[tool.inwards]` table, or may have one and can't be read."""
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
    except OSError:
        return True
    try:
        parsed = load_toml(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, TomlTooDeepError):
        return b"tool.inwards" in data
    tool = parsed.get("tool")
    return isinstance(tool, dict) and "inwards" in tool


def read_config(path: Path) -> LoadedConfig:
    """Read and parse `path`; `ConfigError` when it can't be read, isn't UTF-8, isn't
    TOML, or has no `[tool.inwards]` table."""
    shown = shown_path(path)
    try:
        data = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES)
    except OSError as error:
        raise _failure(shown, _unreadable(path, error)) from None
    text = _decoded(data, shown)
    document = _parsed(text, shown)
    # Only after parsing: the parser has bounded the nesting the key scanner walks.
    positions = TomlPositions(text)
    tool = document.get("tool")
    if not isinstance(tool, dict) or "inwards" not in tool:
        raise _failure(
            shown,
            "has no [tool.inwards] table. Run `inwards init` in its directory to write a "
            "starting one, or add one that lists your layers, for example:\n"
            "    [tool.inwards]\n"
            '    layers = [{ name = "domain", modules = ["shop.domain"] }]',
        )
    table = tool["inwards"]
    if not isinstance(table, dict):
        where = positions.locate("tool.inwards")
        raise ConfigError(
            (
                ConfigProblem(
                    shown,
                    where[0] if where else None,
                    where[1] if where else None,
                    "tool.inwards",
                    f"must be a table, not {type_name(table)}.",
                ),
            )
        )
    return LoadedConfig(
        path=path,
        project_dir=path.absolute().parent,
        table=table,
        positions=positions,
        text=text,
    )


def _failure(
    shown: str, message: str, line: int | None = None, column: int | None = None
) -> ConfigError:
    """A problem with the file as a whole (no key), at `line` and `column` when known."""
    return ConfigError((ConfigProblem(shown, line, column, "", message),))


def _decoded(data: bytes, shown: str) -> str:
    try:
        # A byte-order mark is invisible in editors, so it is dropped, not reported.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise _failure(
            shown,
            f"is not UTF-8 text (byte {error.start + 1} of the file); TOML files must be UTF-8.",
            line,
        ) from None


def _parsed(text: str, shown: str) -> dict[str, Any]:
    try:
        return load_toml(text)
    except TomlTooDeepError as error:
        raise _failure(shown, f"{error}.", error.line, error.column) from None
    except tomllib.TOMLDecodeError as error:
        where = decode_error_position(error, text)
        reason = decode_error_reason(error).rstrip(".")
        message = f"is not valid TOML: {reason}."
        if where is not None:
            excerpt = caret_excerpt(text, *where)
            if excerpt:
                message += "\n" + excerpt
            raise _failure(shown, message, *where) from None
        raise _failure(shown, message) from None


def _unreadable(path: Path, error: OSError) -> str:
    """Why a configuration file could not be read, as the end of a sentence naming it."""
    if isinstance(error, NotARegularFileError):
        if os.path.isdir(path):
            return "is a directory, not a configuration file."
        return f"{error.strerror}; a configuration file must be one."
    if error.errno == errno.ENOENT and os.path.islink(path):
        return "is a symbolic link to nothing (broken link)."
    if error.errno == errno.ENOENT:
        return "does not exist."
    if error.errno == errno.EFBIG:
        size = MAX_CONFIG_BYTES // (1024 * 1024)
        return f"is larger than {size} MiB, too large to be a configuration file."
    return f"can't be read: {error.strerror or error}."


def shown_path(path: Path) -> str:
    """`path` as the user would type it: relative to the working directory when below it,
    POSIX-style; otherwise as it is. Plain string work: it runs for every rule file."""
    text = str(path.absolute())
    here = os.getcwd().rstrip(os.sep) + os.sep
    return text[len(here) :].replace(os.sep, "/") if text.startswith(here) else str(path)
