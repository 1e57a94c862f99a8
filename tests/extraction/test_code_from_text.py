"""Code run from text (exec, eval, compile) and what a module does to `__path__`,
`sys.modules` and `sys.meta_path`: the facts the dynamic reader gives, and which files leave
the skeleton."""

from __future__ import annotations

import textwrap

import pytest

from inwards_core.extraction.dynamic import has_dynamic_hint
from inwards_core.extraction.dynamic_sources import MAX_SOURCE_CHARS
from inwards_core.model.facts import ModuleFacts
from inwards_core.model.facts_data import facts_from_data, facts_to_data

from .helpers import read


def facts(source: str, *, module: str = "pkg.mod", is_package: bool = False) -> ModuleFacts:
    return read(textwrap.dedent(source).lstrip("\n"), module=module, is_package=is_package)


def found(source: str, **where: object) -> list[tuple[str, str | None, str | None, str | None]]:
    return [
        (d.loader, d.target, d.module, d.reason)
        for d in facts(source, **where).dynamic_imports  # type: ignore[arg-type]
    ]


def test_imports_in_literal_code_are_dynamic_imports() -> None:
    source = """
        import builtins
        exec("import shop.a, shop.b as b")
        exec("from shop.c import d, e\\nfrom shop import *")
        eval(compile("import shop.f", "<x>", "exec"))
        builtins.exec(b"from . import sibling")
        X = "shop.g"
        exec("import " + X)
        """
    assert found(source) == [
        ("exec", "shop.a", None, None),
        ("exec", "shop.b", None, None),
        ("exec", "shop.c.d", "shop.c", None),
        ("exec", "shop.c.e", "shop.c", None),
        ("exec", "shop", None, None),
        ("compile", "shop.f", None, None),  # the exec of a compile call is read once
        ("exec", "pkg.sibling", "pkg", None),
        ("exec", "shop.g", None, None),
    ]


def test_the_finding_points_at_the_code_and_quotes_the_call() -> None:
    [fact] = facts('exec("import shop.a")\n').dynamic_imports
    assert (fact.span.line, fact.span.column, fact.span.end_column) == (1, 6, 21)
    assert fact.statement == 'exec("import shop.a")'


def test_loaders_inside_literal_code_are_read_a_few_levels_deep() -> None:
    source = """
        import importlib
        exec("importlib.import_module('shop.h')")
        exec("exec('exec(\\\\'import shop.i\\\\')')")
        exec("exec('exec(\\\\'exec(\\\\\\\\\\\\'import shop.j\\\\\\\\\\\\')\\\\')')")
        """
    # Each is the outer call's: the loader the file calls, where it calls it.
    assert found(source) == [
        ("exec", "shop.h", None, None),
        ("exec", "shop.i", None, None),
        ("exec", None, None, "code nested more than 3 deep"),
    ]


def test_code_that_is_not_a_literal_is_unreadable() -> None:
    source = """
        import sys
        def run(code, options):
            exec(code)
            eval(options["command"], {})
            exec(sys.stdin.read())
            compile(source=code, filename="<x>", mode="exec")
            exec(*options)
            exec(f"import {code}")
        """
    assert [(loader, reason) for loader, _, _, reason in found(source)] == [
        ("exec", "a variable"),
        ("eval", "a subscript"),
        ("exec", "a call"),
        ("compile", "a variable"),
        ("exec", "unpacked arguments"),
        ("exec", "a run-time f-string field"),
    ]


