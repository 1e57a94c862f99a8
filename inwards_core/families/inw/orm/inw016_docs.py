"""The docs text of inw.orm-naming (INW016), rendered into its page."""

from __future__ import annotations

from inwards_core import KindDocs

DOCS = KindDocs(
    what_it_does="""
Reads the ORM models of the project and judges the names they give the database:

- **table names**: lower snake case, and with the default `table-name = "snake_singular"`, the
  last word singular (`order_line`, not `order_lines`; an English heuristic: irregular plurals
  such as `people` are known, and words like `status`, `address`, `analysis`, `news` or `data`
  are not taken for plurals). `table-name = "snake"` accepts plurals; `false` judges no table.
- **datetime columns** end with `datetime-suffix` (`"_at"`: `created_at`), **date columns**
  with `date-suffix` (`"_date"`: `birth_date`); `false` turns either off.

What it reads, each name resolved through the module's imports:

- SQLAlchemy declarative classes: `__tablename__`, columns typed `Mapped[datetime]` /
  `Mapped[date]`, or built with `Column(DateTime)`, `mapped_column(DateTime(timezone=True))`,
  `Column("name", Date)` (the string is the column's name); Flask-SQLAlchemy's `db.Column`;
- SQLAlchemy Core: `Table("name", metadata, Column("created", DateTime), ...)` at module level;
- SQLModel: `table=True` classes, their `__tablename__` or the name SQLModel derives (the class
  name in lower case), and their `datetime`/`date` fields (also those of a base class of the same
  module that a table class extends);
- Django: `Meta.db_table` when set (a name Django derives, `app_model`, is not the author's
  choice and is not judged), `DateTimeField` and `DateField`.

Only modules that import an ORM package and hold one of a few words a model module
writes (`__tablename__`, `Table(`, `db_table`, `Field(`, `Column(`, `mapped_column`,
`Mapped[`, `table=True`, `MetaData(`, `naming_convention`) are read for it.

A date column whose last word already says it is a date (`birthday`, `due_day`, `dob`)
passes: `birthday_date` would only repeat it. So does a datetime column named by its type
alone (`timestamp`), with nothing for a suffix to follow, or ending in a bound (`lease_until`,
`active_since`), which reads as a time already. A suggested name drops a time word at either
end before it adds the suffix, and an `of_` after it: `date_of_birth` becomes `birth_date`.

Never judged: association tables, known by their shape (a Core `Table`, a model or a Django
`db_table` whose columns are two or more foreign keys and nothing else but an `id` key; a
name such as `run_labels` joining two tables' names is no proof: a key/value table has it too), tables a library or the
database owns (`alembic_version`, `django_*`, `celery_*`, PostGIS and SpatiaLite's
`geometry_columns` and `spatial_ref_sys`, ...), names in `allow-tables`, and test modules unless
`check-tests = true`.

On a whole-project run two findings look at the project as a whole:

- **the project's own scheme**: when at least 5 names of one sort (tables, datetime columns,
  date columns) are judged and at least 90% of them break the configured scheme the same way,
  one finding at the first of them names the option value that describes the project
  (`table-name = "snake"`, `datetime-suffix = "_on"`, `datetime-suffix = false`) instead of one
  finding per name;
- **no naming convention** (`require-naming-convention = true`): the project defines
  SQLAlchemy or SQLModel tables and never builds `MetaData(naming_convention=...)`: one
  finding at its first table.
""",
    why_is_this_bad="""
Table and column names outlive the code: they are in every query, migration, report and
dashboard. A schema where `users` sits next to `order_line` and `created` next to
`updated_at` makes every reader guess. Without a naming convention SQLAlchemy lets the database
name constraints and indexes, and each database names them differently: migrations that drop
or alter one break on the next database.
""",
    how_to_fix="""
Rename the table or column in the model and add a migration for it, or, when the project
consistently follows another scheme, set the options to describe it:

```toml
[tool.inwards]
layers = [{ name = "app", modules = ["shop"] }]

[tool.inwards.rules]
extend-select = ["INW016"]

[tool.inwards.rules.orm-naming]
table-name = "snake"        # plural table names are fine here
datetime-suffix = "_on"
date-suffix = false
allow-tables = ["LegacyOrders"]
```

For the naming convention, build the metadata with one, once, where the declarative base is
defined:

```python
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

class Base(DeclarativeBase):
    metadata = MetaData(naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    })
```
""",
    limitations="""
Only modules that import `sqlalchemy`, `sqlmodel`, `flask_sqlalchemy` or Django's
`django.db.models` (GeoDjango's too) are read:
models built only on a declarative base or a `db` handle imported from a module of the project
are missed when their module imports none of these. The plural test is an English heuristic on
the last word (`user_settings`, `credentials` and `details` are read as singular). String
annotations (`created: "Mapped[datetime]"`), columns typed with a project's own type
(`TZDateTime`), Django's `db_column=` and `Table(...)` built inside functions are not read.
The naming convention is found where `MetaData(naming_convention=...)` (or `MetaData(**options)`)
is called, or where a module's top level sets one afterwards
(`SQLModel.metadata.naming_convention = {...}`), in any module read; one set inside a
function, or in a module that imports no ORM package, is not seen: set
`require-naming-convention = false` then. The project-wide findings (the project's scheme and the missing convention) need a
whole-project run: with PATHS each name is judged on its own.
""",
)
