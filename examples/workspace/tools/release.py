"""Bump the versions of every member (a script of the repository, not a member)."""

import pathlib


def members() -> list[pathlib.Path]:
    return sorted(pathlib.Path("packages").glob("*/pyproject.toml"))
