"""`inwards --version`: the name and version; with `--verbose` (`-v`) also the distribution,
the Python that runs it and the installed rule families, for a bug report."""

from __future__ import annotations

import sys

from inwards_core.version import inwards_distribution, inwards_version

VERBOSE_FLAGS = ("--verbose", "-v")


def version_text(*, verbose: bool = False) -> str:
    lines = [f"inwards {inwards_version()}"]
    if verbose:  # what only a verbose line needs is imported here: a plain one is start-up
        import platform

        from inwards_core.reporting.escaping import printable

        lines += [
            f"distribution: {inwards_distribution()} {inwards_version()}",
            f"python: {platform.python_version()} ({platform.python_implementation()}, "
            f"{printable(sys.executable)})",
            *_family_lines(),
        ]
    return "\n".join(lines) + "\n"


def version_arguments(args: list[str]) -> bool | None:
    """For a command line that asks for the version only: whether verbosely; else None."""
    if "--version" not in args or not set(args) <= {"--version", *VERBOSE_FLAGS}:
        return None
    return len(args) > args.count("--version")


def _family_lines() -> list[str]:
    from inwards_core.api import installed_families
    from inwards_core.plugins import FamilyLoadError
    from inwards_core.reporting.escaping import printable

    try:
        families = installed_families()
    except FamilyLoadError as error:  # the version must print even so: it is what to report
        return [f"families: could not be loaded: {printable(str(error))}"]
    rows = [
        f"  {f.prefix:<6} {f.distribution} {f.version} ({len(f.kinds)} check kinds)"
        for f in sorted(families, key=lambda family: family.prefix)
    ]
    return ["families:", *rows] if rows else ["families: none installed"]
