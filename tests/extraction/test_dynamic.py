"""Dynamic imports: loaders through aliases, constant folding, relative names, reasons."""

from __future__ import annotations

import textwrap

from inwards_core.model.facts import DynamicImportFact

from .helpers import read, span


def dynamic(
    source: str, *, module: str = "pkg.mod", is_package: bool = False
) -> list[DynamicImportFact]:
    facts = read(textwrap.dedent(source).lstrip("\n"), module=module, is_package=is_package)
    assert facts.grammar in ("ast", "libcst")
    return list(facts.dynamic_imports)


def targets(source: str, **where: object) -> list[tuple[str, str | None, str | None]]:
    return [(d.loader, d.target, d.reason) for d in dynamic(source, **where)]  # type: ignore[arg-type]


def test_import_module_literal() -> None:
    [fact] = dynamic('import importlib\nimportlib.import_module("a.b")\n')
    assert fact == DynamicImportFact(
        loader="importlib.import_module",
        target="a.b",
        span=span(2, 25, 2, 30),
        reason=None,
        statement='importlib.import_module("a.b")',
    )


def test_loaders_through_aliases() -> None:
    source = """
        import importlib as il
        from importlib import import_module as im
        import importlib.util
        from importlib import util
        import builtins, runpy, pkgutil
        loader = importlib.import_module
        il.import_module("a")
        im("b")
        loader("c")
        __import__("d")
        builtins.__import__("e")
        importlib.__import__("f")
        importlib.util.find_spec("g")
        util.find_spec("h")
        runpy.run_module("i")
        pkgutil.resolve_name("j.k:Attr")
        pkgutil.resolve_name("l.m.Attr")
        """
    assert targets(source) == [
        ("importlib.import_module", "a", None),
        ("importlib.import_module", "b", None),
        ("importlib.import_module", "c", None),
        ("__import__", "d", None),
        ("__import__", "e", None),
        ("__import__", "f", None),
        ("importlib.util.find_spec", "g", None),
        ("importlib.util.find_spec", "h", None),
        ("runpy.run_module", "i", None),
        ("pkgutil.resolve_name", "j.k", None),
        ("pkgutil.resolve_name", "l.m.Attr", None),
    ]


def test_keyword_name_argument() -> None:
    assert targets("import importlib\nimportlib.import_module(name='a.b')\n") == [
        ("importlib.import_module", "a.b", None)
    ]


def test_constant_folding() -> None:
    source = """
        from importlib import import_module
        BASE = "shop"
        SUFFIX: str = ".bootstrap"
        import_module("shop" + ".domain")
        import_module("shop.%s" % "infra")
        import_module("%s.%s" % ("shop", "api"))
        import_module(f"{BASE}.web")
        import_module(".".join(["shop", "db"]))
        import_module("{}.{}".format("shop", "cli"))
        import_module(BASE + SUFFIX)
        import_module(f"{BASE!s}.x" + "y")
        """
    assert [t for _, t, _ in targets(source)] == [
        "shop.domain",
        "shop.infra",
        "shop.api",
        "shop.web",
        "shop.db",
        "shop.cli",
        "shop.bootstrap",
        "shop.xy",
    ]


def test_unreadable_targets_say_why() -> None:
    source = """
        import importlib
        TWICE = "a"
        TWICE = "b"
        def load(name):
            importlib.import_module(name)
            importlib.import_module(f"plugins.{name}")
            importlib.import_module(get_name())
            importlib.import_module(TWICE)
            importlib.import_module(*args)
            importlib.import_module(config.module)
            importlib.import_module()
        """
    facts = dynamic(source)
    assert [(d.target, d.reason) for d in facts] == [
        (None, "a variable"),
        (None, "a run-time f-string field"),
        (None, "a call"),
        (None, "a variable"),
        (None, "unpacked arguments"),
        (None, "an attribute"),
        (None, "no module name"),
    ]
    # Without an argument the span is the whole call.
    assert facts[-1].span == span(11, 5, 11, 30)
    assert facts[0].span == span(5, 29, 5, 33)


def test_relative_names_with_a_package() -> None:
    source = """
        import importlib
        importlib.import_module(".b", package="a")
        importlib.import_module("..c", "a.b")
        importlib.import_module(".x", package=__package__)
        importlib.import_module(".y", __name__)
        importlib.import_module(".z")
        importlib.import_module("...w", package="a")
        importlib.util.find_spec(".s", "a")
        """
    assert [(t, r) for _, t, r in targets(source, module="top.pkg", is_package=True)] == [
        ("a.b", None),
        ("a.c", None),
        ("top.pkg.x", None),
        ("top.pkg.y", None),
        (None, "a relative name without a package"),
        (None, "a relative name above the top-level package"),
        ("a.s", None),
    ]


def test_dunder_import_with_a_level() -> None:
    source = "__import__('sibling', globals(), locals(), [], 1)\n"
    assert targets(source, module="a.b.c") == [("__import__", "a.b.sibling", None)]


def test_names_that_are_not_module_names() -> None:
    source = """
        import importlib
        importlib.import_module("not a module")
        importlib.import_module(42)
        """
    assert [(t, r) for _, t, r in targets(source)] == [
        (None, "not a module name"),
        (None, "not a module name"),
    ]


def test_multi_line_call_statement_is_one_line() -> None:
    source = """
        import importlib
        importlib.import_module(  # why
            "a.b",
            package=None,
        )
        """
    [fact] = dynamic(source)
    assert fact.statement == 'importlib.import_module("a.b", package=None,)'
    assert fact.span == span(3, 5, 3, 10)


def test_local_names_that_shadow_nothing_are_not_loaders() -> None:
    source = """
        def import_module(name):
            return name
        import_module("a")
        find_spec = object()
        """
    assert targets(source) == []


def test_huge_constant_expressions_are_not_folded() -> None:
    source = """
        import importlib
        importlib.import_module("a" * 10**9)
        importlib.import_module("%999999999s" % "x")
        importlib.import_module("{:999999999}".format("x"))
        """
    assert [t for _, t, _ in targets(source)] == [None, None, None]


def test_no_hint_no_dynamic_reading() -> None:
    facts = read("import importlib\ngetattr(importlib, 'x')\n")
    assert facts.grammar == "skeleton"
    assert facts.dynamic_imports == ()


def test_dynamic_imports_in_a_file_only_libcst_reads() -> None:
    source = """
        import importlib
        type Loader = object
        def load[T](kind: T) -> T:
            return importlib.import_module("plugins.x")
        """
    facts = read(textwrap.dedent(source).lstrip("\n"))
    assert facts.grammar == "libcst"
    assert [(d.target, d.span) for d in facts.dynamic_imports] == [
        ("plugins.x", span(4, 36, 4, 47))
    ]


def test_dynamic_imports_next_to_lazy_imports() -> None:
    facts = read('lazy import a; import importlib; importlib.import_module("b")\n')
    assert [(d.target, d.span) for d in facts.dynamic_imports] == [("b", span(1, 58, 1, 61))]
    assert [(f.target, f.lazy) for f in facts.imports] == [("a", True), ("importlib", False)]


def test_calls_in_decorators_and_deep_blocks_are_found() -> None:
    source = """
        import pytest
        @pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="posix")
        def test():
            class A:
                def m(self):
                    return [__import__(f"pkg.{n}") for n in ("a",)]
        """
    facts = dynamic(source)
    assert [(d.target, d.reason, d.span) for d in facts] == [
        ("os", None, span(2, 44, 2, 48)),
        (None, "a run-time f-string field", span(6, 32, 6, 42)),
    ]
