"""Content facts (issue 13, not wired yet): `read_content` on small snippets, its guards
and nesting, hostile depth and size, and the plain-data round trip of the record."""

from __future__ import annotations

import contextlib
import json
import os
import textwrap
from pathlib import Path
from typing import Any

import pytest

from inwards_core.extraction.content import CONTENT_ID, TRIGGERS, read_content
from inwards_core.model.content_data import content_from_data, content_to_data
from inwards_core.model.content_facts import (
    FUNCTION_LIMIT,
    STRING_LIMIT,
    BindingFact,
    CallFact,
    ClassFact,
    ContentFacts,
    FunctionFact,
)
from inwards_core.model.findings import Span

from .helpers import GRAMMARS

CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))


def content(source: str) -> ContentFacts:
    return read_content(textwrap.dedent(source), "pkg.mod", GRAMMARS)


def function(facts: ContentFacts, qualname: str) -> FunctionFact:
    (found,) = (f for f in facts.functions if f.qualname == qualname)
    return found


def cls(facts: ContentFacts, qualname: str) -> ClassFact:
    (found,) = (c for c in facts.classes if c.qualname == qualname)
    return found


def test_no_trigger_no_parse() -> None:
    assert CONTENT_ID == "content/9" and "async " in TRIGGERS
    assert content("import os\nx = os.getcwd()\n") == ContentFacts(parsed=False)
    # Not parsed at all: a syntax error behind no trigger still gives the empty record.
    assert content("x = (\n") == ContentFacts(parsed=False)


def test_a_module_that_only_builds_a_session_or_takes_one_is_parsed() -> None:
    # No decorator, class or async def: what INW013's one hop and bindings need all the same.
    built = content("from sqlalchemy.orm import sessionmaker\nSessionLocal = sessionmaker()\n")
    assert built.parsed and [b.name for b in built.bindings] == ["SessionLocal"]
    crud = content("def get_user(db):\n    return db.query(1)\n\n# db: Session\n")
    assert crud.parsed and [f.qualname for f in crud.functions] == ["get_user"]


def test_syntax_error_is_not_parsed() -> None:
    assert content("class A(:\n") == ContentFacts(parsed=False)


def test_function_fields() -> None:
    facts = content(
        """
        @router.post("/items", response_model=Item, **extra)
        async def create(item: Item, db: Annotated[Session, Depends(get_db)],
                         cache: Optional["redis.Redis"] = None, *args, other: A | B | None,
                         **kwargs) -> list[Item]:
            "Docstring."
            row = db.add(item)
            await db.commit()
            return row
        """
    )
    fact = function(facts, "create")
    assert fact.is_async and not fact.trivial
    assert fact.span == Span(3, 11, 3, 17)
    (decorator,) = fact.decorators
    assert decorator == CallFact(
        "router.post",
        Span(2, 2, 2, 13),
        False,
        False,
        ('"/items"',),
        ("response_model", "**"),
        ("Item", "extra"),
    )
    assert [(p.name, p.annotation) for p in fact.params] == [
        ("item", ("Item",)),
        ("db", ("Session",)),
        ("cache", ("redis.Redis",)),
        ("args", ()),
        ("other", ("A", "B")),
        ("kwargs", ()),
    ]
    assert [(c.callee, c.awaited, c.positional) for c in fact.calls] == [
        ("db.add", False, ("item",)),
        ("db.commit", True, ()),
    ]
    assert fact.bindings == (BindingFact("row", Span(7, 5, 7, 8), "db.add", (), None, ("item",)),)
    assert (fact.statements, fact.branches, fact.nesting, fact.loops) == (3, 0, 0, 0)


def test_qualnames_and_nested_calls() -> None:
    facts = content(
        """
        class Repo:
            def save(self):
                def helper():
                    requests.get("u")
                run = lambda: boto3.client("s3").put_object(Bucket="b")
                helper()
        """
    )
    assert [f.qualname for f in facts.functions] == ["Repo.save", "Repo.save.<locals>.helper"]
    assert cls(facts, "Repo").methods == ("Repo.save",)
    outer = function(facts, "Repo.save")
    assert [(c.callee, c.nested) for c in outer.calls] == [
        ("requests.get", True),
        ("boto3.client().put_object", True),
        ("boto3.client", True),
        ("helper", False),
    ]
    inner = function(facts, "Repo.save.<locals>.helper")
    assert [(c.callee, c.nested) for c in inner.calls] == [("requests.get", False)]


