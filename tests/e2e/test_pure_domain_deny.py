"""INW005's `deny` through the installed `inwards`: findings, and a bad entry as exit 2."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"], allow-libraries = ["requests"] },
]

[tool.inwards.rules.pure-domain]
deny = [{ modules = ["shop.*.reports", "shop.scripts"], libraries = ["requests"] }]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/application/__init__.py": "",
    "shop/application/orders.py": "import requests\n",
    "shop/application/reports/__init__.py": "",
    "shop/application/reports/monthly.py": "import csv\nimport requests\n",
    "shop/scripts/__init__.py": "",
    "shop/scripts/sync.py": "from requests import Session\n",
}


def test_deny_reports_in_and_outside_the_layers(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, run.stderr) == (1, ""), run.stdout + run.stderr
    found = [
        (d["file"], d["line"], d["fix"]["summary"])
        for d in json.loads(run.stdout)["diagnostics"]
        if d["code"] == "INW005"
    ]
    assert found == [
        (
            "shop/application/reports/monthly.py",
            2,
            'Keep "requests" out of "shop.*.reports": use it elsewhere, behind a port that '
            "`shop.application.reports.monthly` owns.",
        ),
        (
            "shop/scripts/sync.py",
            1,
            'Keep "requests" out of "shop.scripts": use it elsewhere, behind a port that '
            "`shop.scripts.sync` owns.",
        ),
    ]


def test_a_bad_entry_names_file_line_and_key(tmp_path: Path) -> None:
    bad = PYPROJECT.replace('libraries = ["requests"] }]', 'libraries = ["python-dateutil"] }]')
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert (
        "pyproject.toml:8:57: tool.inwards.rules.pure-domain.deny[0].libraries: "
        '"python-dateutil" is not an import name' in run.stderr
    ), run.stderr


def test_the_schema_takes_deny() -> None:
    assert_valid(tomllib.loads(PYPROJECT), "pyproject")
