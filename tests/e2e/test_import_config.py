"""`inwards import-config` end to end: the command's files, report and exit codes, and
the proof that a converted project gives lint-imports' verdict for every contract.

Each case is a small project with an import-linter configuration: it is converted, then
checked by `inwards check` and by the real `lint-imports` (the test extra installs
import-linter). Per contract, broken for lint-imports ⇔ at least one error finding of its
rule; the exit codes agree too (a run lint-imports stops, such as an unmatched ignore,
prints no verdicts and exits 1: ours must exit 1).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.e2e.helpers import run_inwards, write_tree
from tests.e2e.import_linter_runs import (
    contract_codes,
    covers,
    module_file,
    run_check,
    run_lint_imports,
)

BASE = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/model.py": "VALUE = 1\n",
    "shop/service/__init__.py": "",
    "shop/service/logic.py": "from shop.domain import model\n",
    "shop/api/__init__.py": "",
    "shop/api/views.py": "from shop.service import logic\n",
    "shop/helpers.py": "",
    "shop/units/__init__.py": "",
    "shop/units/a.py": "",
    "shop/units/b.py": "",
    "shop/units/c.py": "",
    "tests/test_shop.py": "import shop.api.views\nimport shop.domain.model\n",
}
HEADER = "[importlinter]\nroot_package = shop\n"
LAYERS = """
[importlinter:contract:layers]
name = Layers
type = layers
layers =
    shop.api
    shop.service
    shop.domain
"""

FORBIDDEN_API = """
[importlinter:contract:f]
name = Forbidden
type = forbidden
source_modules = shop.domain
forbidden_modules = shop.api
"""
MISSING_API = "from shop.api.legacy import Thing\n"

# id: (extra session options, contracts, files changed or added)
CASES: dict[str, tuple[str, str, dict[str, str]]] = {
    "layers-kept": ("", LAYERS, {}),
    "layers-direct": ("", LAYERS, {"shop/domain/model.py": "import shop.api.views\n"}),
    "layers-chain": (
        "",
        LAYERS,
        {"shop/domain/model.py": "import shop.helpers\n", "shop/helpers.py": "import shop.api\n"},
    ),
    "layers-containers-siblings": (
        "",
        """
[importlinter:contract:c]
name = Containers
type = layers
containers = shop
layers =
    api
    service : helpers
    domain
exhaustive = true
exhaustive_ignores =
    units
""",
        {
            "shop/service/logic.py": "import shop.helpers\n",
            "shop/helpers.py": "import shop.service\n",
        },
    ),
    "layers-independent-siblings": (
        "",
        """
[importlinter:contract:c]
name = Independent siblings
type = layers
containers = shop
layers =
    api
    service | helpers
    domain
exhaustive = true
exhaustive_ignores =
    units
""",
        {"shop/helpers.py": "import shop.service.logic\n"},
    ),
    "layers-not-exhaustive": (
        "",
        """
[importlinter:contract:c]
name = Exhaustive
type = layers
containers = shop
layers =
    api
    service
    domain
exhaustive = true
""",
        {},
    ),
    "layers-optional-missing": (
        "",
        """
[importlinter:contract:c]
name = Optional
type = layers
containers = shop
layers =
    api
    (web)
    service
    domain
""",
        {},
    ),
    "layers-missing": (
        "",
        """
[importlinter:contract:c]
name = Missing
type = layers
containers = shop
layers =
    api
    web
    service
    domain
""",
        {},
    ),
    "layers-single-present": (
        "",
        "\n[importlinter:contract:c]\nname = Single\ntype = layers\nlayers = shop.api\n",
        {},
    ),
    "layers-single-missing": (
        "",
        "\n[importlinter:contract:c]\nname = Single\ntype = layers\nlayers = shop.web\n",
        {},
    ),
    "layers-one-group": (
        "",
        """
[importlinter:contract:c]
name = One group
type = layers
containers = shop.units
layers =
    a | b | c
""",
        {"shop/units/c.py": "from shop.units import a\n"},
    ),
    "independence-chain": (
        "",
        """
[importlinter:contract:i]
name = Units
type = independence
modules =
    shop.units.a
    shop.units.b
""",
        {"shop/units/a.py": "import shop.helpers\n", "shop/helpers.py": "import shop.units.b\n"},
    ),
    "independence-ignored-wildcards": (
        "",
        """
[importlinter:contract:i]
name = Units
type = independence
modules =
    shop.units.a
    shop.units.b
ignore_imports =
    shop.* -> shop.units.**
