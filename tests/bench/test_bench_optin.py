"""The opt-in variants of bench/run.py (issue 13): the synthetic project and Django with every
opt-in rule the timed inwards has turned on, and the 1.5x target against the default run.
No timing is asserted: only the configuration written and the arithmetic of the verdict."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import ModuleType

import pytest

BASE = """\
# a base project
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "api", modules = ["shop.api"] },
]
"""


def _layout(bench_corpora: ModuleType) -> object:
    return bench_corpora.OptInLayout(("domain", "api"), ("shop.infra",), ("shop.api",))


def test_every_opt_in_rule_is_turned_on_with_a_role_and_a_diagram(
    bench_corpora: ModuleType,
) -> None:
    optin = bench_corpora.OptIn(bench_corpora.OPTIN_CODES, diagrams_key=True)
    text = bench_corpora.optin_pyproject(BASE, optin, _layout(bench_corpora))
    tool = tomllib.loads(text)["tool"]["inwards"]
    assert tool["layers"][0]["name"] == "domain"
    assert tool["diagrams"] == [bench_corpora.DIAGRAM_FILE]
    assert tool["rules"]["extend-select"] == [f"INW0{n}" for n in range(12, 20)]
    assert tool["rules"]["construct-only-in"] == {
        "role": ["shop.infra"],
        "allowed-in": ["shop.api"],
    }


def test_only_the_rules_the_timed_inwards_has_are_turned_on(bench_corpora: ModuleType) -> None:
    optin = bench_corpora.OptIn(("INW012", "INW014"), diagrams_key=True)
    tool = tomllib.loads(bench_corpora.optin_pyproject(BASE, optin, _layout(bench_corpora)))
    rules = tool["tool"]["inwards"]["rules"]
    assert rules == {"extend-select": ["INW012", "INW014"]}
    assert "diagrams" not in tool["tool"]["inwards"]  # no diagram rule: no diagram either
    no_key = bench_corpora.OptIn(("INW017",), diagrams_key=False)
    assert not no_key.diagrams


def test_the_diagram_draws_each_layer_importing_the_next_inner_one(
    bench_corpora: ModuleType,
) -> None:
    page = bench_corpora.layers_diagram(("domain", "application", "api"))
    block = page.split("```mermaid\n", 1)[1].split("```", 1)[0].splitlines()
    assert block == [
        "%% inwards: layers",
        "flowchart TD",
        "    api --> application",
        "    application --> domain",
    ]


def test_prepare_optin_copies_the_base_and_adds_config_and_diagram(
    bench_corpora: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_corpora, "OUT_DIR", tmp_path / "out")
    base_dir = tmp_path / "base"
    (base_dir / "src" / "shop").mkdir(parents=True)
    (base_dir / "src" / "shop" / "__init__.py").write_text("", encoding="utf-8")
    (base_dir / "pyproject.toml").write_text(BASE, encoding="utf-8")
    base = bench_corpora.Corpus("synthetic", base_dir, "src", "src/shop/__init__.py", "2 files")
    optin = bench_corpora.OptIn(("INW015", "INW018"), diagrams_key=True)
    corpus = bench_corpora.prepare_optin(base, "synthetic-optin", optin, _layout(bench_corpora))
    assert corpus.key == "synthetic-optin" and corpus.unavailable == ""
    assert corpus.source == tmp_path / "out" / "synthetic-optin"
    assert (corpus.source / "src" / "shop" / "__init__.py").is_file()
    assert "INW015, INW018 on" in corpus.description
    diagram = corpus.source / bench_corpora.DIAGRAM_FILE
    assert "%% inwards: layers" in diagram.read_text(encoding="utf-8")
    assert (base_dir / "pyproject.toml").read_text(encoding="utf-8") == BASE  # base untouched


def test_prepare_optin_says_why_it_cannot(bench_corpora: ModuleType, tmp_path: Path) -> None:
    base = bench_corpora.Corpus("django", tmp_path, ".", "x.py", "d")
    layout = _layout(bench_corpora)
    unknown = bench_corpora.prepare_optin(base, "django-optin", None, layout)
    assert unknown.source is None and "could not list the rules" in unknown.unavailable
    none = bench_corpora.prepare_optin(base, "django-optin", bench_corpora.OptIn((), True), layout)
    assert none.source is None and "has none of INW012" in none.unavailable
    missing = bench_corpora.Corpus("django", None, ".", "", "", unavailable="no django")
    assert bench_corpora.prepare_optin(missing, "django-optin", None, layout).unavailable == (
        "no django"
    )


def test_the_run_offers_the_opt_in_variants(bench_run: ModuleType) -> None:
    args = bench_run.parse_arguments(["--corpora", "django-optin,synthetic-optin,synthetic"])
    assert args.corpora == ["synthetic", "synthetic-optin", "django-optin"]


def _result(bench_measure: ModuleType, corpus: str, scenario: str, wall: float) -> object:
    result = bench_measure.Result(corpus, scenario, "ours", ["inwards"], ".")
    result.runs.append(bench_measure.Run(wall, wall, 0.0, 1000, 0))
    return result


def test_the_opt_in_target_is_one_and_a_half_times_the_default_run(
    bench_run: ModuleType, bench_measure: ModuleType
) -> None:
    results = [
        _result(bench_measure, "synthetic", "cold", 0.400),
        _result(bench_measure, "synthetic-optin", "cold", 0.560),
        _result(bench_measure, "synthetic", "warm", 0.100),
        _result(bench_measure, "synthetic-optin", "warm", 0.200),
    ]
    targets = bench_run.optin_targets(results, ["synthetic", "synthetic-optin"])
    verdicts = {t.text: (t.verdict, t.detail) for t in targets}
    assert verdicts["cold <= 1.5x synthetic cold"] == ("met", "560 ms vs limit 600 ms (1.40x)")
    assert verdicts["warm <= 1.5x synthetic warm"][0] == "NOT met"
    assert bench_run.optin_targets(results, ["synthetic-optin"]) == []  # no base, no verdict
