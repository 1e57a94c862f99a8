"""The examples of inw.orm-naming (INW016): good and bad projects that
its page shows with their real output and the tests run."""

from __future__ import annotations

from inwards_core import Example

_CONFIG = (
    "[tool.inwards]\n"
    "layers = [\n"
    '  { name = "domain", modules = ["shop.domain"] },\n'
    '  { name = "infrastructure", modules = ["shop.infrastructure"] },\n'
    "]\n\n"
    "[tool.inwards.rules]\n"
    'extend-select = ["INW016"]\n'
)
_CONVENTION = (
    "from sqlalchemy import MetaData\n"
    "from sqlalchemy.orm import DeclarativeBase\n\n\n"
    "class Base(DeclarativeBase):\n"
    '    metadata = MetaData(naming_convention={"pk": "pk_%(table_name)s"})\n'
)


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    return (
        Example(
            title="A plural table and a datetime column without its suffix",
            good=False,
            config=_CONFIG,
            files={
                "shop/infrastructure/base.py": _CONVENTION,
                "shop/infrastructure/tables.py": (
                    "from datetime import date, datetime\n\n"
                    "from sqlalchemy.orm import Mapped, mapped_column\n\n"
                    "from shop.infrastructure.base import Base\n\n\n"
                    "class Post(Base):\n"
                    '    __tablename__ = "posts"  # expect: INW016\n'
                    "    id: Mapped[int] = mapped_column(primary_key=True)\n"
                    "    created: Mapped[datetime]  # expect: INW016\n"
                    "    birth_date: Mapped[date]\n"
                ),
            },
        ),
        Example(
            title="Django: an explicit db_table and a date field",
            good=False,
            config=_CONFIG,
            files={
                "shop/infrastructure/models.py": (
                    "from django.db import models\n\n\n"
                    "class Article(models.Model):\n"
                    "    published = models.DateField()  # expect: INW016\n"
                    "    updated_at = models.DateTimeField(auto_now=True)\n\n"
                    "    class Meta:\n"
                    '        db_table = "NewsArticle"  # expect: INW016\n'
                ),
            },
        ),
        Example(
            title="SQLAlchemy tables without a naming convention",
            good=False,
            config=_CONFIG,
            files={
                "shop/infrastructure/tables.py": (
                    "from sqlalchemy import Column, Integer, MetaData, Table\n\n"
                    "metadata = MetaData()\n"
                    'order = Table("order", metadata, Column("id", Integer))  # expect: INW016\n'
                ),
            },
        ),
        Example(
            title="A project that names its tables in the plural: one finding for all",
            good=False,
            config=_CONFIG,
            files={
                "shop/infrastructure/base.py": _CONVENTION,
                "shop/infrastructure/tables.py": (
                    "from sqlalchemy.orm import Mapped, mapped_column\n\n"
                    "from shop.infrastructure.base import Base\n\n\n"
                    + "".join(
                        f"class {name.title()}(Base):\n"
                        f'    __tablename__ = "{name}s"{"  # expect: INW016" if i == 0 else ""}\n'
                        "    id: Mapped[int] = mapped_column(primary_key=True)\n\n\n"
                        for i, name in enumerate(
                            ("customer", "invoice", "order", "product", "shipment")
                        )
                    )
                ),
            },
        ),
        Example(
            title="Singular tables, suffixed columns, a link table and a naming convention",
            good=True,
            config=_CONFIG,
            files={
                "shop/infrastructure/base.py": _CONVENTION,
                "shop/infrastructure/tables.py": (
                    "from datetime import date, datetime\n\n"
                    "from sqlalchemy import Column, DateTime, ForeignKey, Table\n"
                    "from sqlalchemy.orm import Mapped, mapped_column\n\n"
                    "from shop.infrastructure.base import Base\n\n\n"
                    "class Post(Base):\n"
                    '    __tablename__ = "post"\n'
                    "    id: Mapped[int] = mapped_column(primary_key=True)\n"
                    "    created_at = mapped_column(DateTime(timezone=True))\n"
                    "    publish_date: Mapped[date]\n\n\n"
                    "class Tag(Base):\n"
                    '    __tablename__ = "tag"\n'
                    "    id: Mapped[int] = mapped_column(primary_key=True)\n\n\n"
                    "post_tags = Table(\n"
                    '    "post_tags",\n'
                    "    Base.metadata,\n"
                    '    Column("post_id", ForeignKey("post.id")),\n'
                    '    Column("tag_id", ForeignKey("tag.id")),\n'
                    ")\n"
                ),
            },
        ),
    )