""",
        {"shop/units/a.py": "import shop.helpers\n", "shop/helpers.py": "import shop.units.b\n"},
    ),
    "unmatched-ignore": (
        "",
        """
[importlinter:contract:i]
name = Units
type = independence
modules =
    shop.units.a
    shop.units.b
ignore_imports =
    shop.nothing -> shop.units.b
""",
        {},
    ),
    "unmatched-ignore-warn": (
        "",
        """
[importlinter:contract:i]
name = Units
type = independence
modules =
    shop.units.a
    shop.units.b
ignore_imports =
    shop.nothing -> shop.units.b
unmatched_ignore_imports_alerting = warn
""",
        {},
    ),
    "forbidden-chain": (
        "",
        """
[importlinter:contract:f]
name = Forbidden
type = forbidden
source_modules = shop.domain
forbidden_modules = shop.api
""",
        {"shop/domain/model.py": "import shop.helpers\n", "shop/helpers.py": "import shop.api\n"},
    ),
    "forbidden-indirect-allowed": (
        "",
        """
[importlinter:contract:f]
name = Forbidden
type = forbidden
source_modules = shop.domain
forbidden_modules = shop.api
allow_indirect_imports = True
""",
        {"shop/domain/model.py": "import shop.helpers\n", "shop/helpers.py": "import shop.api\n"},
    ),
    "forbidden-not-as-packages": (
        "",
        """
[importlinter:contract:f]
name = Forbidden
type = forbidden
source_modules = shop.domain
forbidden_modules = shop.api
as_packages = False
""",
        {"shop/domain/model.py": "import shop.api.views\n"},
    ),
    "forbidden-external": (
        "include_external_packages = True\n",
        """
[importlinter:contract:f]
name = No requests
type = forbidden
source_modules = shop.domain
forbidden_modules = requests
""",
        {"shop/domain/model.py": "import shop.helpers\n", "shop/helpers.py": "import requests\n"},
    ),
    "forbidden-wildcards": (
        "",
        """
[importlinter:contract:f]
name = Forbidden wildcards
type = forbidden
source_modules = shop.*.model
forbidden_modules = shop.**.views
""",
        {
            "shop/domain/model.py": "import shop.helpers\n",
            "shop/helpers.py": "import shop.api.views\n",
        },
    ),
    "forbidden-recursive-wildcard": (
        "",
        """
[importlinter:contract:f]
name = Recursive wildcard
type = forbidden
source_modules = shop.**.model
forbidden_modules = shop.helpers
""",
        {"shop/model.py": "import shop.helpers\n"},
    ),
    "protected": (
        "",
        """
[importlinter:contract:p]
name = Protected
type = protected
protected_modules = shop.domain
allowed_importers = shop.service
""",
        {"shop/api/views.py": "from shop.domain import model\n"},
    ),
    "protected-external": (
        "include_external_packages = True\n",
        """
[importlinter:contract:p]
name = Protected library
type = protected
protected_modules = requests
allowed_importers = shop.service
""",
        {"shop/api/views.py": "import requests\n", "shop/service/logic.py": "import requests\n"},
    ),
    "protected-not-as-packages": (
        "",
        """
[importlinter:contract:p]
name = Protected module only
type = protected
protected_modules = shop.domain
allowed_importers = shop.service
as_packages = False
""",
        {"shop/api/views.py": "from shop.domain import model\n"},
    ),
    "protected-kept": (
        "",
        """
[importlinter:contract:p]
name = Protected
type = protected
protected_modules = shop.domain
allowed_importers = shop.service
""",
        {},
    ),
    "acyclic": (
        "",
        """
[importlinter:contract:a]
name = Acyclic
type = acyclic_siblings
ancestors = shop
""",
        {"shop/domain/model.py": "import shop.api.views\n"},
    ),
    "acyclic-deep": (
        "",
        """
[importlinter:contract:a]
name = Acyclic deep
type = acyclic_siblings
ancestors = shop
skip_descendants = shop.service
""",
        {"shop/units/a.py": "import shop.units.b\n", "shop/units/b.py": "import shop.units.a\n"},
    ),
    "acyclic-shallow": (
        "",
        """
