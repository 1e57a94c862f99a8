"""INW013 async-blocking: blocking calls inside `async def`, checked in memory."""

from __future__ import annotations

import textwrap

import pytest

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["app.domain"] },
  { name = "api", modules = ["app.api", "app.db", "app.tests"] },
]

[tool.inwards.rules]
extend-select = ["INW013"]
"""
MODULE = "app/api/views.py"


def _findings(files: dict[str, str], options: str = "") -> list[Finding]:
    text = CONFIG + (f"\n[tool.inwards.rules.async-blocking]\n{options}" if options else "")
    sources = {path: textwrap.dedent(source) for path, source in files.items()}
    report = check(load_config_text(text), InMemoryProjectFiles(sources), rule_set=RULES)
    return [f for f in report.findings if f.code == "INW013"]


def _calls(source: str, options: str = "", **more: str) -> list[tuple[int, str]]:
    """(line, call as written) of each finding in MODULE."""
    files = {MODULE: source, **{k.replace("__", "/") + ".py": v for k, v in more.items()}}
    return [(f.span.line, f.message.split("`")[1]) for f in _findings(files, options)]


# -- receivers typed by annotations ------------------------------------------------------


def test_annotations_plain_optional_union_annotated_and_aliases() -> None:
    source = """\
        from typing import Annotated, Optional, TypeAlias
        from fastapi import Depends
        from sqlalchemy.orm import Session
        import sqlmodel

        SessionDep = Annotated[Session, Depends(object)]
        Maybe: TypeAlias = Optional[Session]

        async def a(db: Session, b: Optional[Session], c: Session | None) -> None:
            db.execute(q)
            b.commit()
            c.scalars(q)

        async def d(e: Annotated[Session, Depends(object)], f: SessionDep, g: Maybe) -> None:
            e.get(User, 1)
            f.query(User).filter(x).all()
            g.flush()

        async def h(s: sqlmodel.Session) -> None:
            s.exec(q)
            s.add(obj)
        """
    assert _calls(source) == [
        (10, "db.execute"),
        (11, "b.commit"),
        (12, "c.scalars"),
        (15, "e.get"),
        (16, "f.query"),
        (17, "g.flush"),
        (20, "s.exec"),
    ]


def test_an_alias_imported_from_another_module_of_the_project() -> None:
    deps = """\
        from typing import Annotated
        from sqlalchemy.orm import Session

        async def get_db(): ...

        DbDep = Annotated[Session, object]
        """
    source = """\
        from app.db.deps import DbDep

        async def read(db: DbDep) -> None:
            db.refresh(obj)
        """
    assert _calls(source, app__db__deps=deps) == [(4, "db.refresh")]


# -- receivers bound to blocking constructors ------------------------------------------------


def test_module_and_function_bindings() -> None:
    source = """\
        import redis
        import boto3
        import sqlite3
        from sqlalchemy import create_engine
        from sqlalchemy.orm import Session, sessionmaker

        cache = redis.Redis.from_url("redis://")
        engine = create_engine("sqlite://")
        SessionLocal = sessionmaker(bind=engine)
        s3 = boto3.client("s3")

        async def view() -> None:
            cache.get("k")
            s3.put_object(Bucket="b", Key="k")
            s3.generate_presigned_url("get_object")
            with Session(engine) as session:
                session.execute(q)
            db = SessionLocal()
            db.commit()
            conn = engine.connect()
            conn.execute(q)
            lite = sqlite3.connect("x.db")
            cursor = lite.cursor()
            cursor.fetchall()
            boto3.client("sqs").send_message(QueueUrl="u")
        """
    assert _calls(source) == [
        (13, "cache.get"),
        (14, "s3.put_object"),
        (17, "session.execute"),
        (19, "db.commit"),
        (20, "engine.connect"),
        (21, "conn.execute"),
        (22, "sqlite3.connect"),
        (24, "cursor.fetchall"),
        (25, "boto3.client().send_message"),
    ]


def test_an_instance_imported_from_a_module_of_the_project() -> None:
    db = """\
        from sqlalchemy import create_engine

        class Base: ...

        engine = create_engine("sqlite://")
        """
    source = """\
        from app.db import engine
        from app import db as database

        async def health() -> None:
            with engine.begin() as conn:
                conn.exec_driver_sql("select 1")
            database.engine.dispose()
        """
    assert _calls(source, app__db=db) == [
        (5, "engine.begin"),
        (6, "conn.exec_driver_sql"),
        (7, "database.engine.dispose"),
    ]


def test_boto3_sub_resources_block_and_local_methods_do_not() -> None:
    source = """\
        import boto3

        dynamodb = boto3.resource("dynamodb")

        async def put(item: dict) -> None:
            table = dynamodb.Table("orders")
            table.put_item(Item=item)
            dynamodb.Bucket("b").upload_file("f", "k")
            boto3.client("s3").generate_presigned_url("get_object")
        """
    assert _calls(source) == [(7, "table.put_item"), (8, "dynamodb.Bucket().upload_file")]


def test_a_redis_pipeline_blocks_on_execute_only() -> None:
    source = """\
        from redis import StrictRedis

        r = StrictRedis()

        async def bump() -> None:
            pipe = r.pipeline()
            pipe.incr("hits")
            pipe.execute()
        """
    assert _calls(source) == [(8, "pipe.execute")]


# -- calls that block by themselves ------------------------------------------------------


def test_blocking_calls_of_every_family_and_the_messages() -> None:
    source = """\
        import requests
        import urllib.request as ur
        from requests import post
        import psycopg, psycopg2, pymysql, MySQLdb
        import mysql.connector

        async def calls() -> None:
            requests.get("u")
            post("u", json={})
            ur.urlopen("u")
            psycopg.connect("dsn")
            psycopg2.connect("dsn")
            pymysql.connect(host="h")
            MySQLdb.connect(host="h")
            mysql.connector.connect(host="h")
            http = requests.Session()
            http.get("u")
        """
    findings = _findings({MODULE: source})
    assert [(f.span.line, f.message.split("`")[1]) for f in findings] == [
        (8, "requests.get"),
        (9, "post"),
        (10, "ur.urlopen"),
        (11, "psycopg.connect"),
        (12, "psycopg2.connect"),
        (13, "pymysql.connect"),
        (14, "MySQLdb.connect"),
        (15, "mysql.connector.connect"),
        (17, "http.get"),
    ]
    assert findings[0].message == (
        "`requests.get` is a blocking HTTP request (requests) inside `async def calls`: the "
        "event loop stops until it returns."
    )
    assert findings[-1].message == (
        "`http.get` waits on a requests HTTP session inside `async def calls`: the event loop "
        "stops until it returns."
    )
    assert "worker thread" in findings[0].fix.summary


# -- one hop ---------------------------------------------------------------------------


def test_one_hop_into_plain_functions_same_module_and_imported() -> None:
    helpers = """\
        import requests

        @staticmethod
        def unused(): ...

        def fetch(url: str) -> bytes:
            return requests.get(url).content

        def indirect(url: str) -> bytes:
            return fetch(url)

        async def already_async(url: str) -> bytes:
            return requests.get(url).content
        """
    source = """\
        import redis
        from app.api import helpers
        from app.api.helpers import fetch, indirect

        def local_lookup(key: str) -> bytes:
            return redis.Redis().get(key)

        async def view() -> None:
            local_lookup("k")
            fetch("u")
            helpers.fetch("u")
            indirect("u")
            await helpers.already_async("u")
        """
    findings = [
        f for f in _findings({MODULE: source, "app/api/helpers.py": helpers}) if f.file == MODULE
    ]
    assert [(f.span.line, f.message) for f in findings] == [
        (
            9,
            "`local_lookup` is a plain function, where line 6's `redis.Redis().get` waits on a "
            "synchronous Redis client: called inside `async def view`, it stops the event loop "
            "until it returns.",
        ),
        (
            10,
            "`fetch` is a plain function of `app.api.helpers`, where line 7's `requests.get` is "
            "a blocking HTTP request (requests): called inside `async def view`, it stops the "
            "event loop until it returns.",
        ),
        (
            11,
            "`helpers.fetch` is a plain function of `app.api.helpers`, where line 7's "
            "`requests.get` is a blocking HTTP request (requests): called inside `async def "
            "view`, it stops the event loop until it returns.",
        ),
    ]
    assert findings[0].fix.summary.startswith("Don't call the blocking `local_lookup`")


def test_follow_modules_limits_the_hop() -> None:
    helpers = "import requests\n\nclass X: ...\n\ndef fetch(u):\n    return requests.get(u)\n"
    source = "from app.db.io import fetch\n\nasync def v():\n    fetch('u')\n"
    assert _calls(source, app__db__io=helpers) == [(4, "fetch")]
    assert _calls(source, 'follow-modules = ["app.api"]\n', app__db__io=helpers) == []


# -- options ------------------------------------------------------------------------------


def test_extend_blocking_calls_and_types() -> None:
    source = """\
        import ldap3
        from app.legacy import rates

        async def v(conn: ldap3.Connection) -> None:
            conn.search("dc=x", "(uid=a)")
            conn._private()
            rates.fetch_rates()
        """
    options = 'extend-blocking-calls = ["app.legacy.rates.fetch_rates"]\n'
    options += 'extend-blocking-types = ["ldap3.Connection"]\n'
    assert _calls(source) == []
    assert _calls(source, options) == [(5, "conn.search"), (7, "rates.fetch_rates")]


def test_a_bad_dotted_name_is_refused() -> None:
    with pytest.raises(Exception, match="is not a dotted name"):
        _findings({MODULE: ""}, 'extend-blocking-calls = ["fetch"]\n')


def test_test_modules_and_modules() -> None:
    source = "import requests\n\nasync def t():\n    requests.get('u')\n"
    files = {"app/tests/test_x.py": source, MODULE: source}
    assert [f.file for f in _findings(files)] == [MODULE]
    assert [f.file for f in _findings(files, "check-tests = true\n")] == [
        MODULE,
        "app/tests/test_x.py",
    ]
    assert [f.file for f in _findings(files, 'modules = ["app.tests"]\ncheck-tests = true\n')] == [
        "app/tests/test_x.py"
    ]


# -- what is not reported ------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(
            """\
            from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
            import redis.asyncio
            from redis.asyncio import Redis

            cache = redis.asyncio.Redis()
            other = Redis.from_url("redis://")
            engine = create_async_engine("sqlite+aiosqlite://")

            async def v(db: AsyncSession) -> None:
                await db.execute(q)
                await cache.get("k")
                await other.get("k")
                async with engine.connect() as conn:
                    await conn.execute(q)
            """,
            id="asyncio-twins",
        ),
        pytest.param(
            """\
            import asyncio
            from sqlalchemy.orm import Session
            from starlette.concurrency import run_in_threadpool

            async def v(db: Session) -> None:
                await asyncio.to_thread(db.execute, q)
                await run_in_threadpool(db.commit)
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(None, lambda: db.execute(q))

                def inner() -> None:
                    db.execute(q)

                await asyncio.to_thread(inner)
            """,
            id="references-lambdas-nested-defs",
        ),
        pytest.param(
            """\
            import time
            import aioboto3
            import anyio.to_thread
            from asgiref.sync import sync_to_async
            from sqlalchemy.orm import Session
            from starlette.testclient import TestClient

            async def v(db: Session, client: TestClient) -> None:
                time.sleep(1)
                session = aioboto3.Session()
                async with session.client("s3") as s3:
                    await s3.put_object(Bucket="b", Key="k")
                await sync_to_async(db.commit)()
                await anyio.to_thread.run_sync(db.flush)
                client.get("/")
            """,
            id="sleep-aioboto3-sync-to-async-anyio-testclient",
        ),
        pytest.param(
            """\
            from app.api.session import Session
            from django.contrib.sessions.backends.db import SessionStore

            async def v(db: Session, store: SessionStore) -> None:
                db.execute(q)
                store.save()
            """,
            id="look-alike-names",
        ),
        pytest.param(
            """\
            import redis
            import redis.asyncio

            cache = redis.Redis()

            async def v(db) -> None:
                cache = redis.asyncio.Redis()
                await cache.get("k")
                cache.close

            async def w(cache) -> None:
                cache.get("k")
            """,
            id="rebound-and-shadowed",
        ),
        pytest.param(
            """\
            from sqlalchemy.orm import Session
            import requests

            def plain(db: Session) -> None:
                db.execute(q)
                requests.get("u")

            async def v(db: Session) -> None:
                db.add(obj)
                db.expunge(obj)
                await db.execute(q)
            """,
            id="plain-defs-local-methods-and-awaited",
        ),
    ],
)
def test_no_finding(source: str) -> None:
    session = "class Session:\n    def execute(self, q): ...\n"
    assert _findings({MODULE: source, "app/api/session.py": session}) == []


def test_a_rebinding_counts_from_where_it_happens() -> None:
    source = """\
        import redis
        import redis.asyncio

        async def v() -> None:
            cache = redis.Redis()
            cache.get("a")
            cache = redis.asyncio.Redis()
            await cache.get("b")
            cache.get("c")
        """
    assert _calls(source) == [(6, "cache.get")]


def test_a_file_that_does_not_parse_is_not_judged() -> None:
    assert _findings({MODULE: "import requests\nasync def v(:\n    requests.get('u')\n"}) == []


def test_aliases_that_fan_out_are_each_resolved_once() -> None:
    # Twenty aliases per level, each naming all twenty of the level below, fifteen levels
    # deep: following every path would take 20**15 steps.
    lines = ["from typing import Annotated, Union", "", "class Foo: ..."]
    lines += [f"L0_{i} = Annotated[Foo, {i}]" for i in range(20)]
    for level in range(1, 16):
        below = ", ".join(f"L{level - 1}_{i}" for i in range(20))
        lines += [f"L{level}_{i} = Union[{below}]" for i in range(20)]
    lines += ["", "async def v(x: L15_0) -> None:", "    x.execute(q)", ""]
    assert _findings({MODULE: "\n".join(lines)}) == []


def test_a_call_made_to_build_a_worker_threads_argument_still_blocks() -> None:
    source = """\
        import asyncio
        from sqlalchemy.orm import Session

        async def v(db: Session) -> None:
            await asyncio.to_thread(str, db.execute(q))
        """
    assert _calls(source) == [(5, "db.execute")]


def test_an_instance_built_in_a_module_with_no_def_class_or_decorator_is_seen() -> None:
    # The usual `database.py` holds no `async `, `class ` or `@`; the content facts parse it
    # all the same, because it names the family (`sessionmaker`, `create_engine`).
    database = """\
        from sqlalchemy import create_engine
        from sqlalchemy.orm import sessionmaker

        engine = create_engine("sqlite://")
        SessionLocal = sessionmaker(bind=engine)
        """
    source = """\
        from app.db import SessionLocal

        async def v() -> None:
            db = SessionLocal()
            db.commit()
        """
    assert _calls(source, app__db=database) == [(5, "db.commit")]


def test_the_page_names_every_built_in_family_member() -> None:
    from inwards_core.families.inw.content import blocking_families as families
    from inwards_core.families.inw.content.inw013_async_blocking import DOCS

    page = DOCS.what_it_does
    listed = (
        families._SESSION_METHODS
        | families._REDIS_LOCAL
        | families._BOTO3_LOCAL
        | {driver for driver, _, _ in families.DBAPI_DRIVERS}
    )
    assert sorted(name for name in listed if f"`{name}`" not in page) == []
    for verb in families._HTTP_VERBS:
        assert f"`requests.{verb}`" in page