def test_guards_are_no_statements_nor_branches() -> None:
    facts = content(
        """
        @app.get("/")
        def endpoint(x):
            if x is None:
                raise HTTPException(404)
            if not x:
                abort(403)
            if x == 1:
                return None
            try:
                value = load(x)
            except KeyError:
                raise HTTPException(404)
            except ValueError:
                log(x)
                value = 0
            return value
        """
    )
    fact = function(facts, "endpoint")
    # try, value = load, log, value = 0, return: the three guards and the raise are none.
    assert fact.statements == 5
    assert fact.branches == 1  # the `except ValueError` handler
    assert fact.nesting == 1
    assert "HTTPException" in [c.callee for c in fact.calls]  # a guard's calls are kept
    assert "abort" in [c.callee for c in fact.calls]


def test_branches_nesting_loops_comprehensions() -> None:
    facts = content(
        """
        async def handler(items):
            for item in items:
                if item.a:
                    with lock:
                        total = [x for x in item]
                elif item.b:
                    pass
                else:
                    while True:
                        break
            match items:
                case []:
                    pass
                case _:
                    pass
            for name in ("a", "b"):
                pass
            for i in range(3):
                pass
            return {k: v for k, v in items}, (y for y in items)
        """
    )
    fact = function(facts, "handler")
    assert fact.branches == 4  # if, elif, two cases; never else
    assert fact.nesting == 3  # for > if > with (or for > else > while)
    assert fact.loops == 2  # not the loops over a literal or over range(3)
    assert fact.comprehensions == 3
    # for, if, with, total, pass, while, break, match, pass, pass, for, pass, for, pass,
    # return (elif: no)
    assert fact.statements == 15


def test_trivial_bodies() -> None:
    facts = content(
        """
        class Port(Protocol):
            def a(self) -> int:
                "Doc."
                ...
            def b(self):
                raise NotImplementedError("no")
            def c(self):
                pass
            def d(self):
                return 1
        """
    )
    assert [f.trivial for f in facts.functions] == [True, True, True, False]


def test_class_fields() -> None:
    facts = content(
        """
        @attrs.frozen
        class Hero(SQLModel, Generic[T], table=True, metaclass=Meta, name="x"):
            __tablename__ = "heroes"
            id: int | None = Field(default=None, primary_key=True)
            created: Mapped[datetime] = mapped_column(DateTime, nullable=False)
            born = Column("born", Date)
            class Meta:
                db_table = "app_hero"
            def save(self): ...
        """
    )
    hero = cls(facts, "Hero")
    assert hero.span == Span(3, 7, 3, 11)
    assert hero.bases == ("SQLModel", "Generic")
    assert hero.keywords == (("table", "True"), ("metaclass", "Meta"), ("name", '"x"'))
    assert [d.callee for d in hero.decorators] == ["attrs.frozen"]
    assert hero.methods == ("Hero.save",)
    assert [
        (a.name, a.value_callee, a.annotation, a.literal, a.positional) for a in hero.attributes
    ] == [
        ("__tablename__", "", (), "heroes", ()),
        ("id", "Field", ("int",), None, ()),
        ("created", "mapped_column", ("datetime",), None, ("DateTime",)),
        ("born", "Column", (), None, ('"born"', "Date")),
        ("Meta.db_table", "", (), "app_hero", ()),
    ]
    assert cls(facts, "Hero.Meta").attributes[0].name == "db_table"


