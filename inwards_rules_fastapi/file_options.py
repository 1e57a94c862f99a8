"""The options every per-file FAPI rule takes: where it reports (`modules`) and whether
test modules are judged (`check-tests`)."""

from __future__ import annotations

import attrs

from inwards_core import option, parse_module_pattern


def check_patterns(value: tuple[str, ...]) -> str | None:
    """The problem with the first entry that is no module prefix or selector, or None."""
    for entry in value:
        try:
            parse_module_pattern(entry)
        except ValueError as error:
            return str(error) + "."
    return None


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
        if not self.modules:
            return True
        return any(parse_module_pattern(entry).matches(module) for entry in self.modules)
