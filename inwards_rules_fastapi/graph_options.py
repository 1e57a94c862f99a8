"""The options of the FAPI rules that read the project graph: where they report
(`modules`) and whether test modules are judged (`check-tests`)."""

from __future__ import annotations

import attrs

from inwards_core import ReadScope, is_test_module, option, parse_module_pattern

# The graph is built from every module that imports FastAPI, wherever it is.
GRAPH_SCOPE = ReadScope(every_module=True, content=True, content_imports=("fastapi",))


def check_patterns(value: tuple[str, ...]) -> str | None:
    """The problem with the first entry that is no module prefix or selector, or None."""
    for entry in value:
        try:
            parse_module_pattern(entry)
        except ValueError as error:
            return str(error) + "."
    return None


def matches_any(patterns: tuple[str, ...], name: str) -> bool:
    return any(parse_module_pattern(entry).matches(name) for entry in patterns)


@attrs.frozen
class GraphRuleOptions:
    """Where the rule reports, and whether it judges tests."""

    modules: tuple[str, ...] = option(
        (),
        check=check_patterns,
        description="Module prefixes or selectors; when set, the rule reports only in them.",
    )
    check_tests: bool = option(
        False,
        description="Report in test modules too (a `tests`/`test` segment, or a last segment "
        "`test_*`, `*_test` or `conftest`); they are skipped by default. Their apps and "
        "routers are part of the graph either way.",
    )

    def reports_in(self, module: str) -> bool:
        if not self.check_tests and is_test_module(module):
            return False
        return not self.modules or matches_any(self.modules, module)
