"""What marks a module that may define ORM models, for inw.orm-naming (INW016): the packages
it imports and the words its text holds. What the kind's `reads` needs on every run, and
what `orm_judgement` asks again when the rule runs, kept apart from both."""

from __future__ import annotations

# What a module defining models imports (Django's: `from django.db import models`, or the
# GeoDjango module of the same name; `from django.db import connection` is no model).
ORM_IMPORTS = (
    "sqlalchemy",
    "sqlmodel",
    "flask_sqlalchemy",
    "django.db.models",
    "django.contrib.gis.db.models",
)

# What a module that names a table or a time column, or sets a naming convention, holds.
MODEL_WORDS = (
    "__tablename__",
    "Table(",
    "db_table",
    "Field(",
    "Column(",
    "mapped_column",
    "Mapped[",
    "table=True",
    "MetaData(",
    "naming_convention",
)
