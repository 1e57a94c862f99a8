"""bench/scaling.py's line fit and its table; the measurements are made up, nothing is timed."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

SIZES = [500, 1_000, 2_000, 4_000, 9_000]


def test_a_straight_line_fits_exactly(bench_scaling: ModuleType) -> None:
    costs = [0.2 + 0.5 * size / 1000 for size in SIZES]  # 200 ms fixed, 500 ms per 1,000
    fit = bench_scaling.linear_fit(SIZES, costs)
    assert fit.slope * 1000 == pytest.approx(0.5)
    assert fit.intercept == pytest.approx(0.2)
    assert fit.r2 == pytest.approx(1.0)
    assert fit.exponent < 1  # the fixed cost makes it grow slower than the size
    assert fit.linear


def test_quadratic_growth_is_not_linear(bench_scaling: ModuleType) -> None:
    fit = bench_scaling.linear_fit(SIZES, [(size / 1000) ** 2 for size in SIZES])
    assert fit.exponent == pytest.approx(2.0)
    assert not fit.linear


def test_scattered_costs_have_a_low_r2(bench_scaling: ModuleType) -> None:
    fit = bench_scaling.linear_fit(SIZES, [1.0, 3.0, 1.0, 3.0, 1.5])
    assert fit.r2 < 0.5
    assert not fit.linear


def test_growth_exponent_between_the_extremes(bench_scaling: ModuleType) -> None:
    assert bench_scaling.growth_exponent([1000, 2000], [1.0, 2.0]) == pytest.approx(1.0)
    assert math.isnan(bench_scaling.growth_exponent([1000, 2000], [0.0, 2.0]))
    with pytest.raises(ValueError):
        bench_scaling.linear_fit([1000], [1.0])


def _results(bench_measure: ModuleType) -> list[object]:
    results = []
    for size in SIZES:
        for scenario, wall in (("cold", 0.1 + size / 10_000), ("warm", 0.05 + size / 40_000)):
            result = bench_measure.Result(f"m{size}", scenario, "ours", ["x"], ".")
            result.runs.append(bench_measure.Run(wall, wall, 0.0, 20_000 + size * 5, 1))
            results.append(result)
    return results


def test_the_table_has_a_line_per_size_and_a_fit_per_column(
    bench_measure: ModuleType, bench_scaling: ModuleType
) -> None:
    text = bench_scaling.scaling_table(_results(bench_measure), SIZES, {500: 605})
    lines = text.splitlines()
    assert lines[2].split()[:4] == ["500", "605", "150", "150"]  # cold wall and CPU, ms
    (cold,) = [line for line in lines if line.startswith("cold wall ")]
    assert "100.0 ms" in cold and cold.endswith("yes")  # 100 ms per 1,000 modules
    assert sum(1 for line in lines if line.endswith(("yes", "no"))) == 6


def test_a_size_without_numbers_leaves_its_columns_out(
    bench_measure: ModuleType, bench_scaling: ModuleType
) -> None:
    results = [r for r in _results(bench_measure) if (r.corpus, r.scenario) != ("m500", "warm")]
    text = bench_scaling.scaling_table(results, SIZES, {})
    assert "warm wall      n/a" in text
    assert "cold wall " in text


def test_sizes_are_parsed_sorted_and_checked(bench_scaling: ModuleType) -> None:
    assert bench_scaling.parse_arguments(["--sizes", "2000,500"]).sizes == [500, 2000]
    with pytest.raises(SystemExit):
        bench_scaling.parse_arguments(["--sizes", "500"])