[importlinter:contract:a]
name = Acyclic shallow
type = acyclic_siblings
ancestors = shop
depth = 0
""",
        {"shop/units/a.py": "import shop.units.b\n", "shop/units/b.py": "import shop.units.a\n"},
    ),
    "type-checking-excluded": (
        "exclude_type_checking_imports = True\n",
        LAYERS,
        {
            "shop/domain/model.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import shop.api\n"
            )
        },
    ),
    "type-checking-counted": (
        "",
        LAYERS,
        {
            "shop/domain/model.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import shop.api\n"
            )
        },
    ),
    "dynamic-import": (
        "",
        LAYERS,
        {"shop/domain/model.py": 'import importlib\nimportlib.import_module("shop.api")\n'},
    ),
    # Imports of modules that don't exist as files (served by an import hook, say): grimp
    # tries the name imported, then the module above it, and otherwise adds no edge.
    "forbidden-missing-module": (
        "",
        FORBIDDEN_API,
        {
            "shop/domain/model.py": (
                "from shop.api.legacy import Thing\n"
                "from shop.api.views.gone import x\n"
                "import shop.api.gone.deeper\n"
            )
        },
    ),
    "forbidden-missing-module-chain": (
        "",
        FORBIDDEN_API,
        {"shop/domain/model.py": "import shop.helpers\n", "shop/helpers.py": MISSING_API},
    ),
    "forbidden-missing-module-above": (
        "",
        FORBIDDEN_API + "as_packages = False\n",
        {"shop/domain/__init__.py": "import shop.api.gone\n"},
    ),
    "layers-missing-module": ("", LAYERS, {"shop/domain/model.py": MISSING_API}),
    "ignore-missing-module": (
        "",
        FORBIDDEN_API + "ignore_imports =\n    shop.domain.model -> shop.api.legacy\n",
        {"shop/domain/model.py": MISSING_API},
    ),
}


def project(tmp_path: Path, case: str) -> Path:
    session, contracts, files = CASES[case]
    write_tree(tmp_path, {**BASE, **files})
    (tmp_path / ".importlinter").write_text(HEADER + session + textwrap.dedent(contracts))
    return tmp_path


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_converted_project_gives_lint_imports_verdicts(tmp_path: Path, case: str) -> None:
    root = project(tmp_path, case)
    theirs = run_lint_imports(root)
    converted = run_inwards("import-config", cwd=root)
    assert converted.code == 0, converted.stderr
    ours = run_check(root)
    assert (ours.code != 0) == (theirs.code != 0), (theirs.output, ours.output)
    codes = contract_codes(converted.stdout)
    for name, verdict in theirs.verdicts.items():
        broken = ours.broken(codes[name])
        assert broken == (verdict == "BROKEN"), (name, theirs.output, ours.output)
    for name, found in theirs.pairs.items():
        for importer, imported in found:
            assert covers(ours, codes[name], importer, imported), (importer, imported)
    for name, imports in theirs.routes.items():
        for importer, imported, line in imports:
            file = module_file(root, importer)
            assert ours.reports(codes[name], file, imported, line), (importer, line, ours.output)


TOML_CONFIG = """\
[project]
name = "shop"

[tool.importlinter]
root_packages = ["shop"]
exclude_type_checking_imports = true

[[tool.importlinter.contracts]]
id = "forbidden"
name = "Domain stays out of the API"
type = "forbidden"
source_modules = ["shop.domain"]
forbidden_modules = ["shop.api"]
ignore_imports = ["shop.helpers -> shop.api.*"]

[[tool.importlinter.contracts]]
name = "Units"
type = "independence"
modules = ["shop.units.a", "shop.units.b"]
"""
SETUP_CFG = "[metadata]\nname = shop\n\n" + HEADER + textwrap.dedent(LAYERS)
TYPED_CHAIN = {
    "shop/domain/model.py": "import shop.helpers\n",
    "shop/helpers.py": "import shop.api.views\nimport shop.api\n",
    "shop/units/a.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import shop.units.b\n"
    ),
}


@pytest.mark.parametrize("config", ["pyproject.toml", "setup.cfg"])
def test_toml_and_setup_cfg_configurations(tmp_path: Path, config: str) -> None:
    text = TOML_CONFIG if config == "pyproject.toml" else SETUP_CFG
    write_tree(tmp_path, {**BASE, **TYPED_CHAIN, config: text})
    theirs = run_lint_imports(tmp_path)
    converted = run_inwards("import-config", cwd=tmp_path)
    assert converted.code == 0, converted.stderr
    assert f"import-linter contracts in {config}:" in converted.stdout
    ours = run_check(tmp_path)
    assert ours.code == theirs.code, (theirs.output, ours.output)
    codes = contract_codes(converted.stdout)
    assert set(codes) == set(theirs.verdicts)
    for name, verdict in theirs.verdicts.items():
        assert ours.broken(codes[name]) == (verdict == "BROKEN"), (name, theirs.output)
