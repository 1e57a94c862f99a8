"""Hostile diagram files for the diagram rules (INW017-INW019): megabytes of links, quotes
and brackets never closed, twenty thousand nested boxes, bytes that are not UTF-8, a glob of
many `**` over a deep tree. Each run ends within its budget, exit 0 (warnings only), with
a bounded number of findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.harness import LAYERED_CONFIG, Budget, layered_project, run_limited

QUICK = Budget(seconds=15, memory_mb=2048)
RULES = '\n[tool.inwards.rules]\nextend-select = ["INW017", "INW018", "INW019"]\n'


def _config(diagrams: str) -> str:
    return (
        LAYERED_CONFIG.replace("[tool.inwards]\n", f"[tool.inwards]\ndiagrams = {diagrams}\n")
        + RULES
    )


def _run(tmp_path: Path, files: dict[str, str | bytes], diagrams: str) -> list[dict[str, object]]:
    layered_project(tmp_path, files, _config(diagrams))
    run = run_limited("check", "--no-cache", "--format", "json", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output[-2000:]
    diagnostics: list[dict[str, object]] = json.loads(run.stdout)["diagnostics"]
    return diagnostics


MERMAID = "%% inwards: layers\nflowchart TB\n"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(MERMAID + "a-->" * 250_000 + "\n", id="one-line-of-links"),
        pytest.param(
            MERMAID + "".join(f"  n{i} --> n{i + 1} & domain\n" for i in range(40_000)),
            id="links-over-many-lines",
        ),
        pytest.param(MERMAID + 'a["' * 300_000 + "\n" + "[(" * 300_000, id="unclosed-quotes"),
        pytest.param(MERMAID + "  subgraph x\n" * 50_000, id="unclosed-subgraphs"),
    ],
)
def test_megabytes_of_mermaid(tmp_path: Path, text: str) -> None:
    found = _run(tmp_path, {"docs/a.mmd": text}, '["docs/*.mmd"]')
    assert all(d["code"] == "INW017" for d in found)
    assert len(found) <= 5_100  # a node each at most (5,000 read), problems counted past 20


@pytest.mark.parametrize(
    ("depth", "codes"),
    [
        pytest.param(4_000, ["INW018"], id="within-the-node-bound"),
        pytest.param(20_000, ["INW017"], id="past-the-node-bound"),  # "more than 5,000 nodes"
    ],
)
def test_thousands_of_nested_plantuml_packages(
    tmp_path: Path, depth: int, codes: list[str]
) -> None:
    text = (
        "@startuml\n' inwards: layers\n"
        + "".join(f"package p{i} {{\n" for i in range(depth))
        + "[shop.domain] as domain\n"
        + "}\n" * depth
        + "domain --> adapters\n@enduml\n"
    )
    found = _run(tmp_path, {"docs/a.puml": text}, '["docs/*.puml"]')
    assert [d["code"] for d in found] == codes


def test_bytes_that_are_not_utf8_are_not_checked(tmp_path: Path) -> None:
    layered_project(tmp_path, {"docs/a.md": b"\xff" * 1_000_000}, _config('["docs/*.md"]'))
    run = run_limited("check", "--no-cache", "--format", "json", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output[-2000:]
    document = json.loads(run.stdout)
    assert document["diagnostics"] == []
    assert [n["path"] for n in document["notChecked"]] == ["docs/a.md"]


def test_a_glob_of_many_double_stars_over_a_deep_tree(tmp_path: Path) -> None:
    deep = "/".join(["d"] * 60)
    glob = "/".join(["**"] * 30) + "/x.md"
    found = _run(tmp_path, {f"{deep}/y.md": "nothing\n"}, f'["{glob}"]')
    assert [d["message"] for d in found] == [f'The diagrams entry "{glob}" matches no file.']
