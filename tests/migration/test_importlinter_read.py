"""Reading import-linter's configuration as import-linter 2 does."""

from __future__ import annotations

from inwards_core.migration.importlinter_read import (
    ImportLinterConfig,
    ReadProblem,
    read_importlinter,
)

INI = """\
[importlinter]
root_packages =
    shop
    # a comment line is not a package
    billing
include_external_packages = True

[importlinter:contract:layers]
name = Layered
type = layers
containers =
    shop
layers =
    api
    domain : (helpers)
    repo | models{trailing}
exhaustive = true
""".format(trailing=" ")  # usethis has a layer with a trailing space

TOML = """\
[project]
name = "shop"

[tool.importlinter]
root_package = "shop"
exclude_type_checking_imports = true

[[tool.importlinter.contracts]]
id = "no-web"
name = "Domain does not import the web"
type = "forbidden"
source_modules = ["shop.domain"]
forbidden_modules = "flask"
allow_indirect_imports = true

[[tool.importlinter.contracts]]
name = "Independent"
type = "independence"
modules = ["shop.a", "shop.b"]
"""


def config(files: dict[str, str], named: str | None = None) -> ImportLinterConfig:
    found = read_importlinter(files, named=named)
    assert isinstance(found, ImportLinterConfig), found
    return found


def test_ini_multi_line_values_are_lists_of_stripped_lines() -> None:
    found = config({".importlinter": INI})
    assert found.file == ".importlinter"
    assert found.root_packages == ("shop", "billing")
    assert found.flag("include_external_packages")
    (contract,) = found.contracts
    assert (contract.id, contract.name, contract.type, contract.line) == (
        "layers",
        "Layered",
        "layers",
        8,
    )
    assert contract.get("layers") == ("api", "domain : (helpers)", "repo | models")
    assert contract.get("containers") == ("shop",)
    assert contract.get("exhaustive") == "true"


def test_toml_contracts_keep_their_order_ids_and_lines() -> None:
    found = config({"pyproject.toml": TOML})
    assert found.root_packages == ("shop",)
    assert found.flag("exclude_type_checking_imports")
    first, second = found.contracts
    assert (first.id, first.label, first.line) == ("no-web", "no-web", 8)
    assert first.get("forbidden_modules") == "flask"
    assert first.get("allow_indirect_imports") == "True"  # a TOML boolean, as its text
    assert (second.id, second.label, second.line) == ("", "Independent", 16)
    assert second.get("modules") == ("shop.a", "shop.b")


def test_ini_files_come_before_pyproject_and_setup_cfg_before_dot_importlinter() -> None:
    setup = "[importlinter]\nroot_package = fromsetup\n"
    dot = "[importlinter]\nroot_package = fromdot\n"
    files = {"setup.cfg": setup, ".importlinter": dot, "pyproject.toml": TOML}
    assert config(files).root_packages == ("fromsetup",)
    files["setup.cfg"] = "[metadata]\nname = x\n"  # no [importlinter]: the next file
    assert config(files).root_packages == ("fromdot",)
    del files[".importlinter"]
    assert config(files).root_packages == ("shop",)


def test_a_named_file_is_the_only_one_read() -> None:
    files = {".importlinter": INI, "pyproject.toml": TOML}
    assert config(files, named="pyproject.toml").root_packages == ("shop",)
    problem = read_importlinter({"setup.cfg": "[x]\n"}, named="setup.cfg")
    assert problem == ReadProblem("setup.cfg", 0, "has no [importlinter] section")
    assert isinstance(read_importlinter({}, named="other.ini"), ReadProblem)


def test_problems_name_the_file_and_line() -> None:
    nothing = read_importlinter({"pyproject.toml": '[project]\nname = "x"\n'})
    assert isinstance(nothing, ReadProblem)
    assert nothing.file == ""
    assert "no import-linter configuration" in nothing.message
    broken = read_importlinter({"pyproject.toml": "[tool.importlinter\n"})
    assert isinstance(broken, ReadProblem)
    assert (broken.file, broken.line) == ("pyproject.toml", 1)
    assert broken.render().startswith("pyproject.toml:1: is not valid TOML")
    bad_ini = read_importlinter({".importlinter": "[importlinter]\n[importlinter]\n"})
    assert isinstance(bad_ini, ReadProblem)
    assert bad_ini.file == ".importlinter"
    assert "is not a readable INI file" in bad_ini.message