def test_module_bindings_and_calls() -> None:
    facts = content(
        """
        SessionDep = Annotated[Session, Depends(get_session)]
        Db: TypeAlias = Optional[Session]
        cache = redis.Redis()
        metadata = MetaData(naming_convention=CONVENTION)
        urlpatterns = [
            path("items/", views.items, name="items"),
            re_path(r"^x/$", views.X.as_view()),
        ]
        with Session(engine) as session:
            pass
        """
    )
    assert [(b.name, b.value_callee, b.annotation) for b in facts.bindings] == [
        ("SessionDep", "", ("Session",)),
        ("Db", "", ("Session",)),
        ("cache", "redis.Redis", ()),
        ("metadata", "MetaData", ()),
        ("urlpatterns", "", ()),
        ("session", "Session", ()),
    ]
    assert [(c.callee, c.positional, c.keywords) for c in facts.calls] == [
        ("Depends", ("get_session",), ()),
        ("redis.Redis", (), ()),
        ("MetaData", (), ("naming_convention",)),
        ("path", ('"items/"', "views.items"), ("name",)),
        ("re_path", ('"^x/$"', "views.X.as_view()"), ()),
        ("views.X.as_view", (), ()),
        ("Session", ("engine",), ()),
    ]


def test_columns_count_characters() -> None:
    facts = content('@app.get("/")\ndef f():\n    x = "été"; requests.get(x)\n')
    (call,) = function(facts, "f").calls
    assert call.span == Span(3, 16, 3, 28)


def test_long_strings_are_cut() -> None:
    facts = content(f'class A:\n    name = "{"x" * 1000}"\n')
    assert facts.classes[0].attributes[0].literal == "x" * STRING_LIMIT


def test_deep_nesting_is_no_recursion() -> None:
    # CPython's parser refuses 100 levels of indentation: a deep file gives no facts.
    deep = "".join(" " * i + "if x:\n" for i in range(5000)) + " " * 5000 + "pass\n"
    assert content("async def f():\n" + textwrap.indent(deep, " ")).parsed is False
    # What the parser takes, the walk takes without recursion: 95 nested blocks, a long
    # list and a long attribute chain.
    blocks = "".join(" " * (i + 1) + "if x:\n" for i in range(95)) + " " * 96 + "f()\n"
    fact = function(content("async def g():\n" + blocks), "g")
    assert fact.nesting == 95 and fact.branches == 95
    wide = content("class A: ...\nx = [" + "f(1), " * 100_000 + "]\n")
    assert wide.parsed and 19_000 < len(wide.calls) <= 20_000 and wide.truncated
    chain = content("class A: ...\nx = a" + ".b" * 500 + "()\n")
    assert chain.calls[0].callee == ""  # too long to be a name worth matching
    # Past what CPython's parser takes (it recurses), no facts rather than an error.
    assert content("class A: ...\nx = a" + ".b" * 50_000 + "()\n").parsed is False


def test_counts_are_bounded() -> None:
    many = content("".join(f"@d\ndef f{i}(): pass\n" for i in range(5_100)))
    assert len(many.functions) == FUNCTION_LIMIT and many.truncated
    assert content_from_data(content_to_data(many)) == many


def test_carriage_returns_keep_positions() -> None:
    facts = content("class A:\r\n    x = f()\r\n")
    assert facts.calls[0].span == Span(2, 9, 2, 10)


def test_round_trip_snippets() -> None:
    facts = content(
        """
        @app.get("/")
        async def f(x: int):
            return x
        class A(B):
            y = 1
        """
    )
    data = json.loads(json.dumps(content_to_data(facts)))
    assert content_from_data(data) == facts
    assert content_from_data(content_to_data(ContentFacts(parsed=False))) == ContentFacts(
        parsed=False
    )


def _corpus_files() -> list[Path]:
    roots = [
        CORPORA / "fastapi" / "fastapi-0.163.2" / "docs_src",
        CORPORA / "fastapi" / "fastapi-users-15.0.5",
    ]
    return [path for root in roots if root.is_dir() for path in sorted(root.rglob("*.py"))]


