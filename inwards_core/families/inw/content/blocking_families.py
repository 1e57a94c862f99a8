"""The blocking families of INW013 (`inw.async-blocking`): which classes' methods block,
which calls build them, and which calls block by themselves, each by canonical dotted name
(as `content_names.Names.qualify` gives it: the name where the library defines or
re-exports it, never a bare name).

A type's `methods` are the methods that wait on the network or the disk (`None`: every
method but those in `local`); `returns` maps a method to the type of what it gives
(`engine.connect()` gives a connection, `conn.cursor()` a cursor, a boto3 resource's
capitalised methods sub-resources); `call_returns` is the type a call of an instance gives
(a `sessionmaker` builds sessions). The asyncio twins
(`AsyncSession`, `redis.asyncio.Redis`, `psycopg.AsyncConnection`, aioboto3) are in no
table, so they never match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs


@attrs.frozen
class BlockingType:
    noun: str  # what an instance is, for the message: "synchronous Redis client"
    methods: frozenset[str] | None = None  # None: every method but `local`
    local: frozenset[str] = frozenset()
    returns: Mapping[str, str] = attrs.field(factory=dict)
    call_returns: str = ""
    # The type a capitalised method gives (boto3's `s3.Bucket("b")`, `dynamodb.Table("t")`).
    capitalised_returns: str = ""

    def gives(self, method: str) -> str:
        """The blocking type of what `method` returns, or ""."""
        found = self.returns.get(method, "")
        if not found and method[:1].isupper():
            return self.capitalised_returns
        return found

    def blocks(self, method: str) -> bool:
        """Whether calling `method` waits; with every method blocking, private and
        capitalised ones (boto3's `s3.Bucket(...)` builds a sub-resource) don't."""
        if self.methods is not None:
            return method in self.methods
        return method not in self.local and not method.startswith("_") and not method[:1].isupper()


def _names(*groups: Iterable[str]) -> frozenset[str]:
    return frozenset(name for group in groups for name in group)


# -- SQLAlchemy and SQLModel ----------------------------------------------------------------

SESSION = "sqlalchemy.orm.Session"
ENGINE = "sqlalchemy.engine.Engine"
CONNECTION = "sqlalchemy.engine.Connection"
SESSION_FACTORY = "sqlalchemy.orm.sessionmaker"
# What `AsyncSession` awaits, and the legacy query API.
_SESSION_METHODS = _names(
    (
        "close", "commit", "connection", "delete", "execute", "flush", "get", "get_one",
        "invalidate", "merge", "refresh", "reset", "rollback", "scalar", "scalars", "stream",
        "stream_scalars", "query", "exec",
    ),
    (
        "bulk_save_objects", "bulk_insert_mappings", "bulk_update_mappings",
    ),
)  # fmt: skip
_CONNECTION_METHODS = frozenset(
    ("execute", "exec_driver_sql", "scalar", "scalars", "commit", "rollback", "close", "begin")
)
_ENGINE_METHODS = frozenset(("connect", "begin", "execute", "dispose", "raw_connection"))

# -- DB-API drivers -------------------------------------------------------------------------

_DBAPI_CONNECTION = frozenset(
    ("execute", "executemany", "executescript", "commit", "rollback", "close")
)
_DBAPI_CURSOR = frozenset(
    (
        "execute", "executemany", "executescript", "fetchone", "fetchall", "fetchmany",
        "callproc", "nextset", "scroll", "copy", "copy_from", "copy_to", "copy_expert", "close",
    )
)  # fmt: skip
DBAPI_DRIVERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    # (driver shown in messages, connect callables, connection classes)
    ("sqlite3", ("sqlite3.connect", "sqlite3.dbapi2.connect"), ("sqlite3.Connection",)),
    ("psycopg", ("psycopg.connect", "psycopg.Connection.connect"), ("psycopg.Connection",)),
    ("psycopg2", ("psycopg2.connect",), ("psycopg2.extensions.connection",)),
    ("pymysql", ("pymysql.connect", "pymysql.Connect", "pymysql.connections.Connection"),
     ("pymysql.Connection", "pymysql.connections.Connection")),
    ("MySQLdb", ("MySQLdb.connect", "MySQLdb.Connect"), ("MySQLdb.Connection",)),
    ("mysql.connector", ("mysql.connector.connect",),
     ("mysql.connector.MySQLConnection", "mysql.connector.CMySQLConnection")),
)  # fmt: skip

# -- redis-py, boto3, requests, urllib.request ------------------------------------------------

REDIS = "redis.Redis"
REDIS_PIPELINE = "redis.client.Pipeline"
# Redis methods that build an object without a round trip.
_REDIS_LOCAL = frozenset(
    (
        "pipeline", "pubsub", "lock", "register_script", "get_encoder", "get_connection_kwargs",
        "set_response_callback", "get_retry", "set_retry", "monitor",
    )
)  # fmt: skip
BOTO3_CLIENT = "boto3.client"
BOTO3_RESOURCE = "boto3.resource"
BOTO3_SESSION = "boto3.session.Session"
# boto3 client methods that work locally (no request).
_BOTO3_LOCAL = frozenset(
    (
        "generate_presigned_url", "generate_presigned_post", "get_paginator", "get_waiter",
        "can_paginate", "meta", "exceptions", "close",
    )
)  # fmt: skip
REQUESTS_SESSION = "requests.Session"
_HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options", "request")
URLLIB_OPENER = "urllib.request.OpenerDirector"


def _types() -> dict[str, BlockingType]:
    session = BlockingType("synchronous SQLAlchemy session", _SESSION_METHODS)
    connection = BlockingType("synchronous SQLAlchemy connection", _CONNECTION_METHODS)
    engine = BlockingType(
        "synchronous SQLAlchemy engine",
        _ENGINE_METHODS,
        returns={"connect": CONNECTION, "begin": CONNECTION},
    )
    factory = BlockingType(
        "SQLAlchemy session factory", frozenset(), returns={"begin": SESSION},
        call_returns=SESSION,
    )  # fmt: skip
    redis = BlockingType(
        "synchronous Redis client", None, _REDIS_LOCAL, returns={"pipeline": REDIS_PIPELINE}
    )
    pipeline = BlockingType("synchronous Redis pipeline", frozenset(("execute", "watch")))
    boto3 = BlockingType("boto3 client", None, _BOTO3_LOCAL)
    # A resource's capitalised methods (`s3.Bucket("b")`) build sub-resources locally.
    resource = BlockingType(
        "boto3 resource", None, _BOTO3_LOCAL, capitalised_returns=BOTO3_RESOURCE
    )
    boto3_session = BlockingType(
        "boto3 session", frozenset(), returns={"client": BOTO3_CLIENT, "resource": BOTO3_RESOURCE}
    )
    http = BlockingType("requests HTTP session", frozenset((*_HTTP_VERBS, "send")))
    opener = BlockingType("urllib.request opener", frozenset(("open",)))
    types = {
        SESSION: session,
        "sqlalchemy.orm.session.Session": session,
        "sqlmodel.Session": session,
        "sqlmodel.orm.session.Session": session,
        "sqlalchemy.orm.scoped_session": attrs.evolve(session, call_returns=SESSION),
        "sqlalchemy.orm.scoping.scoped_session": attrs.evolve(session, call_returns=SESSION),
        SESSION_FACTORY: factory,
        "sqlalchemy.orm.session.sessionmaker": factory,
        ENGINE: engine,
        "sqlalchemy.Engine": engine,
        "sqlalchemy.engine.base.Engine": engine,
        CONNECTION: connection,
        "sqlalchemy.Connection": connection,
        "sqlalchemy.engine.base.Connection": connection,
        REDIS: redis,
        "redis.StrictRedis": redis,
        "redis.client.Redis": redis,
        "redis.client.StrictRedis": redis,
        "redis.RedisCluster": redis,
        "redis.cluster.RedisCluster": redis,
        REDIS_PIPELINE: pipeline,
        "redis.client.Pipeline": pipeline,
        BOTO3_CLIENT: boto3,
        BOTO3_RESOURCE: resource,
        BOTO3_SESSION: boto3_session,
        "boto3.Session": boto3_session,
        REQUESTS_SESSION: http,
        "requests.sessions.Session": http,
        URLLIB_OPENER: opener,
    }
    for driver, _, classes in DBAPI_DRIVERS:
        cursor = f"{driver}.<cursor>"
        types[cursor] = BlockingType(f"synchronous {driver} cursor", _DBAPI_CURSOR)
        conn = BlockingType(
            f"synchronous {driver} connection",
            _DBAPI_CONNECTION,
            returns={"cursor": cursor, "execute": cursor},
        )
        types[f"{driver}.<connection>"] = conn
        for name in classes:
            types[name] = conn
    return types


def _constructors() -> dict[str, str]:
    """Calls that give an instance of a blocking type, without blocking themselves."""
    built = {
        "sqlalchemy.create_engine": ENGINE,
        "sqlalchemy.engine.create_engine": ENGINE,
        "sqlalchemy.engine_from_config": ENGINE,
        "sqlmodel.create_engine": ENGINE,
        "redis.from_url": REDIS,
        "redis.Redis.from_url": REDIS,
        "redis.StrictRedis.from_url": REDIS,
        "redis.client.Redis.from_url": REDIS,
        "requests.session": REQUESTS_SESSION,
        "urllib.request.build_opener": URLLIB_OPENER,
    }
    # A class builds its own instances.
    built.update({name: name for name in TYPES if "<" not in name})
    built["boto3.client"] = BOTO3_CLIENT
    built["boto3.resource"] = BOTO3_RESOURCE
    return built


# Calls that block by themselves: name -> (noun for the message, type of what they give).
def _blocking_calls() -> dict[str, tuple[str, str]]:
    calls: dict[str, tuple[str, str]] = {}
    for verb in _HTTP_VERBS:
        calls[f"requests.{verb}"] = ("blocking HTTP request (requests)", "")
        calls[f"requests.api.{verb}"] = ("blocking HTTP request (requests)", "")
    for name in ("urllib.request.urlopen", "urllib.request.urlretrieve"):
        calls[name] = ("blocking HTTP request (urllib.request)", "")
    for driver, connects, _ in DBAPI_DRIVERS:
        for name in connects:
            calls[name] = (f"blocking {driver} connect", f"{driver}.<connection>")
    return calls


TYPES: Mapping[str, BlockingType] = _types()
CONSTRUCTORS: Mapping[str, str] = _constructors()
BLOCKING_CALLS: Mapping[str, tuple[str, str]] = _blocking_calls()


def user_type(name: str) -> BlockingType:
    """A class listed in `extend-blocking-types`: every public method blocks."""
    return BlockingType(f"`{name}` (a blocking type of `extend-blocking-types`)")


USER_CALL_NOUN = "blocking call of `extend-blocking-calls`"
