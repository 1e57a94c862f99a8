"""`as-packages` on inw.forbidden and inw.protected (false: an entry is the module it names,
not the modules below it, as import-linter's `as_packages = false`), and libraries as
protected modules of inw.protected."""

from __future__ import annotations

import pytest

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources
from inwards_core.api import check, installed_families, load_config_text, load_rules

FAMILIES = installed_families()
CONFIG = '[tool.inwards]\nlayers = [{ name = "app", modules = ["shop"] }]\n'


def _run(kind: str, options: str, files: dict[str, str]) -> list[Finding]:
    definition = (
        f'code = "ACME001"\nname = "acme"\nsummary = "s"\ncheck = "{kind}"\n\n[options]\n{options}'
    )
    rules = load_rules(
        FAMILIES, InMemoryRuleSources(FAMILIES, project={"ACME001.toml": definition})
    )
    assert rules.problems == ()
    report = check(load_config_text(CONFIG), InMemoryProjectFiles(files), rule_set=rules)
    return [f for f in report.findings if f.code == "ACME001"]


def _where(findings: list[Finding]) -> list[tuple[str, int]]:
    return sorted((f.file, f.span.line) for f in findings)


FORBIDDEN = {
    "shop/__init__.py": "",
    "shop/core/__init__.py": "import shop.util\n",
    "shop/core/inner.py": "import shop.util\nimport shop.lib.deep\n",
    "shop/util.py": "",
    "shop/lib/__init__.py": "",
    "shop/lib/deep.py": "",
}


@pytest.mark.parametrize(
    ("as_packages", "expected"),
    [
        (
            "true",
            [("shop/core/__init__.py", 1), ("shop/core/inner.py", 1), ("shop/core/inner.py", 2)],
        ),
        ("false", [("shop/core/__init__.py", 1)]),
    ],
)
def test_forbidden_direct_imports(as_packages: str, expected: list[tuple[str, int]]) -> None:
    options = f'modules = ["shop.core"]\nforbidden = ["shop.util", "shop.lib"]\nas-packages = {as_packages}\n'
    assert _where(_run("inw.forbidden", options, FORBIDDEN)) == expected


def test_forbidden_chain_starts_at_the_module_and_goes_through_those_below_it() -> None:
    files = {
        "shop/__init__.py": "",
        "shop/core/__init__.py": "from shop.core import inner\n",
        "shop/core/inner.py": "import shop.util\n",
        "shop/util.py": "",
    }
    options = 'modules = ["shop.core"]\nforbidden = ["shop.util"]\nindirect = true\n'
    packages = _run("inw.forbidden", options, files)
    assert _where(packages) == [("shop/core/inner.py", 1)]
    modules = _run("inw.forbidden", options + "as-packages = false\n", files)
    (chain,) = modules
    assert (chain.file, chain.span.line) == ("shop/core/__init__.py", 1)
    assert "shop.core.inner" in chain.message


def test_forbidden_library_entries_cover_what_is_imported_from_them() -> None:
    files = {"shop/__init__.py": "", "shop/core.py": "import requests.sessions\n"}
    options = 'modules = ["shop.core"]\nforbidden = ["requests"]\nas-packages = false\n'
    assert _where(_run("inw.forbidden", options, files)) == [("shop/core.py", 1)]


PROTECTED = {
    "shop/__init__.py": "",
    "shop/core/__init__.py": "",
    "shop/core/inner.py": "",
    "shop/core/helper.py": "import shop.core\n",
    "shop/other.py": "import shop.core.inner\n",
    "shop/api/__init__.py": "import shop.core\n",
    "shop/api/v1.py": "import shop.core\n",
}


@pytest.mark.parametrize(
    ("as_packages", "expected"),
    [
        ("true", [("shop/other.py", 1)]),
        ("false", [("shop/api/v1.py", 1), ("shop/core/helper.py", 1)]),
    ],
)
def test_protected_modules_and_importers(as_packages: str, expected: list[tuple[str, int]]) -> None:
    options = f'modules = ["shop.core"]\nimporters = ["shop.api"]\nas-packages = {as_packages}\n'
    assert _where(_run("inw.protected", options, PROTECTED)) == expected


def test_a_library_can_be_protected() -> None:
    files = {
        "shop/__init__.py": "",
        "shop/http/__init__.py": "",
        "shop/http/client.py": "import requests.sessions\nimport requests\n",
        "shop/views.py": "import json\nimport requests\nfrom requests.adapters import HTTPAdapter\n",
    }
    options = 'modules = ["requests"]\nimporters = ["shop.http"]\n'
    found = _run("inw.protected", options, files)
    assert _where(found) == [("shop/views.py", 2), ("shop/views.py", 3)]  # no dead-entry warning
    assert found[0].message == (
        '"shop.views" imports the protected module "requests": only "shop.http" and code '
        'inside "requests" may import it.'
    )