def test_round_trip_corpus() -> None:
    files = _corpus_files()
    if not files:
        pytest.skip(f"corpora not in {CORPORA} (set INWARDS_CORPORA to their folder)")
    parsed = 0
    for path in files:
        facts = read_content(path.read_text("utf-8", "replace"), path.stem, GRAMMARS)
        parsed += facts.parsed
        data = json.loads(json.dumps(content_to_data(facts)))
        assert content_from_data(data) == facts, path
    assert parsed > len(files) // 2


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"parsed": True},
        {**content_to_data(ContentFacts(parsed=True)), "extra": []},
        {**content_to_data(ContentFacts(parsed=True)), "parsed": 1},
        {**content_to_data(ContentFacts(parsed=True)), "calls": [["f", [1, 1, 1, 1]]]},
        {
            **content_to_data(ContentFacts(parsed=True)),
            "calls": [["f", [0, 1, 1, 1], False, False, [], []]],
        },
        {
            **content_to_data(ContentFacts(parsed=True)),
            "bindings": [["x" * 201, [1, 1, 1, 1], "", [], None, []]],
        },
        {
            **content_to_data(ContentFacts(parsed=True)),
            "calls": [["f", [1, 1, 1, 1], False, False, ["a"] * 5, []]],
        },
        {**content_to_data(ContentFacts(parsed=True)), "functions": [[]]},
    ],
)
def test_malformed_data_is_a_value_error(data: Any) -> None:
    with pytest.raises(ValueError):
        content_from_data(data)


hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")

_json = strategies.recursive(
    strategies.none() | strategies.booleans() | strategies.integers() | strategies.text(max_size=5),
    lambda inner: (
        strategies.lists(inner, max_size=7)
        | strategies.dictionaries(strategies.text(max_size=9), inner, max_size=6)
    ),
    max_leaves=40,
)
_valid = content_to_data(
    read_content(
        '@app.get("/")\nasync def f(x: T):\n    await g(x)\nclass A(B):\n    y = "z"\n'
        'app = h("a", k=1)\n',
        "m",
        GRAMMARS,
    )
)


def _mutations() -> Any:
    keys = sorted(_valid)
    return strategies.builds(
        lambda key, value: {**_valid, key: value}, strategies.sampled_from(keys), _json
    )


def _row_mutations() -> Any:
    """One field of one nested row (a function's, a class's, a call's) replaced."""

    def mutate(key: str, index: int, value: Any) -> Any:
        rows = [list(row) for row in _valid[key]]
        row = rows[0]
        row[index % len(row)] = value
        return {**_valid, key: rows}

    keys = strategies.sampled_from(["functions", "classes", "calls", "bindings"])
    return strategies.builds(mutate, keys, strategies.integers(0, 12), _json)


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(strategies.one_of(_json, _mutations(), _row_mutations()))
def test_content_from_data_raises_only_value_error(data: Any) -> None:
    with contextlib.suppress(ValueError):
        content_from_data(data)


def test_keyword_values_and_raised_calls() -> None:
    facts = content(
        """
        @router.post("/items", status_code=201, response_model=Item, include_in_schema=False)
        async def create(item):
            if item.bad:
                raise HTTPException(status_code=404, detail="missing")
            return JSONResponse(status_code=status.HTTP_409_CONFLICT, content=make())
        """
    )
    (create,) = facts.functions
    (decorator,) = create.decorators
    assert decorator.keywords == ("status_code", "response_model", "include_in_schema")
    assert decorator.keyword_values == ("201", "Item", "False")
    assert not decorator.raised
    by_callee = {call.callee: call for call in create.calls}
    assert by_callee["HTTPException"].raised
    assert by_callee["HTTPException"].keyword_values == ("404", '"missing"')
    assert not by_callee["JSONResponse"].raised
    assert by_callee["JSONResponse"].keyword_values == ("status.HTTP_409_CONFLICT", "")
    assert not by_callee["make"].raised
    assert content_from_data(json.loads(json.dumps(content_to_data(facts)))) == facts


def test_positional_numbers_are_kept() -> None:
    facts = content(
        """
        async def find(item_id):
            raise HTTPException(404, "missing")
        """
    )
    (call,) = function(facts, "find").calls
    assert call.positional == ("404", '"missing"')


