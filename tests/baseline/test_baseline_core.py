"""The pure baseline module: building, writing, reading strictly, applying to a report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

from inwards_core.baseline import SCHEMA, Baseline, BaselineError, finding_key
from inwards_core.baseline.matching import apply_baseline
from inwards_core.baseline.reading import parse_baseline
from inwards_core.baseline.writing import (
    baseline_of_report,
    build_baseline,
    json_schema,
    serialise_baseline,
)
from inwards_core.model.findings import (
    BaselineEntry,
    Finding,
    Fix,
    Report,
    Severity,
    Span,
    SuppressedFinding,
)


def finding(
    line: int = 3,
    *,
    code: str = "INW001",
    module: str | None = "shop.domain.orders",
    file: str = "src/shop/domain/orders.py",
    message: str = 'Layer "domain" imports "shop.web" from the outer layer "web". Imports may '
    "only point inwards: domain <- web.",
    stable: str = 'Layer "domain" imports "shop.web" from the outer layer "web".',
    severity: Severity = Severity.ERROR,
) -> Finding:
    return Finding(
        code=code,
        rule="layer-dependency",
        severity=severity,
        file=file,
        module=module,
        span=Span(line, 1, line, 20),
        message=message,
        fix=Fix("Invert the dependency."),
        docs="docs/rules/INW001.md",
        stable_message=stable,
    )


def report(*findings: Finding, whole_project: bool = True) -> Report:
    return Report(findings=findings, files_checked=3, whole_project=whole_project)


OTHER = finding(8, code="INW005", stable="Layer domain imports sqlalchemy.", message="x")
NO_MODULE = finding(10, code="INW006", module=None, file="pyproject.toml", message="m", stable="m")


# Building ---------------------------------------------------------------------------------


def test_key_has_no_position_and_uses_the_stable_message() -> None:
    assert finding_key(finding(3)) == finding_key(finding(40))
    assert finding_key(finding()) == (
        "INW001",
        "shop.domain.orders",
        'Layer "domain" imports "shop.web" from the outer layer "web".',
    )


def test_key_falls_back_to_file_and_whole_message() -> None:
    bare = attrs.evolve(finding(), module=None, stable_message="")
    assert finding_key(bare) == ("INW001", "src/shop/domain/orders.py", bare.message)


def test_build_counts_errors_per_key_sorted_and_leaves_out_warnings() -> None:
    warning = finding(5, code="INW009", severity=Severity.WARNING, stable="w")
    built = build_baseline([OTHER, finding(3), warning, finding(9), NO_MODULE])
    assert [(e.code, e.module, e.count) for e in built.entries] == [
        ("INW001", "shop.domain.orders", 2),
        ("INW005", "shop.domain.orders", 1),
        ("INW006", "pyproject.toml", 1),
    ]
    assert built.accepted == 4


def test_baseline_of_report_includes_findings_an_older_baseline_accepted() -> None:
    applied = apply_baseline(
        report(finding(3), OTHER), build_baseline([finding(3)]), file="inwards-baseline.json"
    )
    assert applied.findings == (OTHER,)
    assert baseline_of_report(applied) == build_baseline([finding(3), OTHER])


def test_suppressed_findings_are_never_baselined() -> None:
    hidden = SuppressedFinding(finding(4), "legacy")
    with_suppressed = attrs.evolve(report(OTHER), suppressed=(hidden,))
    assert [e.code for e in baseline_of_report(with_suppressed).entries] == ["INW005"]


# Writing ----------------------------------------------------------------------------------


def test_serialised_form_is_sorted_one_entry_per_line_with_trailing_newline() -> None:
    data = serialise_baseline(build_baseline([OTHER, finding(3), finding(4)]))
    text = data.decode("utf-8")
    assert text.endswith("}\n") and not text.endswith("\n\n")
    lines = text.splitlines()
    assert lines[0] == "{"
    assert lines[1] == f'  "schema": "{SCHEMA}",'
    assert lines[3].startswith('    {"code": "INW001", "module": "shop.domain.orders"')
    assert lines[3].endswith('"count": 2},')
    assert lines[4].startswith('    {"code": "INW005"') and lines[4].endswith('"count": 1}')
    assert lines[5:] == ["  ]", "}"]


def test_empty_baseline_is_a_valid_document() -> None:
    data = serialise_baseline(Baseline())
    assert json.loads(data) == {"schema": SCHEMA, "entries": []}
    assert parse_baseline(data) == Baseline()


def test_non_ascii_stays_readable_and_round_trips() -> None:
    accented = finding(stable='Layer "domaine" imports "shop.café".', module="shop.café")
    data = serialise_baseline(build_baseline([accented]))
    assert "shop.café".encode() in data
    assert parse_baseline(data) == build_baseline([accented])


def test_written_documents_follow_the_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json_schema())
    for baseline in (Baseline(), build_baseline([finding(), OTHER, NO_MODULE])):
        jsonschema.validate(json.loads(serialise_baseline(baseline)), json_schema())


texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1).filter(
    lambda s: bool(s.strip())
)
entries = st.builds(
    BaselineEntry,
    code=st.from_regex(r"[A-Z]{2,5}[0-9]{3}", fullmatch=True),
    module=texts,
    message=texts,
    count=st.integers(min_value=1, max_value=10_000),
)


@given(st.lists(entries, unique_by=lambda e: (e.code, e.module, e.message)))
def test_round_trip_is_exact_and_byte_stable(items: list[BaselineEntry]) -> None:
    baseline = Baseline(tuple(sorted(items, key=lambda e: (e.code, e.module, e.message))))
    data = serialise_baseline(baseline)
    parsed = parse_baseline(data)
    assert parsed == baseline
    assert serialise_baseline(parsed) == data
    # The order entries are given in doesn't change a byte.
    assert serialise_baseline(Baseline(tuple(reversed(baseline.entries)))) == data


# Reading strictly -------------------------------------------------------------------------


def good(entries: str = '{"code": "INW001", "module": "a.b", "message": "m", "count": 2}') -> str:
    return f'{{\n  "schema": "{SCHEMA}",\n  "entries": [\n    {entries}\n  ]\n}}\n'


def problem(text: str | bytes, file: str = "inwards-baseline.json") -> BaselineError:
    data = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(BaselineError) as caught:
        parse_baseline(data, file=file)
    return caught.value


def test_reads_a_hand_written_unsorted_baseline() -> None:
    text = good(
        '{"code": "INW005", "module": "a", "message": "m", "count": 1},\n'
        '{"count": 3, "message": "m", "module": "a", "code": "INW001"}'
    )
    parsed = parse_baseline(text.encode())
    assert [(e.code, e.count) for e in parsed.entries] == [("INW001", 3), ("INW005", 1)]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        good().replace('"entries": [', '"entries": [' + "[" * 5_000, 1),  # and never closed
    ],
    ids=["arrays", "objects", "inside entries"],
)
def test_nesting_too_deep_to_read_is_a_baseline_error(text: str) -> None:
    error = problem(text, file="deep.json")
    assert error.render() == (
        "deep.json: the baseline nests arrays or objects too deeply to read; an inwards "
        "baseline is an object of entries, three levels deep."
    )


def test_a_byte_order_mark_is_accepted() -> None:
    assert parse_baseline(b"\xef\xbb\xbf" + good().encode()).accepted == 2


def test_json_that_does_not_parse_names_file_line_and_column() -> None:
    error = problem('{\n  "schema": "inwards/baseline@1",\n  "entries": [\n    {"code": }\n')
    assert (error.line, error.column) == (4, 14)
    assert str(error) == (
        "inwards-baseline.json:4:14: the baseline is not valid JSON: expecting value."
    )


def test_json_wording_that_ends_in_a_position_reads_as_a_clause() -> None:
    error = problem('{"schema": "inwards/baseline@1", "entries": [{"code": "INW0')
    assert error.reason == "the baseline is not valid JSON: unterminated string starting here."


def test_merge_conflict_markers_are_a_parse_error_on_their_line() -> None:
    text = good().replace('    {"code"', '<<<<<<< HEAD\n    {"code"')
    error = problem(text)
    assert error.line == 4 and "not valid JSON" in error.reason


def test_file_name_given_is_the_one_shown() -> None:
    assert str(problem("[]", file="ci/base.json")).startswith("ci/base.json:1: ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('"x"', 'not the string "x"'),
        ('{"entries": []}', '"schema" is missing'),
        ('{"schema": "inwards/baseline@2", "entries": []}', '"inwards/baseline@2" is not'),
        ('{"schema": "inwards/diagnostics@1", "entries": []}', "not a baseline this version"),
        ('{"schema": 1, "entries": []}', "the number 1 is not"),
        (f'{{"schema": "{SCHEMA}"}}', '"entries" is missing'),
        (f'{{"schema": "{SCHEMA}", "entries": {{}}}}', "must be an array of entries"),
        (f'{{"schema": "{SCHEMA}", "entries": [], "extra": 1}}', 'unknown key "extra"'),
        (f'{{"schema": "{SCHEMA}", "schema": "{SCHEMA}", "entries": []}}', '"schema" appears'),
        (f'{{"schema": "{SCHEMA}", "entries": [NaN]}}', "NaN is not a JSON value"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_document_level_problems(text: str | bytes, expected: str) -> None:
    assert expected in str(problem(text))


@pytest.mark.parametrize(
    ("entry", "key", "expected"),
    [
        ("[]", "entries[0]", "must be an object"),
        ('{"code": "INW001", "module": "a", "message": "m"}', "entries[0]", '"count" is missing'),
        (
            '{"code": "INW001", "module": "a", "message": "m", "count": 1, "line": 3}',
            "entries[0]",
            'unknown key "line"',
        ),
        ('{"code": 1, "module": "a", "message": "m", "count": 1}', "entries[0].code", "number 1"),
        (
            '{"code": "INW001", "module": " ", "message": "m", "count": 1}',
            "entries[0].module",
            "an empty string",
        ),
        (
            '{"code": "INW001", "module": "a", "message": null, "count": 1}',
            "entries[0].message",
            "not null",
        ),
        (
            '{"code": "INW001", "module": "a", "message": "m", "count": "2"}',
            "entries[0].count",
            'not the string "2"',
        ),
        (
            '{"code": "INW001", "module": "a", "message": "m", "count": 0}',
            "entries[0].count",
            "at least 1, not 0",
        ),
        (
            '{"code": "INW001", "module": "a", "message": "m", "count": true}',
            "entries[0].count",
            "not true",
        ),
        (
            '{"code": "INW001", "module": "a", "message": "m", "count": 1.5}',
            "entries[0].count",
            "the number 1.5",
        ),
    ],
)
def test_entry_problems_name_the_key_and_line(entry: str, key: str, expected: str) -> None:
    error = problem(good(entry))
    assert error.key == key
    assert error.line == 4
    assert expected in error.reason
    assert str(error).startswith(f"inwards-baseline.json:4: {key}: ")


def test_a_repeated_entry_names_both() -> None:
    same = '{"code": "INW001", "module": "a", "message": "m", "count": 1}'
    error = problem(good(f"{same},\n    {same}"))
    assert error.key == "entries[1]" and error.line == 5
    assert "repeats entries[0]" in error.reason


def test_entry_lines_ignore_braces_inside_strings() -> None:
    tricky = '{"code": "INW001", "module": "a{[", "message": "}\\"{", "count": 1},\n    ' + (
        '{"code": "INW002", "module": "a", "message": "m", "count": -1}'
    )
    error = problem(good(tricky))
    assert (error.key, error.line) == ("entries[1].count", 5)


def test_wrong_schema_names_its_line() -> None:
    error = problem('{\n  "entries": [],\n  "schema": "nope"\n}\n')
    assert (error.key, error.line) == ("schema", 3)


# Applying ---------------------------------------------------------------------------------


def test_accepted_findings_move_to_baselined_in_report_order() -> None:
    first, second = finding(3), finding(9)
    applied = apply_baseline(
        report(first, OTHER, second),
        Baseline((BaselineEntry(*finding_key(first), count=2),)),
        file="inwards-baseline.json",
    )
    assert applied.findings == (OTHER,)
    assert applied.baselined == (first, second)
    assert applied.baseline_resolved == ()
    assert applied.baseline_file == "inwards-baseline.json"
    assert applied.exit_code() == 1


def test_moving_an_import_keeps_it_accepted() -> None:
    baseline = build_baseline([finding(3)])
    applied = apply_baseline(report(finding(30)), baseline, file="b.json")
    assert applied.findings == () and applied.exit_code() == 0


def test_a_second_copy_of_an_accepted_import_fails() -> None:
    baseline = build_baseline([finding(3)])
    applied = apply_baseline(report(finding(3), finding(12)), baseline, file="b.json")
    assert applied.baselined == (finding(3),)
    assert applied.findings == (finding(12),)
    assert applied.exit_code() == 1


def test_the_full_message_may_change_when_the_stable_one_does_not() -> None:
    baseline = build_baseline([finding(3)])
    reworded = attrs.evolve(finding(3), message="Another direction sentence.")
    assert apply_baseline(report(reworded), baseline, file="b").findings == ()


def test_another_module_code_or_message_is_not_accepted() -> None:
    baseline = build_baseline([finding(3)])
    others = (
        finding(3, module="shop.domain.invoices"),
        finding(3, code="INW011"),
        finding(3, stable='Layer "domain" imports "shop.api" from the outer layer "web".'),
    )
    applied = apply_baseline(report(*others), baseline, file="b")
    assert applied.findings == others
    assert applied.baselined == ()


def test_warnings_are_not_accepted_even_with_a_matching_key() -> None:
    warning = finding(3, severity=Severity.WARNING)
    applied = apply_baseline(report(warning), build_baseline([finding(3)]), file="b")
    assert applied.findings == (warning,)
    assert applied.exit_code() == 0


def test_fixed_entries_are_resolved_with_the_number_no_longer_found() -> None:
    baseline = build_baseline([finding(3), finding(4), finding(5), OTHER])
    applied = apply_baseline(report(finding(3)), baseline, file="b")
    assert applied.baseline_resolved == (
        BaselineEntry(*finding_key(finding()), count=2),
        BaselineEntry(*finding_key(OTHER), count=1),
    )


def test_runs_over_named_paths_resolve_nothing() -> None:
    baseline = build_baseline([finding(3), OTHER])
    applied = apply_baseline(report(finding(3), whole_project=False), baseline, file="b")
    assert applied.baselined == (finding(3),)
    assert applied.baseline_resolved == ()


def test_an_empty_baseline_changes_nothing_but_says_it_was_read() -> None:
    original = report(finding(3), OTHER)
    applied = apply_baseline(original, Baseline(), file="b")
    assert attrs.evolve(applied, baseline_file=None) == original
    assert applied.baseline_file == "b"


def test_the_example_in_the_docs_is_what_inwards_writes() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "baseline.md").read_text("utf-8")
    example = re.search(r"```json\n(.*?)```", page, re.DOTALL)
    assert example is not None
    data = example.group(1).encode("utf-8")
    assert serialise_baseline(parse_baseline(data)) == data
