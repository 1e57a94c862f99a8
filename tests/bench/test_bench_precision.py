"""bench/precision.py: the deterministic sample of a rule's findings, the judgements it
reuses, the errors on a malformed judgements file, the report's arithmetic, and a real
document of the installed CLI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SHOP = REPO / "examples" / "shop-violations"
CODE = "INW099"


def _diagnostic(file: str, line: int, message: str, code: str = CODE) -> dict[str, Any]:
    return {"code": code, "file": file, "line": line, "column": 1, "message": message}


def _document(path: Path, diagnostics: list[dict[str, Any]]) -> Path:
    document = {"schema": "inwards/diagnostics@1", "summary": {}, "diagnostics": diagnostics}
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _findings(precision: ModuleType, count: int, corpus: str = "c") -> list[Any]:
    return [
        precision.Finding(corpus, f"pkg/m{n % 7}.py", n + 1, 1 + n % 3, f"message {n}")
        for n in range(count)
    ]


def test_the_sample_is_deterministic_and_independent_of_input_order(
    bench_precision: ModuleType,
) -> None:
    findings = _findings(bench_precision, 60)
    first = bench_precision.sample(findings, CODE)
    assert len(first) == 20
    assert first == sorted(first)
    assert bench_precision.sample(list(reversed(findings)), CODE) == first
    assert bench_precision.sample(findings[30:] + findings[:30], CODE) == first
    assert bench_precision.sample(findings, "INW098") != first  # the seed is per rule
    # Pinned: a change to the seed or the drawing would silently orphan recorded judgements.
    assert sorted(f.line for f in first) == [
        8,
        13,
        14,
        18,
        19,
        23,
        28,
        29,
        31,
        32,
        33,
        37,
        38,
        39,
        43,
        44,
        49,
        51,
        58,
        59,
    ]


def test_gather_sorts_by_corpus_file_line_column_message(
    bench_precision: ModuleType, tmp_path: Path
) -> None:
    b = _document(tmp_path / "b.json", [_diagnostic("z.py", 1, "m"), _diagnostic("a.py", 9, "m")])
    a = _document(
        tmp_path / "a.INW099.json",
        [
            _diagnostic("a.py", 2, "y"),
            _diagnostic("a.py", 2, "x"),
            _diagnostic("a.py", 1, "o", "X"),
        ],
    )
    forward = bench_precision.gather([("b", b), ("a", a)], CODE)
    backward = bench_precision.gather([("a", a), ("b", b)], CODE)
    assert forward == backward
    assert [(f.corpus, f.file, f.line, f.message) for f in forward] == [
        ("a", "a.py", 2, "x"),
        ("a", "a.py", 2, "y"),
        ("b", "a.py", 9, "m"),
        ("b", "z.py", 1, "m"),
    ]
    assert bench_precision.corpus_of(a) == "a"


def test_a_named_round_draws_its_own_sample_of_the_size_asked(
    bench_precision: ModuleType,
) -> None:
    findings = _findings(bench_precision, 60)
    first = bench_precision.sample(findings, CODE)
    # Without a round name, size 20 is the first round's sample, whatever is passed.
    assert bench_precision.sample(findings, CODE, 20, "") == first
    fresh = bench_precision.sample(findings, CODE, 10, "round3")
    assert len(fresh) == 10 and fresh == sorted(fresh)
    assert bench_precision.sample(list(reversed(findings)), CODE, 10, "round3") == fresh
    assert bench_precision.sample(findings, CODE, 10, "round4") != fresh
    assert bench_precision.sample(findings, "INW098", 10, "round3") != fresh
    # A fresh draw, not the first round's cut short.
    assert fresh != bench_precision.sample(findings, CODE)[:10]
    # Pinned, as the first round's: a round's recorded judgements depend on it.
    assert sorted(f.line for f in fresh) == [1, 4, 7, 10, 15, 21, 23, 38, 44, 52]
    assert bench_precision.sample(findings[:7], CODE, 10, "round3") == sorted(findings[:7])


def test_a_round_reads_its_own_judgements_directory(
    bench_precision: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(
        tmp_path / "c.json", [_diagnostic(f"f{n}.py", 1, f"m{n}") for n in range(15)]
    )
    default = bench_precision.parse_arguments(["report", "--rule", CODE])
    assert (default.judgements, default.size, default.round_name) == (
        bench_precision.JUDGEMENTS_DIR,
        20,
        "",
    )
    named = bench_precision.parse_arguments(["report", "--rule", CODE, "--round", "round3"])
    assert named.judgements == bench_precision.JUDGEMENTS_DIR / "round3"
    round_dir = tmp_path / "round3"
    round_dir.mkdir()
    chosen = bench_precision.sample(
        bench_precision.gather([("c", document)], CODE), CODE, 5, "round3"
    )
    (round_dir / f"{CODE}.tsv").write_text(_tsv_line(chosen[0], "wrong") + "\n", "utf-8")
    arguments = ["report", "--rule", CODE, "--findings", str(document), "--size", "5"]
    assert (
        bench_precision.main([*arguments, "--round", "round3", "--judgements", str(round_dir)]) == 0
    )
    assert f"| {CODE} | 15 | 5 | 1 | 0 | 1 | 0.0% |" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("option", "value", "says"),
    [
        ("--size", "0", "at least 1"),
        ("--size", "ten", "at least 1"),
        ("--round", "../elsewhere", "a directory name"),
        ("--round", "", "a directory name"),
    ],
)
def test_a_bad_size_or_round_is_a_usage_error(
    bench_precision: ModuleType,
    option: str,
    value: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as raised:
        bench_precision.parse_arguments(["sample", "--rule", CODE, option, value])
    assert raised.value.code == 2
    assert says in capsys.readouterr().err


@pytest.mark.parametrize("count", [0, 1, 19, 20])
def test_the_sample_is_every_finding_up_to_twenty(bench_precision: ModuleType, count: int) -> None:
    findings = _findings(bench_precision, count)
    assert bench_precision.sample(findings, CODE) == sorted(findings)


def _tsv_line(finding: Any, verdict: str, reason: str = "because") -> str:
    return f"{finding.corpus}\t{finding.location}\t{finding.digest}\t{verdict}\t{reason}"


def test_judgements_are_reused_while_the_message_matches(bench_precision: ModuleType) -> None:
    findings = _findings(bench_precision, 3)
    changed = bench_precision.Finding("c", findings[2].file, 3, 1, "a reworded message")
    text = "\n".join(
        [
            "# corpus\tfile:line\tdigest\tverdict\treason",
            _tsv_line(findings[0], "right"),
            "",
            _tsv_line(findings[1], "wrong", "an awaited call"),
            _tsv_line(findings[2], "right"),
        ]
    )
    judgements = bench_precision.parse_judgements(text, "INW099.tsv")
    current = [findings[0], findings[1], changed]
    row = bench_precision.tally(CODE, current, judgements)
    assert (row.findings, row.sampled, row.judged, row.right, row.wrong) == (3, 3, 2, 1, 1)
    shown = bench_precision.render_sample(CODE, current, judgements, None)
    assert "1 unjudged" in shown
    assert f"c\tpkg/m2.py:3\t{changed.digest}\tright|wrong\treason" in shown
    assert "wrong: an awaited call" in shown
    assert "1 judgements match no sampled finding" in shown
    assert f"c pkg/m2.py:3 [{findings[2].digest}] right" in shown


def test_a_bad_input_exits_2_naming_it(
    bench_precision: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = _document(tmp_path / "c.json", [_diagnostic("f.py", 1, "m")])
    (tmp_path / f"{CODE}.tsv").write_text("c\tf.py:1\tnot-a-digest\tright\tok\n", "utf-8")
    arguments = ["sample", "--rule", CODE, "--findings", str(document)]
    assert bench_precision.main([*arguments, "--judgements", str(tmp_path)]) == 2
    assert f"{tmp_path / CODE}.tsv:1:10: expected 12" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text('{"schema": "other"}', "utf-8")
    assert (
        bench_precision.main(["report", "--rule", CODE, "--corpus", f"x={tmp_path}/bad.json"]) == 2
    )
    assert "not an inwards/diagnostics@1 document" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("line", "position", "says"),
    [
        ("c\tf.py:1\tabcdefabcdef\tright", "T.tsv:2:28", "expected 5"),
        ("c\tf.py:1\tabcdefabcdef\tright\tok\textra", "T.tsv:2:32", "found 6"),
        ("c\tf.py\tabcdefabcdef\tright\tok", "T.tsv:2:3", "file:line"),
        ("c\tf.py:1\tABC\tright\tok", "T.tsv:2:10", "hex"),
        ("c\tf.py:1\tabcdefabcdef\tmaybe\tok", "T.tsv:2:23", "right or wrong"),
        ("c\tf.py:1\tabcdefabcdef\twrong\t ", "T.tsv:2:29", "empty reason"),
        ("\tf.py:1\tabcdefabcdef\twrong\tok", "T.tsv:2:1", "empty corpus"),
    ],
)
def test_a_malformed_judgement_is_reported_at_its_position(
    bench_precision: ModuleType, line: str, position: str, says: str
) -> None:
    with pytest.raises(bench_precision.PrecisionError) as raised:
        bench_precision.parse_judgements("# header\n" + line + "\n", "T.tsv")
    assert str(raised.value).startswith(position + ": ")
    assert says in str(raised.value)


def test_a_second_judgement_of_the_same_finding_is_an_error(bench_precision: ModuleType) -> None:
    line = "c\tf.py:1\tabcdefabcdef\tright\tok"
    with pytest.raises(bench_precision.PrecisionError, match=r"^T.tsv:2:1: a second"):
        bench_precision.parse_judgements(f"{line}\n{line}\n", "T.tsv")


def test_the_report_counts_and_rounds(bench_precision: ModuleType) -> None:
    tallies = [
        bench_precision.Tally("INW012", 1234, 20, 17, 2),
        bench_precision.Tally("INW013", 3, 3, 3, 0),
        bench_precision.Tally("INW014", 0, 0, 0, 0),
    ]
    assert tallies[0].precision == "89.5%"  # 17 / 19, the unjudged one left out
    table = bench_precision.render_report(tallies, {}, "abc1234")
    assert "| INW012 | 1,234 | 20 | 19 | 17 | 2 | 89.5% | abc1234 |" in table
    assert "| INW013 | 3 | 3 | 3 | 3 | 0 | 100.0% | abc1234 |" in table
    assert "| INW014 | 0 | 0 | 0 | 0 | 0 | – | abc1234 |" in table


def test_a_real_document_of_the_installed_cli_is_read(
    bench_precision: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inwards = shutil.which("inwards", path=str(Path(sys.executable).parent))
    assert inwards is not None, "the `inwards` console script is not installed"
    copy = shutil.copytree(SHOP, tmp_path / "copies" / "shop")
    output = tmp_path / "shop.json"
    done = subprocess.run(
        [
            inwards,
            "check",
            "--no-cache",
            "--isolated",
            "--format",
            "json",
            "--select",
            "INW001",
            "-o",
            str(output),
        ],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    findings = bench_precision.gather([("shop", output)], "INW001")
    assert [(f.file, f.line) for f in findings] == [
        ("src/shop/adapters/inbound/http.py", 3),
        ("src/shop/application/reports.py", 6),
        ("src/shop/domain/discounts.py", 6),
    ]
    judgements = tmp_path / "judgements"
    judgements.mkdir()
    (judgements / "INW001.tsv").write_text(_tsv_line(findings[0], "right") + "\n", "utf-8")
    assert (
        bench_precision.main(
            [
                "sample",
                "--rule",
                "INW001",
                "--findings",
                str(output),
                "--root",
                str(tmp_path / "copies"),
                "--judgements",
                str(judgements),
            ]
        )
        == 0
    )
    shown = capsys.readouterr().out
    assert "INW001: 3 findings, 3 sampled" in shown
    assert "| from shop.adapters.outbound.sql_orders import SqlOrders" in shown
    assert "right: because" in shown and "2 unjudged" in shown


def test_every_recorded_judgements_file_parses(bench_precision: ModuleType) -> None:
    # The first round's files and each named round's directory: a malformed line would
    # only show when someone reruns that rule's report.
    files = sorted(bench_precision.JUDGEMENTS_DIR.rglob("*.tsv"))
    assert any(path.parent.name == "round3" for path in files)
    for path in files:
        bench_precision.parse_judgements(path.read_text(encoding="utf-8"), str(path))
