"""The docs text of inw.construct-only-in (INW015), rendered into its page."""

from __future__ import annotations

from inwards_core import KindDocs

DOCS = KindDocs(
    what_it_does="""
Keeps the modules of a role (the adapters: database repositories, HTTP clients, token
strategies) in the hands of the composition root. `role` lists them (prefixes or selectors);
`allowed-in` lists the modules that may import and build them (the composition root, the
wiring). In every other module that a layer owns, the rule reports:

- a runtime import of a role module, or of a name from one (`from shop.adapters.sql import
  SqlOrders`), once per import statement;
- a call that builds a class of a role module reached through re-exports
  (`from shop.adapters import SqlOrders` where `shop/adapters/__init__.py` re-exports it from
  `shop.adapters.sql`), followed through up to four re-exports, once per call. The callee
  must be a class the role module defines: a capitalised function or a factory is not a
  construction.

What passes:

- imports under `if TYPE_CHECKING:` (they never run);
- exceptions and enums a role module defines, and its ALL_CAPS and `Final` constants: any
  module may catch or compare them; and its interfaces, which code types against: classes with
  `Protocol` or `ABC` among their own bases, or whose methods all do nothing (docstring, `...`,
  `pass`, `raise NotImplementedError`). A class that inherits from one is an implementation
  and is reported;
- the `__init__` of a package above a role module importing from below itself: that is the
  package's re-export face, not a use (its re-exports are what builds are followed through);
- an import that points outwards or sideways in the layering: it is layer-dependency's
  (INW001) finding, whether or not that rule is on, so one import gives one finding;
- the modules of the role themselves, the `allowed-in` modules, modules no layer owns, and
  test modules (a `tests` or `test` segment, `test_*`, `*_test`, `conftest`) unless
  `check-tests = true`.

A call of a class imported straight from a role module is covered by the import's finding
and is not reported again.

A template's `rules` can turn the rule on for a role: `rules = { adapters = {
construct-only-in = { allowed-in = ["shop.main"] } } }` fills `role` (not `modules`) with the
modules of that role in every layer entry that uses the template.
""",
    why_is_this_bad="""
When an endpoint or a use case builds its own repository or client, the choice of adapter is
made in a hundred places: it can't be swapped for a fake in tests or for another
implementation without editing them all, and the code that should know only a port knows a
concrete class and its constructor's arguments.
""",
    how_to_fix="""
Build the adapter once, in a module `allowed-in` lists (the composition root), and pass it in:
as a constructor argument, a function parameter, or through the framework's dependency
injection. Type the receiving code against a port (a `typing.Protocol` an inner layer owns).
If the importing module really is part of the wiring, add it to `allowed-in`.

```toml
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
  { name = "main", modules = ["shop.main"] },
]

[tool.inwards.rules]
extend-select = ["INW015"]

[tool.inwards.rules.construct-only-in]
role = ["shop.adapters.outbound"]
allowed-in = ["shop.main"]
```
""",
    limitations="""
Turning the rule on with `select` or `extend-select` without a `role` is a configuration
error at that entry; a template's roles give it `role` themselves. Imports
used only in annotations but not put under `TYPE_CHECKING` are reported (they run). Dynamic
imports (`importlib`) are not judged.

A class is recognised as an exception, an enum or an interface by its bases as written in
its own module (`Exception`, `...Error`, `Enum`, `TextChoices`, `Protocol`, `ABC`, ...),
following bases defined in the same module; a base imported from elsewhere under another name is not
followed. A constant annotated `Final[int]` is not told from an `int` (write `Final` alone, or
an ALL_CAPS name).

Builds are followed through `from`-imports that re-export the class; a class reached through
a module-level alias (`Repo = SqlRepo`), a factory function, `getattr` or a
dependency-injection container is not seen. Calls are read only in modules whose imports reach
a class of the role that way (or import a package above the role as a module), and only when
their text holds one of the content triggers (`class `, `@`, `async `, ...): a module of plain
functions without any of them is judged on its imports only.
""",
)
