"""The options every per-file FAPI rule takes: where it reports (`modules`) and whether
test modules are judged (`check-tests`)."""

from __future__ import annotations

import attrs

from inwards_core import ReadScope, option
from inwards_rules_fastapi.graph_options import check_patterns, matches_any


def file_scope(modules: tuple[str, ...]) -> ReadScope:
    """The modules a per-file rule reads: those `modules` names (beyond the layers), with
    the content of the ones that import FastAPI."""
    return ReadScope(modules=modules, content=True, content_imports=("fastapi",))


@attrs.frozen
class FileRuleOptions:
    """Where the rule reports, and whether it judges tests."""

    modules: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="Module prefixes or selectors; when set, the rule reports only in them.",
    )
    check_tests: bool = option(
        False,
        description="Judge test modules too (a `tests`/`test` segment, or a last segment "
        "`test_*`, `*_test` or `conftest`); they are skipped by default.",
    )

    def applies_to(self, module: str) -> bool:
        from inwards_core import is_test_module

        if not self.check_tests and is_test_module(module):
            return False
        return not self.modules or matches_any(self.modules, module)
