"""import-linter contracts to inwards rule definitions, one row of the mapping at a time."""

from __future__ import annotations

from typing import Any

from inwards_core.families.inw import plugin as inw_plugin
from inwards_core.migration.importlinter_convert import (
    MISSING_MODULES_NOTE,
    Conversion,
    Definition,
    Status,
    convert,
)
from inwards_core.migration.importlinter_read import ImportLinterConfig, read_importlinter
from inwards_core.plugins import PluginHost

# The kinds the INW plugin names, as `inwards import-config` gets them.
KINDS = PluginHost.create(plugins=[inw_plugin]).import_linter_kinds()


def converted(ini: str, **kwargs: Any) -> Conversion:
    text = "[importlinter]\nroot_packages =\n    shop\n    extra\n" + ini
    config = read_importlinter({".importlinter": text})
    assert isinstance(config, ImportLinterConfig), config
    return convert(config, root=kwargs.pop("root", "."), kinds=KINDS, **kwargs)


def only(conversion: Conversion) -> Definition:
    (definition,) = conversion.definitions
    return definition


def test_layers_are_reversed_with_containers_exhaustiveness_and_missing_layers() -> None:
    conversion = converted(
        """
[importlinter:contract:my_layers]
name = Layers {braces}
type = layers
containers = shop
layers =
    api
    service : (helpers)
    repo|models
exhaustive = True
exhaustive_ignores =
    _version
broken_contract_guidance =
    Move {it} down.
    Then retry.
"""
    )
    definition = only(conversion)
    assert (definition.code, definition.name, definition.kind) == (
        "IL001",
        "il-my-layers",
        "inw.layers",
    )
    assert definition.summary == "Layers {braces}"
    assert dict(definition.options) == {
        "layers": ["repo | models", "service : (helpers)", "api"],
        "containers": ["shop"],
        "indirect": True,
        "missing-layers": "error",
        "exhaustive": True,
        "exhaustive-ignores": ["_version"],
        "dynamic": False,
        "missing-modules": False,
    }
    assert definition.guidance == "Move {it} down.\nThen retry."
    (report,) = conversion.reports
    assert (report.status, report.code, report.notes) == (Status.EXACT, "IL001", ())


def test_independence_forbidden_protected_and_acyclic() -> None:
    conversion = converted(
        """
[importlinter:contract:ind]
name = Independent
type = independence
modules =
    shop.a
    shop.b
ignore_imports =
    shop.a.* -> shop.b.**
    shop.x -> shop.y
unmatched_ignore_imports_alerting = warn

[importlinter:contract:forb]
name = Forbidden
type = forbidden
source_modules = shop.domain
forbidden_modules = shop.web
allow_indirect_imports = true
as_packages = False

[importlinter:contract:prot]
name = Protected
type = protected
protected_modules = shop.db
allowed_importers = shop.repo

[importlinter:contract:cyc]
name = Acyclic
type = acyclic_siblings
ancestors = shop
skip_descendants = shop.vendored
"""
    )
    independence, forbidden, protected, acyclic = conversion.definitions
    assert dict(independence.options) == {
        "modules": ["shop.a", "shop.b"],
        "indirect": True,
        "ignore-imports": ["shop.a.* -> shop.b.**", "shop.x -> shop.y"],
        "unmatched-ignore": "warning",
        "dynamic": False,
        "missing-modules": False,
    }
    assert dict(forbidden.options) == {
        "modules": ["shop.domain"],
        "forbidden": ["shop.web"],
        "indirect": False,
        "as-packages": False,
        "dynamic": False,
        "missing-modules": False,
    }
    assert (protected.kind, dict(protected.options)) == (
        "inw.protected",
        {
            "modules": ["shop.db"],
            "importers": ["shop.repo"],
            "dynamic": False,
            "missing-modules": False,
        },
    )
    assert (acyclic.kind, dict(acyclic.options)) == (
        "inw.acyclic",
        {
            "packages": ["shop"],
            "depth": 10,
            "skip-descendants": ["shop.vendored"],
            "dynamic": False,
            "missing-modules": False,
        },
    )
    assert [d.code for d in conversion.definitions] == ["IL001", "IL002", "IL003", "IL004"]
    assert all(r.status is Status.EXACT for r in conversion.reports)


def test_an_ignore_is_unmatched_error_by_default_as_in_import_linter() -> None:
    definition = only(
        converted(
            """
[importlinter:contract:x]
name = X
type = independence
modules =
    shop.a
    shop.b
ignore_imports = shop.a -> shop.b
"""
        )
    )
    assert dict(definition.options)["unmatched-ignore"] == "error"


