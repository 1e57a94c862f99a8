"""Content facts (functions, classes, calls, bindings) for the opt-in content rules.

`read_content` parses a file only when its text holds one of `TRIGGERS` (plain substring
tests: a regex anchored on lines costs far more), with CPython's parser through the
`GrammarBinaries` port, and reads the tree in one walk over an explicit stack, never by
recursion (hostile input may nest deeply). A file that does not parse gives
`ContentFacts(parsed=False)`: its content is not judged (INW020 reports syntax errors).

How a function's body is measured (its own statements, not those of nested defs,
lambdas or classes; the def's docstring is no statement):

- a *guard* is an `if` without `elif`/`else`, or an `except` handler, whose body holds only
  `raise`, `return` and `abort(...)` statements; a guard is no statement, no branch and
  no nesting, nor are the statements of its body (their calls are kept);
- `statements`: every other statement at any depth, a compound one counting once and an
  `elif` not again (it belongs to its `if`);
- `branches`: decision points: each non-guard `if` and `elif`, each non-guard `except`
  handler, each `match` case; never `else`, loops or conditional expressions;
- `nesting`: the deepest run of `if`/`for`/`while`/`with`/`try`/`match` blocks a statement
  stands in (`elif`/`else` are as deep as their `if`);
- `loops`: loops over data: every `while`, and each `for`/`async for` except over a
  literal tuple, list or set of constants and names, a string, or `range` of integer
  constants; `comprehensions`: list, set, dict and generator comprehensions.

Calls in a def nested in a function are its own and also the enclosing function's with
`nested` set (one level up only); calls in a lambda or a nested class are the enclosing
function's with `nested` set. Decorators are read as `CallFact`s of the def or class they
decorate; the calls in their arguments, in parameters' defaults and annotations and in
the return annotation are the function's `signature_calls`, not its `calls`.

Generators: a `yield` counts for the innermost enclosing function, outside lambdas; each
`try` whose body holds one is kept with its handlers. A handler *re-raises* when every path
through its body ends in `raise`: `if`/`else` both ways, `with` bodies, `try` (body then
`else`, or a handler; a `finally` that always raises decides), `match` (falls through
unless a case is irrefutable); a loop may run no time, and `return`, `break` or
`continue` leave without raising. Blocks nested past 40 levels count as not raising.
"""

from __future__ import annotations

import ast

from inwards_core.extraction.content_walk import ContentWalk
from inwards_core.model.content_facts import ContentFacts
from inwards_core.model.facts import ModuleFacts
from inwards_core.ports import GrammarBinaries

# Fixed in code, never by options: custom decorators hold `@`, custom bases `class `,
# and blocking calls only matter inside `async def`, or in what one reaches: a module that
# only builds a session or a client (`SessionLocal = sessionmaker(...)`), or holds plain
# functions taking one (`def get_user(db: Session)`), names it. Bump CONTENT_ID when
# they change.
TRIGGERS: tuple[str, ...] = (
    "async ",
    "@",
    "class ",
    "add_api_route",
    "add_url_rule",
    # The FastAPI project graph (FAPI003, FAPI005, FAPI008): a module that only builds an
    # app or a router, or wires them, holds none of the other triggers.
    "FastAPI(",
    "APIRouter(",
    "include_router",
    ".mount(",
    "Route(",
    "path(",
    "Table(",
    "MetaData(",
    "naming_convention",
    "__tablename__",
    "Annotated",
    "Session",
    "Engine",
    "sessionmaker",
    "create_engine",
    "connect(",
    "cursor(",
    "Redis",
    "boto3",
    "requests.",
    "urlopen",
    # Dependencies with `yield` (FAPI007, FAPI009) and startup/shutdown handlers (FAPI006).
    "yield",
    "on_event",
    "add_event_handler",
    "on_startup",
    "on_shutdown",
    # Helpers that raise or build an HTTP error (FAPI002), often plain `def`s in files
    # holding none of the words above.
    "HTTPException",
    "Response(",
)
CONTENT_ID = "content/9"
# The facts of a file without a trigger, read or cached.
NO_CONTENT = ModuleFacts(content=ContentFacts(parsed=False))


_TRIGGER_BYTES = tuple(trigger.encode("ascii") for trigger in TRIGGERS)


def has_trigger(text: str) -> bool:
    return any(trigger in text for trigger in TRIGGERS)


def may_hold_content(data: bytes) -> bool:
    """Whether a file's bytes hold a trigger, before any decoding: a Python source's
    encoding keeps ASCII as ASCII (PEP 263), so a trigger reads the same in its bytes (a
    file in an encoding that doesn't is INW000's). A file without one needs no job, no
    decoding and no parse: its content facts are `ContentFacts(parsed=False)`."""
    return any(trigger in data for trigger in _TRIGGER_BYTES)


def read_content(text: str, module: str, grammars: GrammarBinaries) -> ContentFacts:
    """The content facts of one module's decoded text (`parsed=False` without a trigger
    or when CPython's parser rejects it)."""
    if not has_trigger(text):
        return ContentFacts(parsed=False)
    if "\r" in text:  # positions are read with `\n` line breaks, as the parser counts
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        tree: ast.Module = grammars.parse_python(text, module or "<module>")
    except (SyntaxError, ValueError, RecursionError):
        return ContentFacts(parsed=False)
    return ContentWalk(text).read(tree)
