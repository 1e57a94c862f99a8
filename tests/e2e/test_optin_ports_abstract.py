"""INW014 ports-abstract through the installed `inwards`: off by default, on with
`extend-select`, options from its table, the same findings cold and from the cache."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from tests.e2e.helpers import assert_valid, run_inwards, write_tree

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""
ON = """
[tool.inwards.rules]
extend-select = ["INW014"]

[tool.inwards.rules.ports-abstract]
modules = ["shop.application.ports", "shop.application.gateways"]
extend-allow-bases = ["shop.domain.values"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/values.py": "class Value:\n    pass\n",
    "shop/application/__init__.py": "",
    "shop/application/ports/__init__.py": "from .mail import Mailer\n",
    "shop/application/ports/mail.py": (
        "from typing import Protocol\n\n\n"
        "class Mailer(Protocol):\n"
        "    def send(self, to: str) -> None: ...\n\n\n"
        "class SmtpMailer(Mailer):\n"
        "    def send(self, to: str) -> None:\n"
        "        print(to)\n"
    ),
    "shop/application/gateways.py": (
        "from shop.domain.values import Value\n\n\n"
        "class Price(Value):\n"
        "    def cents(self) -> int:\n"
        "        return 1\n"
    ),
    "shop/infrastructure/__init__.py": "",
    "shop/application/service.py": "class Service:\n    def run(self) -> int:\n        return 1\n",
}


def _findings(stdout: str) -> list[tuple[str, int, str, str]]:
    return [
        (d["file"], d["line"], d["message"], d["fix"]["summary"])
        for d in json.loads(stdout)["diagnostics"]
        if d["code"] == "INW014"
    ]


def test_off_by_default(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT, **FILES})
    run = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (run.code, _findings(run.stdout)) == (0, []), run.stdout + run.stderr


def test_on_with_extend_select_and_the_same_from_the_cache(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    expected = [
        (
            "shop/application/ports/mail.py",
            8,
            "`SmtpMailer` in port module `shop.application.ports.mail` implements the port "
            "`Mailer`: `send` does work, which belongs in an adapter.",
            "Move `SmtpMailer`, an implementation of `Mailer`, out of "
            "`shop.application.ports.mail` into an adapter.",
        )
    ]
    cold = run_inwards("check", "--no-cache", "--format", "json", cwd=project)
    assert (cold.code, cold.stderr) == (1, ""), cold.stdout + cold.stderr
    assert _findings(cold.stdout) == expected
    for _ in range(2):  # fills the cache, then reads from it
        warm = run_inwards("check", "--format", "json", cwd=project)
        assert (warm.code, _findings(warm.stdout)) == (1, expected), warm.stdout + warm.stderr


def test_a_path_run_judges_the_named_port_module(tmp_path: Path) -> None:
    project = write_tree(tmp_path, {"pyproject.toml": PYPROJECT + ON, **FILES})
    run = run_inwards("check", "--format", "json", "shop/application/ports/mail.py", cwd=project)
    assert [f[:2] for f in _findings(run.stdout)] == [("shop/application/ports/mail.py", 8)]


def test_a_bad_option_is_a_config_error(tmp_path: Path) -> None:
    bad = PYPROJECT + ON.replace('extend-allow-bases = ["shop.domain.values"]', "allow-bases = 3")
    project = write_tree(tmp_path, {"pyproject.toml": bad, **FILES})
    run = run_inwards("check", cwd=project)
    assert (run.code, run.stdout) == (2, "")
    assert "tool.inwards.rules.ports-abstract.allow-bases" in run.stderr, run.stderr


def test_the_schema_takes_the_options() -> None:
    assert_valid(tomllib.loads(PYPROJECT + ON), "pyproject")
