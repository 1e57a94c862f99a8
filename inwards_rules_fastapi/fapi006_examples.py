"""The examples of FAPI006 (`fapi.lifespan-events`): its page shows them with their real
output, the tests run them."""

from __future__ import annotations

from inwards_core import Example

_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "api", modules = ["shop.api"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["FAPI006"]\n'
)


def examples() -> tuple[Example, ...]:
    return (
        Example(
            title="Handlers registered the deprecated way",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/main.py": (
                    "from fastapi import FastAPI\n\n"
                    "from shop.api.db import close_pool\n\n"
                    "app = FastAPI(on_shutdown=[close_pool])  # expect: FAPI006\n\n\n"
                    '@app.on_event("startup")  # expect: FAPI006\n'
                    "async def open_pool() -> None: ...\n"
                ),
                "shop/api/db.py": "async def close_pool() -> None: ...\n",
                "shop/api/cache.py": (
                    "from shop.api.main import app\n\n\n"
                    "def warm_cache() -> None: ...\n\n\n"
                    'app.add_event_handler("startup", warm_cache)  # expect: FAPI006\n'
                ),
            },
        ),
        Example(
            title="A handler that a lifespan silences",
            good=False,
            config=_CONFIG,
            files={
                "shop/api/main.py": (
                    "from contextlib import asynccontextmanager\n\n"
                    "from fastapi import FastAPI\n\n\n"
                    "@asynccontextmanager\n"
                    "async def lifespan(app: FastAPI):\n"
                    "    yield\n\n\n"
                    "def create_app() -> FastAPI:\n"
                    "    app = FastAPI(lifespan=lifespan)\n\n"
                    '    @app.on_event("startup")  # expect: FAPI006\n'
                    "    async def connect() -> None: ...\n\n"
                    "    return app\n"
                ),
            },
        ),
        Example(
            title="One lifespan function",
            good=True,
            config=_CONFIG,
            files={
                "shop/api/main.py": (
                    "from contextlib import asynccontextmanager\n\n"
                    "from fastapi import FastAPI\n\n\n"
                    "@asynccontextmanager\n"
                    "async def lifespan(app: FastAPI):\n"
                    "    await open_pool()\n"
                    "    yield\n"
                    "    await close_pool()\n\n\n"
                    "async def open_pool() -> None: ...\n\n\n"
                    "async def close_pool() -> None: ...\n\n\n"
                    "app = FastAPI(lifespan=lifespan)\n"
                ),
            },
        ),
    )
