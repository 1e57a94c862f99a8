"""The examples of INW013 (`inw.async-blocking`): its page shows them with their real
output, the tests run them."""

from __future__ import annotations

from inwards_core import Example

_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "application", modules = ["shop.application"] },\n'
    '  { name = "api", modules = ["shop.api"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["INW013"]\n'
)


def examples() -> tuple[Example, ...]:
    """Good and bad `async def`s: the page shows them with their real output, the tests
    run them."""
    return (
        Example(
            title="A Redis client built at module level, used in a coroutine",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/orders.py": (
                    "import redis\n\n"
                    'cache = redis.Redis(host="cache")\n\n\n'
                    "async def get_order(order_id: str) -> bytes | None:\n"
                    "    return cache.get(order_id)  # expect: INW013\n"
                ),
            },
        ),
        Example(
            title="A SQLAlchemy session through an alias, and an HTTP call",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/deps.py": (
                    "from collections.abc import AsyncIterator\n"
                    "from typing import Annotated\n\n"
                    "from fastapi import Depends\n"
                    "from sqlalchemy.orm import Session\n\n\n"
                    "async def get_session() -> AsyncIterator[Session]: ...\n\n\n"
                    "SessionDep = Annotated[Session, Depends(get_session)]\n"
                ),
                "shop/api/users.py": (
                    "import requests\n"
                    "from sqlalchemy import select\n\n"
                    "from shop.api.deps import SessionDep\n\n\n"
                    "async def read_user(user_id: int, db: SessionDep) -> dict:\n"
                    "    user = db.scalar(select(User).where(User.id == user_id))  # expect: INW013\n"
                    '    avatar = requests.get(f"https://img/{user_id}")  # expect: INW013\n'
                    "    return {'user': user, 'avatar': avatar.content}\n"
                ),
            },
        ),
        Example(
            title="One hop into a plain function that blocks",
            good=False,
            config=_CONFIG,
            files={
                "shop/application/rates.py": (
                    "import functools\n"
                    "import urllib.request\n\n\n"
                    "@functools.lru_cache(maxsize=32)\n"
                    "def fetch_rates(day: str) -> bytes:\n"
                    '    with urllib.request.urlopen(f"https://rates/{day}") as answer:\n'
                    "        return answer.read()\n"
                ),
                "shop/api/prices.py": (
                    "from shop.application.rates import fetch_rates\n\n\n"
                    "async def price(day: str) -> bytes:\n"
                    "    return fetch_rates(day)  # expect: INW013\n"
                ),
            },
        ),
        Example(
            title="Awaited clients, worker threads and look-alikes",
            good=True,
            config=_CONFIG,
            files={
                "shop/api/fine.py": (
                    "import asyncio\n\n"
                    "import redis\n"
                    "import redis.asyncio\n"
                    "from sqlalchemy.ext.asyncio import AsyncSession\n"
                    "from sqlalchemy.orm import Session\n\n"
                    "from shop.application.session import Session as ShopSession\n\n"
                    'cache = redis.asyncio.Redis(host="cache")\n\n\n'
                    "async def read(db: AsyncSession, sync_db: Session, shop: ShopSession) -> None:\n"
                    "    await db.execute(query)\n"
                    '    await cache.get("k")\n'
                    "    await asyncio.to_thread(sync_db.execute, query)\n"
                    "    await asyncio.get_running_loop().run_in_executor(\n"
                    "        None, lambda: sync_db.execute(query)\n"
                    "    )\n"
                    "    shop.execute(query)\n\n\n"
                    "def plain(sync_db: Session) -> None:\n"
                    "    sync_db.execute(query)\n"
                ),
                "shop/application/session.py": (
                    "class Session:\n    def execute(self, query: str) -> None: ...\n"
                ),
            },
        ),
    )
