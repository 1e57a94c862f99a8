"""What blocks inside a function, for INW013 (`inw.async-blocking`): the types of the
names a call's receiver is made of (parameter annotations through aliases, bindings in the
function and in its module, instances imported from first-party modules), the calls that
block by themselves, and first-party plain functions one hop away.

Every name is resolved through the imports of the module it is written in, and through
first-party re-exports, to a canonical dotted name before any table is asked (never a
bare name: a first-party class `Session` is not SQLAlchemy's)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import attrs

from inwards_core import (
    BindingFact,
    CallFact,
    ContentFacts,
    FunctionFact,
    ModuleInfo,
    ProjectModel,
    Span,
)
from inwards_core.families.inw.content.blocking_families import (
    BLOCKING_CALLS,
    CONSTRUCTORS,
    TYPES,
    USER_CALL_NOUN,
    BlockingType,
    user_type,
)
from inwards_core.families.inw.content.content_names import Names

HOPS = 4  # re-exports followed, each possibly into another module
# Steps of type resolution (a name to its binding to its call to the next name...): enough
# for `db = SessionLocal()` after `SessionLocal = sessionmaker(...)` through an import.
DEPTH = 16


@attrs.frozen
class View:
    """A module as the resolver sees it: its content facts and the names it imports."""

    name: str
    facts: ContentFacts
    names: Names

    def binding(self, name: str) -> BindingFact | None:
        """The last module-level binding of `name`."""
        found = None
        for binding in self.facts.bindings:
            if binding.name == name:
                found = binding
        return found

    def function(self, name: str) -> FunctionFact | None:
        for function in self.facts.functions:
            if function.qualname == name:
                return function
        return None


@attrs.frozen
class Block:
    """A blocking call: the call as written, what it waits on (noun, with its article
    left to the message) and whether it is a method of a blocking instance."""

    call: CallFact
    noun: str
    method: bool


@attrs.frozen
class Tables:
    """The built-in tables plus the rule's `extend-blocking-*` options."""

    types: Mapping[str, BlockingType]
    constructors: Mapping[str, str]
    calls: Mapping[str, tuple[str, str]]

    @classmethod
    def with_options(cls, extra_types: tuple[str, ...], extra_calls: tuple[str, ...]) -> Tables:
        types = dict(TYPES)
        constructors = dict(CONSTRUCTORS)
        for name in extra_types:
            types.setdefault(name, user_type(name))
            constructors.setdefault(name, name)
        calls = dict(BLOCKING_CALLS)
        for name in extra_calls:
            calls.setdefault(name, (USER_CALL_NOUN, ""))
        return cls(types, constructors, calls)


# Finds the first-party module a dotted name starts with: its view and the rest of the
# name ("" when the name is the module itself); None when no first-party module prefixes it.
SplitName = Callable[[str], tuple[View, str] | None]


def _before(span: Span, position: Span) -> bool:
    return (span.line, span.column) < (position.line, position.column)


def _chain(text: str) -> list[str]:
    return text.split(".") if text else []


