"""Per-file facts as plain JSON-able data and back, for the extraction cache and the
worker processes. `facts_from_data` refuses anything of the wrong shape by raising
`ValueError`, which a cache turns into a miss."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inwards_core.model.facts import (
    DynamicImportFact,
    FileProblem,
    FileProblemKind,
    ImportFact,
    ImportStyle,
    ModuleFacts,
    SuppressionComment,
    SuppressionProblem,
)
from inwards_core.model.findings import Span

if TYPE_CHECKING:
    from inwards_core.model.content_facts import ContentFacts


def _span_to_data(span: Span) -> list[int]:
    return [span.line, span.column, span.end_line, span.end_column]


def _span_from_data(data: Any) -> Span:
    if (
        not isinstance(data, list)
        or len(data) != 4
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in data)
    ):
        raise ValueError("bad span")
    return Span(*data)


def _opt_str(data: Any) -> str | None:
    if data is None or isinstance(data, str):
        return data
    raise ValueError("expected a string or null")


def _str(data: Any) -> str:
    if isinstance(data, str):
        return data
    raise ValueError("expected a string")


def _bool(data: Any) -> bool:
    if isinstance(data, bool):
        return data
    raise ValueError("expected a boolean")


def _int(data: Any) -> int:
    if isinstance(data, int) and not isinstance(data, bool):
        return data
    raise ValueError("expected an integer")


def facts_to_data(facts: ModuleFacts) -> dict[str, Any]:
    data: dict[str, Any] = {
        "imports": [
            [
                f.style.value,
                f.module,
                f.name,
                f.target,
                f.level,
                _span_to_data(f.span),
                f.statement,
                f.type_checking,
                f.in_function,
                f.lazy,
                f.raw_module,
                f.statement_line,
            ]
            for f in facts.imports
        ],
        "dynamic": [
            [d.loader, d.target, _span_to_data(d.span), d.reason, d.statement, d.module]
            for d in facts.dynamic_imports
        ],
        "suppressions": [
            [
                s.line,
                _span_to_data(s.span),
                list(s.codes),
                s.reason,
                s.problem.value if s.problem else None,
            ]
            for s in facts.suppressions
        ],
        "problem": (
            None
            if facts.problem is None
            else [
                facts.problem.kind.value,
                facts.problem.message,
                _span_to_data(facts.problem.span),
                facts.problem.encoding,
            ]
        ),
        "grammar": facts.grammar,
        "lines": facts.line_count,
        # One string, not a list: a warm run decodes thousands of these (identifiers
        # hold no space).
        "names": " ".join(facts.names),
        "extends_path": facts.extends_path,
        "registers": list(facts.registers),
        "import_hook_line": facts.import_hook_line,
    }
    if facts.content is not None:
        from inwards_core.model.content_data import content_to_data  # content reads only

        data["content"] = content_to_data(facts.content)
    return data


def _seq(data: Any) -> Sequence[Any]:
    if not isinstance(data, list):
        raise ValueError("expected a list")
    return data


_STYLES = {style.value: style for style in ImportStyle}
_PROBLEM_KINDS = {kind.value: kind for kind in FileProblemKind}
_SUPPRESSION_PROBLEMS = {problem.value: problem for problem in SuppressionProblem}


def _import_from_row(row: Any) -> ImportFact:
    (
        style,
        module,
        name,
        target,
        level,
        span,
        statement,
        type_checking,
        in_function,
        lazy,
        raw,
        statement_line,
    ) = row
    line, column, end_line, end_column = span
    if (
        (module is not None and type(module) is not str)
        or (name is not None and type(name) is not str)
        or (target is not None and type(target) is not str)
        or type(level) is not int
        or type(statement) is not str
        or type(type_checking) is not bool
        or type(in_function) is not bool
        or type(lazy) is not bool
        or type(raw) is not str
        or type(statement_line) is not int
        or type(line) is not int
        or type(column) is not int
        or type(end_line) is not int
        or type(end_column) is not int
    ):
        raise ValueError("bad import")
    return ImportFact(
        _STYLES[style],
        module,
        name,
        target,
        level,
        Span(line, column, end_line, end_column),
        statement,
        type_checking,
        in_function,
        lazy,
        raw,
        statement_line,
    )


def facts_from_data(data: Any) -> ModuleFacts:
    """Rebuild facts from `facts_to_data` output; `ValueError` on any shape problem."""
    if not isinstance(data, Mapping):
        raise ValueError("expected an object")
    try:
        imports = tuple(map(_import_from_row, _seq(data["imports"])))
        dynamic = tuple(
            DynamicImportFact(
                loader=_str(row[0]),
                target=_opt_str(row[1]),
                span=_span_from_data(row[2]),
                reason=_opt_str(row[3]),
                statement=_str(row[4]),
                module=_opt_str(row[5]),
            )
            for row in map(_seq, _seq(data["dynamic"]))
        )
        suppressions = tuple(
            SuppressionComment(
                line=_int(row[0]),
                span=_span_from_data(row[1]),
                codes=tuple(_str(c) for c in _seq(row[2])),
                reason=_opt_str(row[3]),
                problem=None if row[4] is None else _SUPPRESSION_PROBLEMS[_str(row[4])],
            )
            for row in map(_seq, _seq(data["suppressions"]))
        )
        raw_problem = data["problem"]
        problem = None
        if raw_problem is not None:
            row = _seq(raw_problem)
            problem = FileProblem(
                kind=_PROBLEM_KINDS[_str(row[0])],
                message=_str(row[1]),
                span=_span_from_data(row[2]),
                encoding=_opt_str(row[3]),
            )
        return ModuleFacts(
            imports=imports,
            dynamic_imports=dynamic,
            suppressions=suppressions,
            problem=problem,
            grammar=_str(data["grammar"]),
            line_count=_int(data["lines"]),
            names=tuple(_str(data["names"]).split()),
            extends_path=_bool(data["extends_path"]),
            registers=tuple(_str(name) for name in _seq(data["registers"])),
            import_hook_line=_int(data["import_hook_line"]),
            content=_content_from_data(data.get("content")),
        )
    except (KeyError, IndexError, TypeError) as error:
        raise ValueError(f"bad facts: {error}") from error


def _content_from_data(data: Any) -> ContentFacts | None:
    if data is None:
        return None
    from inwards_core.model.content_data import content_from_data  # content reads only

    return content_from_data(data)
