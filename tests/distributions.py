"""The test-only distributions that `.ci/run` installs and the README's quick start does not:
a test that needs one is skipped, saying how to install it, where it is missing."""

from __future__ import annotations

from importlib import metadata

import pytest

TIDY = "inwards-rules-tidy"  # a third-party rule family (tests/families/inwards-rules-tidy)
ACME = "inwards-rules-acme"  # an organisation rule pack (tests/rule-packs/inwards-rules-acme)
SOURCES = {
    TIDY: "./tests/families/inwards-rules-tidy",
    ACME: "./tests/rule-packs/inwards-rules-acme",
}


def installed(distribution: str) -> bool:
    try:
        metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return False
    return True


def needs(distribution: str) -> pytest.MarkDecorator:
    """Skip unless `distribution` is installed."""
    return pytest.mark.skipif(
        not installed(distribution),
        reason=(
            f"{distribution} is not installed: run `pip install {SOURCES[distribution]}` "
            "(.ci/run does)"
        ),
    )


needs_tidy = needs(TIDY)
needs_acme = needs(ACME)