@attrs.frozen
class Resolver:
    tables: Tables
    split: SplitName
    # Types of aliases and module-level bindings, by canonical name: each is resolved once
    # ("" while in progress, so a cycle ends), however many annotations or calls name it.
    _known: dict[str, str] = attrs.field(factory=dict, alias="_known")

    # -- names ---------------------------------------------------------------------------

    def canonical(self, view: View, dotted: str) -> str:
        """`dotted` as written in `view`, through its imports and first-party re-exports."""
        name = view.names.qualify(dotted)
        for _ in range(HOPS):
            found = self.split(name)
            if found is None:
                return name
            owner, rest = found
            head = rest.partition(".")[0]
            if not head or head in owner.names.defined or head not in owner.names.imported:
                return name
            further = owner.names.qualify(rest)
            if further == name:
                return name
            name = further
        return name

    def _first_party_binding(self, name: str) -> tuple[View, BindingFact] | None:
        found = self.split(name)
        if found is None or not found[1] or "." in found[1]:
            return None
        owner, rest = found
        binding = owner.binding(rest)
        return None if binding is None else (owner, binding)

    # -- types ---------------------------------------------------------------------------

    def annotation_type(self, view: View, names: tuple[str, ...], hops: int = DEPTH) -> str:
        """The blocking type an annotation names (through same-file or first-party aliases
        such as `SessionDep = Annotated[Session, Depends(...)]`), or ""."""
        for written in names:
            name = self.canonical(view, written)
            if name in self.tables.types:
                return name
            alias = self._first_party_binding(name) if hops > 0 else None
            if alias is not None and alias[1].annotation and not alias[1].value_callee:
                if name not in self._known:
                    self._known[name] = ""
                    # A fresh budget: the result is kept for every later use.
                    self._known[name] = self.annotation_type(alias[0], alias[1].annotation)
                if self._known[name]:
                    return self._known[name]
        return ""

    def binding_type(
        self,
        view: View,
        binding: BindingFact,
        hops: int = DEPTH,
        function: FunctionFact | None = None,
    ) -> str:
        """The blocking type of what a binding holds (of `function`, or of the module)."""
        if hops <= 0:
            return ""
        if function is None:  # a module's binding: the same wherever it is used
            key = f"{view.name}:{binding.name}:{binding.span.line}:{binding.span.column}"
            if key not in self._known:
                self._known[key] = ""
                self._known[key] = self._binding_type(view, binding, DEPTH, None)
            return self._known[key]
        return self._binding_type(view, binding, hops, function)

    def _binding_type(
        self, view: View, binding: BindingFact, hops: int, function: FunctionFact | None
    ) -> str:
        if binding.annotation:
            found = self.annotation_type(view, binding.annotation, hops - 1)
            if found or not binding.value_callee:
                return found
        if binding.value_callee:
            return self.call_type(view, function, binding.value_callee, binding.span, hops - 1)
        return ""

    def name_type(
        self, view: View, function: FunctionFact | None, name: str, at: Span, hops: int = DEPTH
    ) -> str:
        """The blocking type of a simple name used at `at`: the function's last binding of
        it before `at`, else its parameter, else the module's binding or a first-party
        instance it imports; "" when it is none of these or not blocking."""
        if hops <= 0:
            return ""
        hops -= 1
        if function is not None:
            local = None
            for binding in function.bindings:
                if binding.name == name and _before(binding.span, at):
                    local = binding
            if local is not None:
                return self.binding_type(view, local, hops, function)
            for param in function.params:
                if param.name == name:
                    return self.annotation_type(view, param.annotation, hops)
        module_binding = view.binding(name)
        if module_binding is not None:
            return self.binding_type(view, module_binding, hops)
        imported = self._first_party_binding(self.canonical(view, name))
        if imported is not None and imported[0].name != view.name:
            return self.binding_type(imported[0], imported[1], hops)
        return ""

    def call_type(
        self, view: View, function: FunctionFact | None, callee: str, at: Span, hops: int = DEPTH
    ) -> str:
        """The blocking type of what calling `callee` (dotted, calls kept as `()`) gives."""
        parts = _chain(callee)
        if not parts or hops <= 0:
            return ""
        if any(part.endswith("()") for part in parts):
            receiver = ".".join(parts[:-1])
            owner = self.expression_type(view, function, receiver, at, hops - 1)
        else:
            owner = ""
            if len(parts) == 2:
                owner = self.name_type(view, function, parts[0], at, hops - 1)
        if owner:
            spec = self.tables.types[owner]
            return spec.gives(parts[-1])
        if len(parts) == 1:
            instance = self.name_type(view, function, parts[0], at, hops - 1)
            if instance:
                return self.tables.types[instance].call_returns
        name = self.canonical(view, callee)
        if name in self.tables.constructors:
            return self.tables.constructors[name]
        if name in self.tables.calls:
            return self.tables.calls[name][1]
        imported = self._first_party_binding(name) if "." in callee else None
        if imported is not None:
            instance = self.binding_type(imported[0], imported[1], hops - 1)
            return self.tables.types[instance].call_returns if instance else ""
        return ""

    def expression_type(
        self, view: View, function: FunctionFact | None, text: str, at: Span, hops: int = DEPTH
    ) -> str:
        """The blocking type of a receiver written as `text` (`db`, `boto3.client()`,
        `engine.connect()`, `SessionLocal()`)."""
        if not text or hops <= 0:
            return ""
        if text.endswith("()"):
            return self.call_type(view, function, text[:-2], at, hops)
        if "." not in text:
            return self.name_type(view, function, text, at, hops)
        if "()" in text:
            return ""  # an attribute of a call's result: not followed
        imported = self._first_party_binding(self.canonical(view, text))
        return self.binding_type(imported[0], imported[1], hops) if imported is not None else ""

    # -- calls ---------------------------------------------------------------------------

    def block(self, view: View, function: FunctionFact, call: CallFact) -> Block | None:
        """The call blocks by itself, or is a blocking method of a blocking instance."""
        callee = call.callee
        if not callee:
            return None
        if "()" not in callee:
            name = self.canonical(view, callee)
            if name in self.tables.calls:
                return Block(call, self.tables.calls[name][0], method=False)
        receiver, dot, method = callee.rpartition(".")
        if not dot or method.endswith("()"):
            return None
        owner = self.expression_type(view, function, receiver, call.span)
        if owner and self.tables.types[owner].blocks(method):
            return Block(call, self.tables.types[owner].noun, method=True)
        return None

    def blocks_in(self, view: View, function: FunctionFact) -> Iterator[Block]:
        """The function's own blocking calls (not awaited, not in a nested def or lambda)."""
        for call in function.calls:
            if call.awaited or call.nested:
                continue
            found = self.block(view, function, call)
            if found is not None:
                yield found

    def helper(self, view: View, call: CallFact) -> tuple[View, FunctionFact] | None:
        """The first-party plain module-level `def` a call names, or None."""
        if not call.callee or "()" in call.callee:
            return None
        found = self.split(self.canonical(view, call.callee))
        if found is None or not found[1] or "." in found[1]:
            return None
        owner, name = found
        function = owner.function(name)
        if function is None or function.is_async:
            return None
        return owner, function


@attrs.define
class Splitter:
    """`SplitName` over a project: the longest first-party module prefix of a name, with
    its content and names read once per module."""

    model: ProjectModel
    _views: dict[str, View] = attrs.field(factory=dict)

    def __call__(self, name: str) -> tuple[View, str] | None:
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            info = self.model.index.module(".".join(parts[:cut]))
            if info is not None:
                return self.view(info), ".".join(parts[cut:])
        return None

    def view(self, info: ModuleInfo) -> View:
        found = self._views.get(info.name)
        if found is None:
            facts = self.model.content(info) or ContentFacts(parsed=False)
            found = self._views[info.name] = View(info.name, facts, Names.of(self.model, info))
        return found
