"""The one walk of `inwards_core.extraction.content`: statements on an explicit stack,
expressions on another; definitions of the metrics are in that module's docstring."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import replace

import attrs

from inwards_core.extraction.content_bindings import binding_parts, bound_targets
from inwards_core.extraction.content_frames import (
    ClassDraft,
    Frame,
    FunctionDraft,
    TryDraft,
    by_position,
    class_fact,
    elif_frame,
    function_fact,
    is_elif,
)
from inwards_core.extraction.content_parts import (
    annotation_names,
    caught_names,
    dotted,
    ends_in_raise,
    is_docstring,
    is_fixed_iterable,
    is_guard_body,
    is_guard_if,
    is_trivial_body,
    positional,
    return_names,
    return_value_text,
    value_text,
)
from inwards_core.extraction.static import WholeFileLocator
from inwards_core.extraction.text import SourceLines
from inwards_core.model.content_facts import (
    CLASS_LIMIT,
    FUNCTION_LIMIT,
    ITEM_LIMIT,
    KEYWORD_LIMIT,
    BindingFact,
    CallFact,
    ClassFact,
    ContentFacts,
    FunctionFact,
    HandlerFact,
    ParamFact,
    cut,
)
from inwards_core.model.findings import Span

_DEF_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+(\w+)")
_BLOCKS = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.Match)
_TRY_STAR = getattr(ast, "TryStar", ast.Try)
_LEAVES = (
    ast.Name,
    ast.Constant,
    ast.expr_context,
    ast.operator,
    ast.boolop,
    ast.cmpop,
    ast.unaryop,
)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


class ContentWalk:
    def __init__(self, text: str) -> None:
        self._lines = SourceLines(text)
        self._locator = WholeFileLocator(self._lines)
        self._functions: list[FunctionDraft] = []
        self._classes: list[ClassDraft] = []
        self._bindings: list[BindingFact] = []
        self._calls: list[CallFact] = []
        self._items = 0
        self.truncated = False

    def read(self, tree: ast.Module) -> ContentFacts:
        top = Frame(calls=((self._calls, False),), bindings=((self._bindings, ""),), prefix="")
        stack: list[tuple[ast.stmt, Frame]] = [(s, top) for s in reversed(tree.body)]
        while stack:
            statement, frame = stack.pop()
            stack += reversed(list(self._statement(statement, frame)))
        return ContentFacts(
            parsed=True,
            functions=tuple(function_fact(f) for f in self._functions),
            classes=tuple(class_fact(c) for c in self._classes),
            bindings=tuple(self._bindings),
            calls=by_position(self._calls),
            truncated=self.truncated,
        )

    # -- bounds ----------------------------------------------------------------------

    def _take(self, count: int = 1) -> bool:
        if self._items + count > ITEM_LIMIT:
            self.truncated = True
            return False
        self._items += count
        return True

    # -- positions ---------------------------------------------------------------------

    def _span(self, node: ast.expr | ast.stmt | ast.excepthandler) -> Span:
        _, line, column = self._locator.locate(node.lineno, node.col_offset)
        end_line = node.end_lineno or node.lineno
        end_offset = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        _, end_line, end_column = self._locator.locate(end_line, end_offset)
        return Span(line, column, end_line, end_column)

    def _name_span(self, node: ast.stmt, name: str) -> Span:
        """The span of a def's or class's name on its line (the keyword's when the name
        stands on another line)."""
        start = self._span(node)
        line = self._lines.line_text(start.line)
        found = _DEF_NAME.match(line, start.column - 1)
        if found is None or found.group(1) != name:
            return Span(start.line, start.column, start.line, start.column)
        return Span(start.line, found.start(1) + 1, start.line, found.end(1) + 1)

    # -- statements --------------------------------------------------------------------

    def _statement(self, statement: ast.stmt, frame: Frame) -> Iterator[tuple[ast.stmt, Frame]]:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            yield from self._def(statement, frame)
            return
        if isinstance(statement, ast.ClassDef):
            yield from self._class(statement, frame)
            return
        if isinstance(statement, ast.Return) and frame.function is not None and self._take():
            frame.function.return_values.append(cut(return_value_text(statement.value)))
        metrics = frame.metrics
        guard = isinstance(statement, ast.If) and is_guard_if(statement)
        if metrics is not None and not guard and not frame.elif_:
            metrics.statements += 1
        self._bind(statement, frame)
        yield from self._parts(statement, frame, guard)

    def _parts(
        self, statement: ast.stmt, frame: Frame, guard: bool
    ) -> Iterator[tuple[ast.stmt, Frame]]:
        """Walk the statement's own expressions; yield its body statements, measured."""
        metrics = frame.metrics
        inner = replace(
            frame, metrics=None if guard else metrics, depth=frame.depth + 1, elif_=False
        )
        body_frame = self._body_frame(statement, inner)
        if metrics is not None and not guard and isinstance(statement, (*_BLOCKS, _TRY_STAR)):
            metrics.nesting = max(metrics.nesting, inner.depth)
            if isinstance(statement, ast.While) or (
                isinstance(statement, ast.For | ast.AsyncFor)
                and not is_fixed_iterable(statement.iter)
            ):
                metrics.loops += 1
            if isinstance(statement, ast.If):
                metrics.branches += 1
        for name, value in ast.iter_fields(statement):
            values = value if isinstance(value, list) else [value]
            if isinstance(statement, ast.If) and name == "orelse" and is_elif(value):
                yield value[0], elif_frame(inner)
                continue
            for item in values:
                if isinstance(item, ast.stmt):
                    yield item, (body_frame if name == "body" else inner)
                elif isinstance(item, ast.excepthandler):
                    yield from self._handler(item, inner, metrics is not None and not guard)
                elif isinstance(item, ast.match_case):
                    if inner.metrics is not None:
                        inner.metrics.branches += 1
                    self._expressions([item.pattern, item.guard], frame)
                    yield from ((s, inner) for s in item.body)
                elif isinstance(item, ast.withitem):
                    self._expressions([item.context_expr, item.optional_vars], frame)
                elif isinstance(item, ast.AST):
                    raised = isinstance(statement, ast.Raise) and name == "exc"
                    self._expressions([item], frame, item if raised else None)

    def _handler(
        self, handler: ast.excepthandler, inner: Frame, measured: bool
    ) -> Iterator[tuple[ast.stmt, Frame]]:
        assert isinstance(handler, ast.ExceptHandler)
        self._expressions([handler.type], inner)
        guard = is_guard_body(handler.body)
        if measured and not guard and inner.metrics is not None:
            inner.metrics.branches += 1
        body_frame = replace(inner, metrics=None if guard else inner.metrics)
        yield from ((s, body_frame) for s in handler.body)

    def _body_frame(self, statement: ast.stmt, inner: Frame) -> Frame:
        """The frame of a block's `body`: a loop's marks it as looped, a `try`'s of a
        function adds the `try` (with its handlers read now) to those a yield reports to."""
        if isinstance(statement, _LOOPS):
            return replace(inner, loop=True)
        function = inner.function
        if not isinstance(statement, (ast.Try, _TRY_STAR)) or function is None:
            return inner
        handlers = tuple(self._handler_fact(h) for h in statement.handlers)
        if not self._take(1 + len(handlers) + sum(len(h.caught) for h in handlers)):
            return inner
        start = self._span(statement)
        attempt = TryDraft(Span(start.line, start.column, start.line, start.column + 3), handlers)
        function.tries.append(attempt)
        return replace(inner, tries=(*inner.tries, attempt))

    def _handler_fact(self, handler: ast.excepthandler) -> HandlerFact:
        assert isinstance(handler, ast.ExceptHandler)
        start = self._span(handler)
        if handler.type is not None:
            end = self._span(handler.type)
            span = Span(start.line, start.column, end.end_line, end.end_column)
        else:
            span = Span(start.line, start.column, start.line, start.column + len("except"))
        caught = tuple(cut(name) for name in caught_names(handler.type))
        return HandlerFact(span, caught, ends_in_raise(handler.body))

    def _def(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, frame: Frame
    ) -> Iterator[tuple[ast.stmt, Frame]]:
        if frame.metrics is not None:
            frame.metrics.statements += 1
        if len(self._functions) >= FUNCTION_LIMIT:
            self.truncated = True
            return
        qualname = cut(frame.prefix + node.name)
        fact = FunctionFact(
            qualname=qualname,
            span=self._name_span(node, node.name),
            is_async=isinstance(node, ast.AsyncFunctionDef),
            decorators=self._decorators(node.decorator_list),
            params=self._params(node.args),
            trivial=is_trivial_body(node.body),
            returns=self._returns(node.returns),
            documented=is_docstring(node.body[0]),
        )
        function = FunctionDraft(fact)
        self._functions.append(function)
        if frame.cls is not None and self._take():
            frame.cls.methods.append(qualname)
        calls: tuple[tuple[list[CallFact], bool], ...] = ((function.calls, False),)
        if frame.function is not None:
            calls += ((frame.function.calls, True),)
        self._signature_calls(node, function)
        body = Frame(calls, ((function.bindings, ""),), qualname + ".<locals>.", function, function)
        start = 1 if is_docstring(node.body[0]) else 0
        yield from ((s, body) for s in node.body[start:])

    def _signature_calls(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, function: FunctionDraft
    ) -> None:
        """The calls of the decorators' arguments, the parameters' defaults and
        annotations and the return annotation, into `function.signature_calls`."""
        args = node.args
        every = [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]
        nodes: list[ast.AST | None] = [arg.annotation for arg in every if arg is not None]
        nodes += [*args.defaults, *args.kw_defaults, node.returns]
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call):
                nodes += [*decorator.args, *(k.value for k in decorator.keywords)]
        self._expressions(
            nodes, Frame(calls=((function.signature_calls, False),), bindings=(), prefix="")
        )

    def _class(self, node: ast.ClassDef, frame: Frame) -> Iterator[tuple[ast.stmt, Frame]]:
        if frame.metrics is not None:
            frame.metrics.statements += 1
        if len(self._classes) >= CLASS_LIMIT:
            self.truncated = True
            return
        qualname = cut(frame.prefix + node.name)
        # `Generic[T]` is named by its base: `Generic`.
        bases = tuple(
            dotted(base.value if isinstance(base, ast.Subscript) else base) for base in node.bases
        )
        keywords = tuple(
            (cut(k.arg or "**"), value_text(k.value)) for k in node.keywords[:KEYWORD_LIMIT]
        )
        self.truncated |= len(node.keywords) > KEYWORD_LIMIT
        if not self._take(len(bases)):
            bases = ()
        fact = ClassFact(
            qualname=qualname,
            span=self._name_span(node, node.name),
            bases=bases,
            keywords=keywords,
            decorators=self._decorators(node.decorator_list),
        )
        cls = ClassDraft(fact)
        self._classes.append(cls)
        bindings: tuple[tuple[list[BindingFact], str], ...] = ((cls.attributes, ""),)
        if node.name == "Meta" and frame.cls is not None:
            bindings += ((frame.cls.attributes, "Meta."),)
        if frame.function is not None:
            calls: tuple[tuple[list[CallFact], bool], ...] = ((frame.function.calls, True),)
        else:
            calls = ((self._calls, False),)
        body = Frame(calls, bindings, qualname + ".", frame.function, None, cls)
        yield from ((s, body) for s in node.body)

    def _decorators(self, decorators: list[ast.expr]) -> tuple[CallFact, ...]:
        if not self._take(len(decorators)):
            return ()
        return tuple(
            self._call(d.func, d) if isinstance(d, ast.Call) else self._call(d, None)
            for d in decorators
        )

    def _params(self, args: ast.arguments) -> tuple[ParamFact, ...]:
        every = [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]
        params = tuple(
            ParamFact(cut(arg.arg), annotation_names(arg.annotation))
            for arg in every
            if arg is not None
        )
        if not self._take(len(params) + sum(len(p.annotation) for p in params)):
            return ()
        return params

    def _returns(self, annotation: ast.expr | None) -> tuple[str, ...]:
        names = return_names(annotation)
        return names if self._take(len(names)) else ()

    def _call(
        self,
        callee: ast.expr,
        call: ast.Call | None,
        awaited: bool = False,
        nested: bool = False,
        raised: bool = False,
    ) -> CallFact:
        if call is None:
            return CallFact(dotted(callee), self._span(callee), awaited, nested)
        kept = call.keywords[:KEYWORD_LIMIT]
        self.truncated |= len(call.keywords) > KEYWORD_LIMIT
        return CallFact(
            dotted(callee),
            self._span(callee),
            awaited,
            nested,
            positional(call.args),
            tuple(cut(k.arg or "**") for k in kept),
            tuple(value_text(k.value) for k in kept),
            raised,
        )

    # -- bindings ----------------------------------------------------------------------

    def _bind(self, statement: ast.stmt, frame: Frame) -> None:
        top_level = frame.function is None and frame.cls is None
        for target, value, annotation in bound_targets(statement, top_level):
            name, callee, names, literal, args = binding_parts(target, value, annotation)
            for sink, prefix in frame.bindings:
                if self._take(1 + len(names)):
                    span = self._span(target)
                    sink.append(BindingFact(cut(prefix + name), span, callee, names, literal, args))

    # -- expressions -------------------------------------------------------------------

    def _expressions(
        self, nodes: list[ast.AST | None], frame: Frame, raised: ast.AST | None = None
    ) -> None:
        """Record the calls and count the comprehensions of expressions (iteratively);
        `raised` is the expression a `raise` statement raises."""
        stack: list[tuple[ast.AST, bool, bool]] = [
            (n, False, False) for n in nodes if n is not None
        ]
        while stack:
            node, awaited, nested = stack.pop()
            if isinstance(node, ast.Await):
                stack.append((node.value, True, nested))
                continue
            if isinstance(node, ast.Yield | ast.YieldFrom) and not nested:
                self._yield(frame)
            if isinstance(node, ast.Call):
                self._record(node, awaited, nested, frame, raised=node is raised)
            elif isinstance(node, _COMPREHENSIONS) and frame.metrics is not None:
                frame.metrics.comprehensions += 1
            inside = nested or isinstance(node, ast.Lambda)
            # Order does not matter (calls are sorted by position); leaves hold no call.
            stack += [
                (child, False, inside)
                for child in ast.iter_child_nodes(node)
                if not isinstance(child, _LEAVES)
            ]

    def _yield(self, frame: Frame) -> None:
        function = frame.function
        if function is None:
            return
        function.yields += 1
        function.yield_in_loop |= frame.loop
        for attempt in frame.tries:
            attempt.has_yield = True

    def _record(
        self, call: ast.Call, awaited: bool, nested: bool, frame: Frame, *, raised: bool = False
    ) -> None:
        fact = self._call(call.func, call, awaited, raised=raised)
        for sink, sink_nested in frame.calls:
            if self._take():
                sink.append(fact if not (nested or sink_nested) else _nested(fact))


def _nested(fact: CallFact) -> CallFact:
    return attrs.evolve(fact, nested=True)
