"""Where a report points people for inwards' own documentation: SARIF's `informationUri`
and each rule's `helpUri`.

One base URL decides both: `INWARDS_DOCS_URL`, the address where the `docs/` folder of
inwards is published (a rule's page is `<base>rules/<CODE>.md`, as the folder names them).
Without it, both point at the distribution's page on PyPI, a real page (the README) rather
than a guessed address that might be someone else's. A rule whose definition names an
http(s) page of its own keeps that page, and a rule whose page is not in inwards' docs (a
team's rule, a third-party family's) gets no `helpUri` from the base.
"""

from __future__ import annotations

import re

import attrs

from inwards_core.model.findings import RootKind
from inwards_core.model.quoting import quoted
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.rule_set import ResolvedRule
from inwards_core.version import DISTRIBUTION

DOCS_URL_VARIABLE = "INWARDS_DOCS_URL"
DEFAULT_INFORMATION_URI = f"https://pypi.org/project/{DISTRIBUTION}/"

# An absolute http(s) URL with no whitespace, control characters or quotes: what a SARIF
# viewer can follow and a Markdown or JSON document can hold as it is.
_WEB_URL = re.compile(r"^https?://[^\s\"'<>\\\x00-\x1f\x7f]+$")


class DocsUrlError(ValueError):
    """A documentation base URL that can't be used; the message says why."""


def docs_base(value: str) -> str:
    """The base URL `value` gives, ending with "/" (pages are below it); "" for an empty
    value (the default applies). Raises DocsUrlError for anything but an http(s) URL."""
    given = value.strip()
    if not given:
        return ""
    if not _WEB_URL.match(given) or "?" in given or "#" in given:
        raise DocsUrlError(
            f'{DOCS_URL_VARIABLE}="{quoted(given)}" is not an http(s) address of the '
            "folder the docs are published in (such as https://example.com/inwards/docs/); "
            f"it is ignored and SARIF points at {DEFAULT_INFORMATION_URI}."
        )
    return given if given.endswith("/") else f"{given}/"


def is_web_address(text: str) -> bool:
    return re.match(r"^https?://", text) is not None


@attrs.frozen
class DocsLinks:
    """The documentation a report links to: `base` is the configured base URL ("" for the
    default)."""

    __repr__ = value_repr

    base: str = ""

    @property
    def information_uri(self) -> str:
        return self.base or DEFAULT_INFORMATION_URI

    def rule_page(self, rule: ResolvedRule) -> str | None:
        """The page a rule's `helpUri` names: the definition's own http(s) `docs`, else the
        rule's page among inwards' docs when inwards ships the rule, else none."""
        docs = rule.definition.guidance.docs
        if is_web_address(docs):
            return docs
        if not shipped_with_inwards(rule):
            return None
        if not self.base:
            return DEFAULT_INFORMATION_URI
        return f"{self.base}rules/{rule.code}.md"


def shipped_with_inwards(rule: ResolvedRule) -> bool:
    """Whether a family of this distribution defines the rule's code (INW, FAPI), so
    docs/rules/ has its page: the definition in force or one it shadows or overlays is a
    core definition of inwards' own families."""
    definitions = (rule.definition, *rule.shadowed)
    if any(d.origin.root is RootKind.CORE and d.family == DISTRIBUTION for d in definitions):
        return True
    overlay = rule.definition.overlay
    return (
        overlay is not None
        and overlay.chain[0].root is RootKind.CORE
        and rule.definition.family == DISTRIBUTION
    )