def test_exclude_type_checking_imports_turns_them_off_in_every_rule() -> None:
    text = (
        "[importlinter]\nroot_package = shop\nexclude_type_checking_imports = True\n"
        "[importlinter:contract:x]\nname = X\ntype = independence\nmodules =\n"
        "    shop.a\n    shop.b\n"
    )
    config = read_importlinter({".importlinter": text})
    assert isinstance(config, ImportLinterConfig)
    (definition,) = convert(config, root=".", kinds=KINDS).definitions
    assert dict(definition.options)["type-checking"] is False


def test_nothing_is_dropped_silently() -> None:
    conversion = converted(
        """
[importlinter:contract:custom]
name = Custom
type = mypkg.contracts.MyContract

[importlinter:contract:odd]
name = Odd
type = independence
modules =
    *.a
    shop.b
frobnicate = yes

[importlinter:contract:ext]
name = External
type = forbidden
source_modules = shop
forbidden_modules = requests
"""
    )
    custom, odd, external = conversion.reports
    assert (custom.status, custom.code) == (Status.SKIPPED, "")
    assert "type mypkg.contracts.MyContract is not a built-in contract type" in custom.notes[0]
    assert odd.status is Status.NOTES
    assert odd.code == "IL001"  # codes count converted contracts only
    assert any("'odd', option frobnicate" in note for note in odd.notes)
    assert any("'odd', option modules: *.a" in note for note in odd.notes)
    assert external.status is Status.NOTES
    assert "include_external_packages" in external.notes[0]
    assert [d.code for d in conversion.definitions] == ["IL001", "IL002"]


def test_the_table_ignores_what_import_linter_never_sees_and_selects_the_rules() -> None:
    conversion = converted(
        "[importlinter:contract:x]\nname = X\ntype = independence\nmodules =\n"
        "    shop.a\n    extra\n",
        root="src",
        top_level=("shop", "extra", "tests", "setup"),
        other_rules=(("INW001", "layer-dependency"), ("INW004", "import-cycles")),
    )
    assert dict(conversion.table) == {
        "root": "src",
        "ignore": ["/setup", "/tests"],
        "layers": [
            {"name": "shop", "modules": ["shop"]},
            {"name": "extra", "modules": ["extra"]},
        ],
        "cycles": [],
        "rules": {"select": ["IL001"]},
    }
    assert "INW001 layer-dependency, INW004 import-cycles." in conversion.comment


def test_names_are_kebab_case_and_unique() -> None:
    conversion = converted(
        """
[importlinter:contract:Tool_Impl Base]
name = A
type = independence
modules =
    shop.a
    shop.b

[importlinter:contract:tool-impl-base]
name = B
type = independence
modules =
    shop.a
    shop.b
"""
    )
    assert [d.name for d in conversion.definitions] == [
        "il-tool-impl-base",
        "il-tool-impl-base-2",
    ]


def test_exhaustive_without_containers_is_a_note_not_an_option() -> None:
    conversion = converted(
        "[importlinter:contract:x]\nname = X\ntype = layers\nlayers =\n"
        "    shop.api\n    shop.domain\nexhaustive = true\n"
    )
    assert "exhaustive" not in dict(only(conversion).options)
    (report,) = conversion.reports
    assert report.status is Status.NOTES
    assert "option exhaustive: needs containers" in report.notes[0]


def test_a_single_plain_layer_is_converted_with_missing_layers_an_error() -> None:
    conversion = converted(
        "[importlinter:contract:x]\nname = X\ntype = layers\nlayers = shop.api\n"
    )
    options = dict(only(conversion).options)
    assert (options["layers"], options["missing-layers"]) == (["shop.api"], "error")
    assert conversion.reports[0].status is Status.EXACT


def test_imports_of_missing_modules_are_left_out_and_the_conversion_says_so() -> None:
    # grimp adds no edge for an import of a module that doesn't exist: each converted rule
    # leaves them out, and one note names the key that checks them again.
    rules = converted(
        "[importlinter:contract:x]\nname = X\ntype = independence\nmodules = shop.a\n"
    )
    assert dict(only(rules).options)["missing-modules"] is False
    assert rules.notes == (MISSING_MODULES_NOTE,)
    assert "missing-modules = false" in MISSING_MODULES_NOTE
    nothing = converted("[importlinter:contract:x]\nname = X\ntype = custom.Type\n")
    assert nothing.definitions == () and nothing.notes == ()