def test_a_dict_value_keeps_its_keys_and_those_of_inner_dicts() -> None:
    facts = content(
        """
        @router.get(
            "/items",
            responses={
                404: {"description": "gone", "model": Message},
                status.HTTP_409_CONFLICT: {"model": Message},
                "4XX": {},
                "default": make(),
                **common,
                **{"x": 1},
                "a,b": {"description": "x"},
                **{},
            },
            openapi_extra={},
        )
        async def read():
            ...
        """
    )
    (decorator,) = function(facts, "read").decorators
    responses, extra = decorator.keyword_values
    assert responses == (
        '{404:{"description","model"},status.HTTP_409_CONFLICT:{"model"},"4XX":{},'
        '"default",**common,**?,?:{"description"},**?}'
    )
    assert extra == "{}"


def test_a_long_dict_keeps_its_first_entries_within_the_bound() -> None:
    entries = ", ".join(f'{400 + n}: {{"description": "d", "model": M}}' for n in range(40))
    facts = content(f"@app.get('/', responses={{{entries}}})\nasync def read(): ...\n")
    (text,) = function(facts, "read").decorators[0].keyword_values
    assert len(text) <= STRING_LIMIT
    assert text.startswith('{400:{"description","model"},401:') and text.endswith(",...}")
    many = ", ".join(f"{n}: 1" for n in range(100))
    facts = content(f"@app.get('/', responses={{{many}}})\nasync def read(): ...\n")
    (text,) = function(facts, "read").decorators[0].keyword_values
    assert text.endswith(",...}") and len(text) <= STRING_LIMIT


def test_return_annotations_and_docstrings() -> None:
    facts = content(
        '''
        async def a() -> Item:
            """Doc."""
        async def b() -> None: ...
        async def c(): return 1
        async def d() -> Annotated[list[Item], "x"] | None: ...
        '''
    )
    assert function(facts, "a").returns == ("Item",) and function(facts, "a").documented
    assert function(facts, "b").returns == ("None",) and not function(facts, "b").documented
    assert function(facts, "c").returns == ()
    assert function(facts, "d").returns == ("list",)
    assert content_from_data(json.loads(json.dumps(content_to_data(facts)))) == facts


def test_yields_and_the_tries_around_them() -> None:
    facts = content(
        """
        def get_db():
            db = make()
            try:
                yield db
            except (ValueError, errors.Gone) as error:
                db.rollback()
            except KeyError:
                raise
            except:
                if db.bad:
                    raise Failed() from None
                else:
                    raise
            finally:
                db.close()
            try:
                cleanup()
            except Exception:
                pass

        async def stream():
            for item in items:
                yield item
            def inner():
                yield 1

        def plain():
            return lambda: (yield)
        """
    )
    get_db = function(facts, "get_db")
    assert get_db.yields == 1 and not get_db.yield_in_loop
    (attempt,) = get_db.yield_tries
    assert attempt.span == Span(4, 5, 4, 8)
    assert [(h.caught, h.reraises) for h in attempt.handlers] == [
        (("ValueError", "errors.Gone"), False),
        (("KeyError",), True),
        ((), True),
    ]
    assert attempt.handlers[0].span == Span(6, 5, 6, 37)
    assert attempt.handlers[2].span == Span(10, 5, 10, 11)
    stream = function(facts, "stream")
    assert stream.yields == 1 and stream.yield_in_loop and stream.is_async
    assert function(facts, "stream.<locals>.inner").yields == 1
    assert function(facts, "plain").yields == 0
    assert content_from_data(json.loads(json.dumps(content_to_data(facts)))) == facts


@pytest.mark.parametrize(
    ("body", "reraises"),
    [
        ("raise", True),
        ("log(e)\n    raise", True),
        ("pass", False),
        ("if a:\n        raise", False),
        ("if a:\n        raise\n    else:\n        raise X()", True),
        ("if a:\n        return\n    raise", False),
        ("with lock:\n        raise", True),
        ("for x in y:\n        raise\n    raise", True),
        ("for x in y:\n        break\n    raise", False),
        ("try:\n        undo()\n    finally:\n        raise", True),
        ("try:\n        undo()\n    except E:\n        pass\n    raise", True),
        ("try:\n        raise\n    except E:\n        return", False),
        ("match a:\n        case 1:\n            raise\n        case _:\n            raise", True),
        ("match a:\n        case 1:\n            raise", False),
    ],
)
def test_a_handler_reraises_when_every_path_raises(body: str, reraises: bool) -> None:
    source = f"def dep():\n  try:\n    yield 1\n  except E as e:\n    {body}\n"
    (attempt,) = function(content(source), "dep").yield_tries
    assert attempt.handlers[0].reraises is reraises


