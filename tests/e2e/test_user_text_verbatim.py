"""Braces, brackets and `%` from the checked project come out as written, through the
installed `inwards`, in every format: in imported names, file and package names, statements,
comments, and beside a project rule's guidance that writes braces with `{{` and `}}`.
(inwards 0.1 crashed with `TypeError: string indices must be integers` on the first
dynamic import below.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree

LOADS = (
    'importlib.import_module(f"shop.{parts[-1]}")',
    "importlib.import_module(f\"{cfg['mod']}.x\")",
    'importlib.import_module("shop.%s" % name)',
)
STATEMENT = "__import__('shop.infra.db', {}, {}, ['{module}', '{x[-1]}', '%s', '{{'])"
GUIDED = "__import__('shop.infra.cache', {}, {}, ['{file}', '[0]', '%(a)s'])"
# Files whose names are not identifiers: whatever inwards says of them names them as they are.
ODD_FILES = (
    "shop/domain/{layer}[0]%s.py",
    "shop/app/100%_{module}.py",
    "shop/{{cookiecutter.name}}/settings.py",
    "shop/[draft]/__init__.py",
)
PROJECT: dict[str, str] = {
    "pyproject.toml": (
        "[tool.inwards]\n"
        "layers = [\n"
        '  { name = "domain", modules = ["shop.domain"] },\n'
        '  { name = "app", modules = ["shop.app", "shop.infra"] },\n'
        "]\n"
    ),
    ".inwards/rules/ACME001.toml": (
        'code = "ACME001"\n'
        'name = "domain-without-cache"\n'
        'summary = "The domain imports the cache."\n'
        'check = "inw.forbidden"\n'
        "\n"
        "[options]\n"
        'modules = ["shop.domain"]\n'
        'forbidden = ["shop.infra.cache"]\n'
        "\n"
        "[guidance]\n"
        'summary = "Keep {{ {forbidden} }} out of {module} ({{module}}), 100%."\n'
        'steps = ["Delete `{statement}` from {file} ({{statement}}, [0], %s)."]\n'
    ),
    ".inwards/rules/ACME002.toml": (
        'code = "ACME002"\n'
        'name = "domain-without-db"\n'
        'summary = "The domain imports the database."\n'
        'check = "inw.forbidden"\n'
        "\n"
        "[options]\n"
        'modules = ["shop.domain"]\n'
        'forbidden = ["shop.infra.db"]\n'
    ),
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/loader.py": (
        "import importlib\n\n"
        + "".join(f"def f{n}(parts, cfg, name):\n    {call}\n" for n, call in enumerate(LOADS))
    ),
    "shop/domain/order.py": f"{STATEMENT}  # {{layer}} [x] %s\n{GUIDED}\n",
    "shop/app/__init__.py": "",
    "shop/infra/__init__.py": "",
    "shop/infra/db.py": "",
    "shop/infra/cache.py": "",
    **dict.fromkeys(ODD_FILES, "import shop.infra.db  # {statement} [1] %d\n"),
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tree(tmp_path_factory.mktemp("verbatim"), PROJECT)


def test_text_quotes_the_projects_text_as_written(project: Path) -> None:
    # Every finding's steps (by default only a rule's first finding shows them).
    run = run_inwards("check", "--no-cache", "--show-fixes", cwd=project)
    assert (run.code, run.stderr) == (1, ""), run.stdout + run.stderr
    for call in LOADS:
        assert f"`{call}` always loads the same module" in run.stdout, call
    assert f'fix: Keep "shop.infra.db" out of "shop.domain".\n    1. Delete `{STATEMENT}`.\n' in (
        run.stdout
    )
    assert "fix: Keep { shop.infra.cache } out of shop.domain.order ({module}), 100%." in run.stdout
    assert f"Delete `{GUIDED}` from shop/domain/order.py ({{statement}}, [0], %s)." in run.stdout


def test_json_names_every_file_as_it_is_on_disk(project: Path) -> None:
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, run.stderr) == (1, ""), run.stderr
    findings = json.loads(run.stdout)["diagnostics"]
    files = {finding["file"] for finding in findings}
    assert all((project / file).exists() for file in files), sorted(files)
    # The odd files are modules too (importlib loads them): only order.py's findings here.
    fixes = {
        f["code"]: f["fix"]
        for f in findings
        if f["code"] in ("ACME001", "ACME002") and f["file"] == "shop/domain/order.py"
    }
    assert fixes["ACME002"]["steps"] == [f"Delete `{STATEMENT}`."]
    assert fixes["ACME001"]["summary"] == (
        "Keep { shop.infra.cache } out of shop.domain.order ({module}), 100%."
    )


@pytest.mark.parametrize("output", ["concise", "sarif", "github"])
def test_every_format_runs(project: Path, output: str) -> None:
    run = run_inwards("check", "--no-cache", "--format", output, cwd=project)
    assert (run.code, run.stderr) == (1, ""), run.stderr
    if output == "concise":
        assert f"Delete `{STATEMENT}`." in run.stdout
    if output == "github":  # `%` is the toolkit's escape: written as %25
        assert "shop.infra.cache %7D out of" not in run.stdout
        assert "({module}), 100%25." in run.stdout
