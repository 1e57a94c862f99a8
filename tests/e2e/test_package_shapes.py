"""INW007 package-shape and INW008 missing-member through the installed `inwards`: the
whole project, one named file, warnings only, and findings no comment hides."""

from __future__ import annotations

import json
from pathlib import Path

from tests.e2e.helpers import run_inwards, write_tree

CONFIG = """\
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
]

[[tool.inwards.shape]]
packages = ["shop.application"]
allow = ["ports/", "service"]
require = ["ports/", "service"]
forbid = ["helpers*"]

[[tool.inwards.shape]]
packages = ["shop.domain", "shop.billing"]
allow = ["order.py"]
extra = "warning"

[[tool.inwards.names]]
pattern = "test_*"
only-in = ["shop.tests"]
"""

FILES = {
    "pyproject.toml": CONFIG,
    "src/shop/__init__.py": "",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/order.py": "class Order: ...\n",
    "src/shop/domain/pricng.py": "",
    "src/shop/application/__init__.py": "",
    "src/shop/application/services.py": "from shop.domain.order import Order\n",
    "src/shop/application/helpers.py": "",
    "src/shop/application/test_services.py": "",
}


def findings(stdout: str) -> list[tuple[str, int, int, str, str]]:
    document = json.loads(stdout)
    return sorted(
        (f["file"], f["line"], f["column"], f["code"], f["severity"])
        for f in document["diagnostics"]
    )


def by_file(stdout: str) -> dict[tuple[str, str], dict[str, object]]:
    return {(f["file"], f["code"]): f for f in json.loads(stdout)["diagnostics"]}


def test_whole_project(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", FILES)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1, run.stderr
    assert findings(run.stdout) == [
        ("pyproject.toml", 15, 28, "INW007", "warning"),
        ("src/shop/application/__init__.py", 1, 1, "INW008", "error"),
        ("src/shop/application/__init__.py", 1, 1, "INW008", "error"),
        ("src/shop/application/helpers.py", 1, 1, "INW007", "error"),
        ("src/shop/application/services.py", 1, 1, "INW007", "error"),
        ("src/shop/application/test_services.py", 1, 1, "INW007", "error"),
        ("src/shop/domain/pricng.py", 1, 1, "INW007", "warning"),
    ]
    found = by_file(run.stdout)
    services = found[("src/shop/application/services.py", "INW007")]
    assert services["message"] == (
        'Package "shop.application" has a member "services.py" that its shape does not allow.'
    )
    fix = services["fix"]
    assert isinstance(fix, dict)
    assert fix["summary"] == 'Move the code of "services.py" into "service.py".'
    assert fix["steps"][0] == (
        "Move the code of `src/shop/application/services.py` into "
        "`src/shop/application/service.py` (the same word, singular or plural), update the "
        "imports of it, then delete `services.py`."
    )
    assert found[("src/shop/domain/pricng.py", "INW007")]["fix"]["steps"][0] == (  # type: ignore[index]
        'Package "shop.domain" may hold: `order.py`.'
    )
    misnamed = found[("src/shop/application/test_services.py", "INW007")]
    assert misnamed["fix"]["summary"] == (  # type: ignore[index]
        'Move "test_services.py" into a package where members named like "test_*" belong: '
        "`shop.tests`."
    )
    dead = found[("pyproject.toml", "INW007")]
    assert dead["message"] == (
        'Shape selector "shop.billing" (tool.inwards.shape[1]) names no package of this project.'
    )


def test_text_report_names_the_fix(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", FILES)
    run = run_inwards("check", cwd=project)
    assert run.code == 1
    assert (
        'src/shop/application/helpers.py:1:1: INW007 Package "shop.application" has a member '
        '"helpers.py" that its shape forbids.'
    ) in run.stdout
    assert (
        'src/shop/application/__init__.py:1:1: INW008 Package "shop.application" has no member "ports/", which its shape requires.'
        in run.stdout
    )
    assert "Otherwise create `src/shop/application/ports/__init__.py`" in run.stdout


def test_a_named_file_reports_its_member_and_skips_missing_members(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", FILES)
    run = run_inwards("check", "--format", "json", "src/shop/application/services.py", cwd=project)
    assert run.code == 1, run.stderr
    assert findings(run.stdout) == [
        ("src/shop/application/services.py", 1, 1, "INW007", "error"),
    ]
    notes = json.loads(run.stdout).get("notes", [])
    assert any("INW008" in note for note in notes), notes


def test_warnings_only_exit_zero(tmp_path: Path) -> None:
    files = {
        **FILES,
        "pyproject.toml": CONFIG.split("[[tool.inwards.shape]]")[0]
        + '[[tool.inwards.shape]]\npackages = ["shop.domain"]\nallow = ["order.py"]\n'
        'extra = "warning"\n',
    }
    project = write_tree(tmp_path / "p", files)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 0, run.stdout
    assert findings(run.stdout) == [("src/shop/domain/pricng.py", 1, 1, "INW007", "warning")]


def test_a_comment_does_not_hide_a_shape_finding(tmp_path: Path) -> None:
    files = {
        **FILES,
        "src/shop/application/helpers.py": ('# inwards: ignore[INW007] reason="we like helpers"\n'),
    }
    project = write_tree(tmp_path / "p", files)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert ("src/shop/application/helpers.py", "INW007") in by_file(run.stdout)


UNOWNED = {
    **FILES,
    "pyproject.toml": CONFIG
    + '\n[[tool.inwards.shape]]\npackages = ["tools"]\nallow = ["utils.py"]\n'
    + 'hints = ["Scripts go into utils.py."]\n',
    "src/tools/__init__.py": "",
    "src/tools/utils.py": "",
    "src/tools/helpers.py": "",
    "src/run.py": "",
}


def test_a_package_no_layer_owns_is_judged_on_the_whole_project(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", UNOWNED)
    run = run_inwards("check", "--format", "json", cwd=project)
    assert run.code == 1, run.stderr
    assert ("src/tools/helpers.py", "INW007") in by_file(run.stdout)


def test_a_named_file_no_layer_owns_is_judged(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "p", UNOWNED)
    run = run_inwards("check", "--format", "json", "src/tools/helpers.py", cwd=project)
    assert run.code == 1, run.stderr
    assert findings(run.stdout) == [("src/tools/helpers.py", 1, 1, "INW007", "error")]
    fix = by_file(run.stdout)[("src/tools/helpers.py", "INW007")]["fix"]
    assert "Scripts go into utils.py." in fix["steps"]  # type: ignore[index]
    clean = run_inwards("check", "src/tools/utils.py", cwd=project)
    assert clean.code == 0, clean.stdout + clean.stderr
    assert "1 file" in clean.stdout
    # A file that no layer owns and that is no member of a package is still not checked.
    other = run_inwards("check", "src/run.py", cwd=project)
    assert other.code == 2
    assert "src/run.py holds no module that a layer owns" in other.stderr