def test_a_try_without_a_yield_in_its_body_is_not_kept() -> None:
    facts = content(
        """
        def dep():
            try:
                x = 1
            except E:
                yield 2
            try:
                try:
                    yield 1
                except A:
                    pass
            except B:
                raise
        """
    )
    dep = function(facts, "dep")
    assert dep.yields == 2
    assert [[h.caught for h in t.handlers] for t in dep.yield_tries] == [[("B",)], [("A",)]]


def test_return_values() -> None:
    facts = content(
        """
        @cache
        def f(flag):
            if flag:
                return
            if flag > 1:
                return None
            if flag > 2:
                return {"a": 1}
            if flag > 3:
                return f"x{flag}" or [1]
            if flag > 4:
                return a or b
            if flag > 5:
                return lambda: 1
            if flag > 6:
                return inner
            if flag > 7:
                return Checker(flag)
            def inner():
                return 1
            return x[0]
        """
    )
    assert function(facts, "f").return_values == (
        "<none>",
        "<none>",
        "<value>",
        "<value>",
        "",
        "<lambda>",
        "inner",
        "Checker()",
        "",
    )
    assert function(facts, "f.<locals>.inner").return_values == ("<value>",)


def test_signature_calls_and_call_arguments() -> None:
    facts = content(
        """
        @router.get("/", dependencies=[Depends(auth)], status_code=make())
        async def read(
            db: Annotated[Session, Depends(get_db)],
            user=Security(current_user(), scopes=["me"]),
            *, page: int = Query(1),
        ) -> Out:
            return helper()
        """
    )
    read = function(facts, "read")
    assert [c.callee for c in read.signature_calls] == [
        "Depends",
        "make",
        "Depends",
        "Security",
        "current_user",
        "Query",
    ]
    assert [c.callee for c in read.calls] == ["helper"]
    security = read.signature_calls[3]
    assert security.positional == ("current_user()",)
    assert content_from_data(json.loads(json.dumps(content_to_data(facts)))) == facts


def test_yield_is_a_trigger() -> None:
    assert read_content("def dep():\n    yield 1\n", "m", GRAMMARS).parsed
    assert "yield" in TRIGGERS


def test_http_errors_are_triggers() -> None:
    facts = content("def load(x):\n    raise HTTPException(404)\n")
    assert facts.parsed and function(facts, "load").calls[0].raised
    assert content("def gone():\n    return JSONResponse({}, status_code=410)\n").parsed


def test_a_list_value_keeps_its_items() -> None:
    facts = content(
        """
        router = APIRouter(
            dependencies=[Depends(verify_token), Security(auth, scopes=["a"]), Depends()],
            tags=["users", Tag.ADMIN],
            other=(f(x)(y), 1, "a,b", lambda: 1),
        )
        """
    )
    (call,) = (c for c in facts.calls if c.callee == "APIRouter")
    assert call.keyword_values == (
        "[Depends(verify_token),Security(auth),Depends()]",
        '["users",Tag.ADMIN]',
        "[?,1,?,?]",
    )
    many = ", ".join(f"Depends(dependency_number_{n})" for n in range(30))
    facts = content(f"router = APIRouter(dependencies=[{many}])\n")
    (call,) = (c for c in facts.calls if c.callee == "APIRouter")
    assert len(call.keyword_values[0]) <= STRING_LIMIT
    assert call.keyword_values[0].endswith(",...]")


def test_a_deeply_nested_handler_is_read_within_bounds() -> None:
    depth = 90  # the tokenizer allows 100 indentation levels
    lines = ["def dep():", "  try:", "    yield 1", "  except E:"]
    lines += [" " * (4 + 2 * level) + "if a:" for level in range(depth)]
    lines.append(" " * (4 + 2 * depth) + "raise")
    (attempt,) = function(content("\n".join(lines) + "\n"), "dep").yield_tries
    assert attempt.handlers[0].reraises is False  # past the depth bound: not raising