def test_code_that_does_not_parse_imports_nothing_and_long_code_is_unreadable() -> None:
    long_code = "x = 1\n" * (MAX_SOURCE_CHARS // 6 + 1)
    source = f'exec("import (")\nexec({long_code!r})\n'
    assert found(source) == [
        ("exec", None, None, "code longer than 100,000 characters"),
    ]


def test_methods_and_a_modules_own_compile_are_not_the_builtins() -> None:
    source = """
        import re
        def compile(pattern):
            return pattern
        compile("import shop.x")
        re.compile("import shop.y")
        class Node:
            def eval(self, context):
                return context
        Node().eval("import shop.z")
        """
    assert found(source) == []


def test_aliases_of_the_builtins_are_followed() -> None:
    source = """
        from builtins import exec as run
        import builtins as b
        run("import shop.a")
        b.eval("__import__('shop.b')")
        """
    assert found(source) == [
        ("exec", "shop.a", None, None),
        ("eval", "shop.b", None, None),
    ]


def test_dynamic_targets_may_be_names_importlib_loads() -> None:
    source = """
        import importlib
        importlib.import_module("shop.migrations.0001_initial")
        importlib.import_module("shop.my-script")
        importlib.import_module("not a module")
        importlib.import_module("shop..x")
        """
    assert [(target, reason) for _, target, _, reason in found(source)] == [
        ("shop.migrations.0001_initial", None),
        ("shop.my-script", None),
        (None, "not a module name"),
        (None, "not a module name"),
    ]


@pytest.mark.parametrize(
    "source",
    [
        "import pkgutil\n__path__ = pkgutil.extend_path(__path__, __name__)\n",
        '__path__ = __import__("pkgutil").extend_path(__path__, __name__)\n',
        "import os\n__path__.append(os.path.join('x', 'y'))\n",
        "__path__ += ['elsewhere']\n",
        "__path__[:] = ['elsewhere']\n",
        "try:\n    __path__.insert(0, 'x')\nexcept NameError:\n    pass\n",
    ],
)
def test_extending_path_is_read(source: str) -> None:
    read_facts = facts(source, module="pkg", is_package=True)
    assert read_facts.extends_path
    assert read_facts.grammar == "ast"


def test_reading_path_is_not_extending_it() -> None:
    source = "import os\nHERE = __path__[0]\nself_path = os.path.dirname(__file__)\n"
    assert not facts(source, module="pkg", is_package=True).extends_path


def test_names_registered_in_sys_modules() -> None:
    source = """
        import sys
        import sys as system
        from sys import modules
        from pkg.commands import run, compat, lazy
        sys.modules["pkg.cli.run"] = run
        system.modules[__name__ + ".compat"] = compat
        modules.setdefault("pkg.lazy", lazy)
        sys.modules.update({"pkg.other": run, "pkg.more": run})
        sys.modules[__name__] = lazy
        sys.modules[run.__name__] = run
        """
    read_facts = facts(source, module="pkg.cli", is_package=True)
    assert read_facts.registers == (
        "pkg.cli.compat",
        "pkg.cli.run",
        "pkg.lazy",
        "pkg.more",
        "pkg.other",
    )
    assert not read_facts.extends_path


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("import sys\n\nsys.meta_path.insert(0, Finder())\n", 3),
        ("import sys as system\nsystem.meta_path.append(Finder())\n", 2),
        ("from sys import meta_path\nmeta_path.extend([Finder()])\n", 2),
        ("import sys\nsys.meta_path += [Finder()]\n", 2),
        ("import sys\nsys.meta_path[:0] = [Finder()]\n", 2),
        ("import sys\nsys.meta_path = [Finder(), *sys.meta_path]\n", 2),
        # Inside a function and a guard that reads the list first; the first adding line.
        (
            "import sys\n"
            "def install():\n"
            "    if not any(isinstance(f, Finder) for f in sys.meta_path):\n"
            "        sys.meta_path.append(\n"
            "            Finder())\n"
            "    sys.meta_path.insert(0, Other())\n",
            4,
        ),
    ],
)
def test_adding_an_import_hook_is_read(source: str, line: int) -> None:
    read_facts = facts(source, module="pkg", is_package=True)
    assert read_facts.import_hook_line == line
    assert not read_facts.extends_path and read_facts.registers == ()


@pytest.mark.parametrize(
    "source",
    [
        "import sys\nfinders = list(sys.meta_path)\nsys.meta_path.remove(finders[0])\n",
        "from sys import meta_path\nmeta_path = []\n",  # a name of the module, rebound
        "meta_path = []\nmeta_path.append(1)\n",  # a list of the module's own
    ],
)
def test_reading_or_shrinking_meta_path_adds_no_hook(source: str) -> None:
    assert facts(source, module="pkg", is_package=True).import_hook_line == 0


def test_an_import_hook_is_read_for_packages_only() -> None:
    source = "import sys\nsys.meta_path.insert(0, Finder())\n"
    assert facts(source, module="pkg", is_package=True).grammar == "ast"
    assert facts(source, module="pkg.mod").import_hook_line == 0


def test_new_facts_survive_the_cache() -> None:
    source = """
        import sys
        __path__ = __import__("pkgutil").extend_path(__path__, __name__)
        sys.modules["pkg.cli"] = sys
        sys.meta_path.append(Finder())
        exec("from shop import x")
        """
    read_facts = facts(source, module="pkg", is_package=True)
    assert read_facts.extends_path and read_facts.registers == ("pkg.cli",)
    assert read_facts.import_hook_line == 4
    assert facts_from_data(facts_to_data(read_facts)) == read_facts


@pytest.mark.parametrize(
    ("text", "hinted"),
    [
        ("x = re.compile('a')\n", False),
        ("def compile(self, node):\n    pass\n", False),
        ("node.eval(context)\n", False),
        ("executor = 1\n", False),
        ("import builtins\n", False),
        ("exec(code)\n", True),
        ("x = eval ('1')\n", True),
        ("run = exec\n", True),
        ("from builtins import exec as run\n", True),
        ("builtins.eval(x)\n", True),
        # The look-backs of the search, at the start of the text and beside other words.
        ("eval(x)", True),
        ("(exec)(code)\n", True),
        ("def eval(self):\n    pass\n", False),
        ("retrieval = evaluate(executed)\n", False),
        ("\u00e9exec(code)\n", False),
        ("mybuiltins = 1\nexec_mode = eval_ = 2\n", False),
        ("x = builtins_\nexec\n", True),
        ("x = mybuiltins.eval\nbuiltins = 1\n", True),
    ],
)
def test_which_files_leave_the_skeleton(text: str, hinted: bool) -> None:
    assert has_dynamic_hint(text) is hinted
    assert (read(text).grammar == "skeleton") is not hinted


@pytest.mark.parametrize("text", ["__path__.append('x')\n", "sys.modules['a'] = b\n"])
def test_only_a_package_leaves_the_skeleton_for_path_hints(text: str) -> None:
    assert has_dynamic_hint(text, is_package=True)
    assert read(text, module="pkg", is_package=True).grammar == "ast"
    assert not has_dynamic_hint(text)
    assert read(text).grammar == "skeleton"
