"""bench/startup.py's parsing of ``python -X importtime`` and its sums; nothing is timed."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

SAMPLE = """\
import time: self [us] | cumulative | imported package
import time:        99 |         99 |   _io
import time:       192 |        522 | _frozen_importlib_external
import time:       300 |        300 |     attr._make
import time:       100 |        400 |   attr
import time:      1500 |       2000 | inwards_cli.main
Found 0 errors in 1 file (3.0 ms).
import time: garbled line
"""


def test_parse_importtime_reads_names_levels_and_costs(bench_startup: ModuleType) -> None:
    lines = bench_startup.parse_importtime(SAMPLE)
    assert [(line.name, line.level, line.self_us, line.cumulative_us) for line in lines] == [
        ("_io", 1, 99, 99),
        ("_frozen_importlib_external", 0, 192, 522),
        ("attr._make", 2, 300, 300),
        ("attr", 1, 100, 400),
        ("inwards_cli.main", 0, 1500, 2000),
    ]


@pytest.mark.parametrize(
    ("module", "kind"),
    [
        ("inwards_core.model.facts", "ours"),
        ("inwards_cli", "ours"),
        ("json.decoder", "stdlib"),
        ("_io", "stdlib"),
        ("sys", "stdlib"),
        ("attr._make", "third party"),
        ("pluggy", "third party"),
    ],
)
def test_kind_of_tells_ours_from_the_stdlib_and_third_party(
    bench_startup: ModuleType, module: str, kind: str
) -> None:
    assert bench_startup.kind_of(module) == kind


def test_costs_are_medians_over_runs_and_totals_add_self_times(bench_startup: ModuleType) -> None:
    first = bench_startup.parse_importtime(SAMPLE)
    slower = bench_startup.parse_importtime(
        SAMPLE.replace("1500 |       2000", "2500 |       3000")
    )
    third = bench_startup.parse_importtime(SAMPLE.replace("1500 |       2000", "1700 |       2200"))
    costs = {cost.name: cost for cost in bench_startup.module_costs([first, slower, third])}
    assert costs["inwards_cli.main"].self_ms == pytest.approx(1.7)
    assert costs["inwards_cli.main"].cumulative_ms == pytest.approx(2.2)
    assert costs["attr"].kind == "third party"

    totals = bench_startup.run_totals([first])
    assert totals["all"] == pytest.approx(2.191)
    assert totals["ours"] == pytest.approx(1.5)
    assert totals["stdlib"] == pytest.approx(0.291)
    assert totals["third party"] == pytest.approx(0.4)


def test_packages_add_up_their_modules(bench_startup: ModuleType) -> None:
    costs = bench_startup.module_costs([bench_startup.parse_importtime(SAMPLE)])
    ranked = bench_startup.package_costs(costs)
    assert ranked[0] == ("inwards_cli", "ours", pytest.approx(1.5), 1)
    assert ("attr", "third party", pytest.approx(0.4), 2) in ranked


def test_top_table_ranks_by_the_asked_cost(bench_startup: ModuleType) -> None:
    costs = bench_startup.module_costs([bench_startup.parse_importtime(SAMPLE)])
    rows = bench_startup.top_table(costs, "cumulative_ms", 2).splitlines()
    assert len(rows) == 3  # the header and two modules
    assert rows[1].endswith("inwards_cli.main") and rows[2].endswith("_frozen_importlib_external")


def test_script_python_reads_the_shebang(bench_startup: ModuleType, tmp_path: Path) -> None:
    script = tmp_path / "inwards"
    script.write_text("#!/venv/bin/python3 -E\nimport sys\n", encoding="utf-8")
    assert bench_startup.script_python(script) == Path("/venv/bin/python3")
    binary = tmp_path / "binary"
    binary.write_bytes(b"\x7fELF\x02")
    assert bench_startup.script_python(binary) is None
    assert bench_startup.script_python(tmp_path / "missing") is None
