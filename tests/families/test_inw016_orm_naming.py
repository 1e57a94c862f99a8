"""INW016 orm-naming: the English heuristic, the model readers, per-name findings, the
project's own scheme and the naming convention."""

from __future__ import annotations

import textwrap

import pytest

from inwards_core import Finding
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.extraction.content import read_content
from inwards_core.families.inw.orm.english_words import is_plural, singular, snake_case
from inwards_core.families.inw.orm.orm_models import ModuleModels, read_models
from tests.extraction.helpers import GRAMMARS

RULES = load_rules(installed_families())
CONFIG = """\
[tool.inwards]
layers = [{ name = "app", modules = ["app"] }]

[tool.inwards.rules]
extend-select = ["INW016"]
"""
CONVENTION = (
    "from sqlalchemy import MetaData\n"
    "from sqlalchemy.orm import DeclarativeBase\n"
    "class Base(DeclarativeBase):\n"
    '    metadata = MetaData(naming_convention={"pk": "pk_%(table_name)s"})\n'
)


def _findings(
    files: dict[str, str], options: str = "", *, convention: bool = True
) -> list[Finding]:
    config = load_config_text(CONFIG + options)
    tree = {"app/__init__.py": "", **({"app/base.py": CONVENTION} if convention else {}), **files}
    report = check(config, InMemoryProjectFiles(tree), rule_set=RULES)
    return [f for f in report.findings if f.code == "INW016"]


def _lines(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(f.file, f.span.line, f.message) for f in findings]


@pytest.mark.parametrize(
    ("word", "plural", "one"),
    [
        ("posts", True, "post"),
        ("categories", True, "category"),
        ("addresses", True, "address"),
        ("boxes", True, "box"),
        ("people", True, "person"),
        ("heroes", True, "hero"),
        ("aliases", True, "alias"),
        ("statuses", True, "status"),
        ("houses", True, "house"),
        ("status", False, "status"),
        ("address", False, "address"),
        ("analysis", False, "analysis"),
        ("news", False, "news"),
        ("data", False, "data"),
        ("statistics", False, "statistics"),
        ("series", False, "series"),
        ("bus", False, "bus"),
        ("sys", False, "sys"),
        ("user", False, "user"),
    ],
)
def test_the_plural_heuristic(word: str, plural: bool, one: str) -> None:
    assert (is_plural(word), singular(word)) == (plural, one)


def test_snake_case() -> None:
    assert [snake_case(n) for n in ("OrderLine", "HTTPLog", "order-line")] == [
        "order_line",
        "http_log",
        "order_line",
    ]


def _models(source: str, imported: dict[str, str]) -> ModuleModels:
    content = read_content(textwrap.dedent(source), "app.models", GRAMMARS)

    def qualify(dotted: str) -> str:
        root, dot, rest = dotted.partition(".")
        target = imported.get(root)
        return target + dot + rest if target else dotted

    return read_models(content, qualify, lambda root: root == "db")


def test_the_reader_resolves_names_through_imports() -> None:
    models = _models(
        """
        class Event(Base):
            __tablename__ = "events"
            when = Column(DateTime)
            day = Column(Date)
        """,
        {"Column": "rich.table.Column", "DateTime": "pendulum.DateTime", "Base": "app.Base"},
    )
    # `Column` is not SQLAlchemy's here: only __tablename__ makes it a model, no column
    assert [t.name for t in models.tables] == ["events"]
    assert models.columns == ()


def test_flask_sqlalchemy_db_handle_and_core_tables() -> None:
    models = _models(
        """
        from app.extensions import db
        class Visit(db.Model):
            __tablename__ = "visit"
            seen = db.Column(db.DateTime(timezone=True))
        links = Table("user_groups", meta, Column("user_id", ForeignKey("user.id")), Column("group_id", ForeignKey("group.id")))
        logs = Table("log", meta, Column("made", DateTime), Column("id", Integer))
        """,
        {
            "db": "app.extensions.db",
            "Table": "sqlalchemy.Table",
            "Column": "sqlalchemy.Column",
            "ForeignKey": "sqlalchemy.ForeignKey",
            "DateTime": "sqlalchemy.DateTime",
            "Integer": "sqlalchemy.Integer",
        },
    )
    assert [(t.name, t.association) for t in models.tables] == [
        ("visit", False),
        ("user_groups", True),
        ("log", False),
    ]
    assert [(c.name, c.kind) for c in models.columns] == [
        ("seen", "datetime"),
        ("made", "datetime"),
    ]


SQLALCHEMY_MODELS = """\
from datetime import date, datetime
from typing import Optional
import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column
from app.base import Base

class Post(Base):
    __tablename__ = "posts"
    id: Mapped[int] = mapped_column(primary_key=True)
    created: Mapped[datetime]
    updated_at: Mapped[Optional[datetime]] = mapped_column(sa.DateTime(timezone=True))
    born: Mapped[date]
    published_on = mapped_column("published_on", sa.DateTime)
    status: Mapped[str]

class Address(Base):
    __tablename__ = "address"

class Tag(Base):
    __tablename__ = "tag"

class PostTags(Base):
    __tablename__ = "post_tags"
    post_id = mapped_column(sa.ForeignKey("posts.id"), primary_key=True)
    tag_id = mapped_column(sa.ForeignKey("tag.id"), primary_key=True)

class Legacy(Base):
    __tablename__ = "LegacyThing"
"""


def test_per_name_findings_and_exemptions() -> None:
    found = _lines(_findings({"app/models.py": SQLALCHEMY_MODELS}))
    assert found == [
        ("app/models.py", 8, 'Table name "posts" is plural; name it in the singular: "post".'),
        (
            "app/models.py",
            10,
            'Datetime column "created" does not end with "_at"; name it "created_at".',
        ),
        ("app/models.py", 12, 'Date column "born" does not end with "_date"; name it "born_date".'),
        (
            "app/models.py",
            13,
            'Datetime column "published_on" does not end with "_at"; name it "published_at".',
        ),
        (
            "app/models.py",
            28,
            'Table name "LegacyThing" is not lower snake case; name it "legacy_thing".',
        ),
    ]


def test_options_turn_parts_off_and_allow_tables() -> None:
    options = (
        "\n[tool.inwards.rules.orm-naming]\n"
        'table-name = "snake"\ndatetime-suffix = false\ndate-suffix = "_on"\n'
        'allow-tables = ["LegacyThing"]\n'
    )
    found = _lines(_findings({"app/models.py": SQLALCHEMY_MODELS}, options))
    assert found == [
        ("app/models.py", 12, 'Date column "born" does not end with "_on"; name it "born_on".')
    ]


def test_bad_option_values_are_config_errors() -> None:
    from inwards_core import ConfigError

    for bad in ('table-name = "camel"', 'datetime-suffix = "at"', "table-name = true"):
        with pytest.raises(ConfigError, match="orm-naming"):
            _findings({}, f"\n[tool.inwards.rules.orm-naming]\n{bad}\n")


def _tables(names: list[str]) -> str:
    body = "from sqlalchemy.orm import Mapped\nfrom app.base import Base\n"
    for index, name in enumerate(names):
        body += f'class T{index}(Base):\n    __tablename__ = "{name}"\n'
    return body


def test_a_consistently_plural_project_gets_one_scheme_finding() -> None:
    names = ["users", "orders", "invoices", "products", "shipments", "customers", "carts"]
    names += ["payments", "refunds", "Items"]
    found = _findings({"app/models.py": _tables(names)})
    assert [(f.span.line, f.message) for f in found] == [
        (
            4,
            '9 of the project\'s 10 table names are plural (this one "users" first): its own '
            'scheme is table-name = "snake", reported once here instead of name by name.',
        ),
        (22, 'Table name "Items" is not lower snake case; name it "item".'),
    ]
    assert found[0].fix is not None
    assert found[0].fix.summary.startswith('Set table-name = "snake"')


def test_below_five_names_or_ninety_percent_there_is_no_scheme() -> None:
    four = _findings({"app/models.py": _tables(["users", "orders", "invoices", "products"])})
    assert len(four) == 4
    mixed = ["users", "orders", "invoice", "products", "shipments", "customers"]
    assert len(_findings({"app/models.py": _tables(mixed)})) == 5


def test_a_common_other_suffix_is_the_scheme_for_columns() -> None:
    columns = "".join(f"    {n}_on: Mapped[datetime]\n" for n in "abcde")
    source = (
        "from datetime import datetime\nfrom sqlalchemy.orm import Mapped\n"
        "from app.base import Base\n"
        f'class Event(Base):\n    __tablename__ = "event"\n{columns}'
    )
    found = _findings({"app/models.py": source})
    assert len(found) == 1
    assert 'datetime-suffix = "_on"' in found[0].message


def test_missing_naming_convention_once_on_the_first_table_of_a_whole_project_run() -> None:
    files = {
        "app/a.py": (
            "from sqlalchemy import Column, Integer, MetaData, Table\n"
            "meta = MetaData()\n"
            'thing = Table("thing", meta, Column("id", Integer))\n'
        ),
        "app/b.py": "from sqlmodel import SQLModel\nclass Hero(SQLModel, table=True):\n    id: int\n",
    }
    found = _findings(files, convention=False)
    assert [(f.file, f.span.line) for f in found] == [("app/a.py", 3)]
    assert "no MetaData(naming_convention=...)" in found[0].message
    off = "\n[tool.inwards.rules.orm-naming]\nrequire-naming-convention = false\n"
    assert _findings(files, off, convention=False) == []


def test_a_convention_set_afterwards_on_the_metadata_counts() -> None:
    files = {
        "app/db.py": (
            "from sqlmodel import SQLModel\n"
            'SQLModel.metadata.naming_convention = {"pk": "pk_%(table_name)s"}\n'
        ),
        "app/b.py": "from sqlmodel import SQLModel\nclass Hero(SQLModel, table=True):\n    id: int\n",
    }
    assert _findings(files, convention=False) == []
    files["app/db.py"] = "from sqlmodel import SQLModel\nSQLModel.metadata.schema = 'x'\n"
    assert len(_findings(files, convention=False)) == 1


def test_django_judges_explicit_db_table_only_and_library_tables_pass() -> None:
    source = (
        "from django.db import models\n"
        "class Session(models.Model):\n"
        "    expire_date = models.DateTimeField()\n"
        "    class Meta:\n"
        '        db_table = "django_session"\n'
        "class Point(models.Model):\n"
        "    class Meta:\n"
        '        db_table = "geometry_columns"\n'
        "class Article(models.Model):\n"
        "    published = models.DateField()\n"
    )
    found = _lines(_findings({"app/models.py": source}, convention=False))
    assert found == [
        (
            "app/models.py",
            3,
            'Datetime column "expire_date" does not end with "_at"; name it "expire_at".',
        ),
        (
            "app/models.py",
            10,
            'Date column "published" does not end with "_date"; name it "published_date".',
        ),
    ]


def test_sqlmodel_derived_names_and_the_base_s_fields() -> None:
    source = (
        "from datetime import datetime\n"
        "from sqlmodel import Field, SQLModel\n"
        "class HeroBase(SQLModel):\n"
        "    born: datetime\n"
        "class Heroes(HeroBase, table=True):\n"
        "    id: int | None = Field(default=None, primary_key=True)\n"
        "class HeroCreate(HeroBase):\n"
        "    seen: datetime\n"
    )
    found = _lines(_findings({"app/models.py": source}))
    assert found == [
        ("app/models.py", 4, 'Datetime column "born" does not end with "_at"; name it "born_at".'),
        ("app/models.py", 5, 'Table name "heroes" is plural; name it in the singular: "hero".'),
    ]


def test_paths_runs_judge_names_one_by_one_without_project_findings() -> None:
    names = ["users", "orders", "invoices", "products", "shipments"]
    files = {"app/__init__.py": "", "app/models.py": _tables(names)}
    report = check(
        load_config_text(CONFIG),
        InMemoryProjectFiles(files),
        paths=["app/models.py"],
        rule_set=RULES,
    )
    assert len([f for f in report.findings if f.code == "INW016"]) == 5


def test_test_modules_are_skipped_unless_check_tests() -> None:
    files = {"app/tests/test_models.py": _tables(["users"])}
    assert _findings(files) == []
    on = "\n[tool.inwards.rules.orm-naming]\ncheck-tests = true\n"
    assert len(_findings(files, on)) == 1


def test_a_django_field_outside_a_model_is_no_column() -> None:
    source = (
        "from django.db.models import DateField, Func\n"
        "class TruncDate(Func):\n"
        "    output_field = DateField()\n"
    )
    assert _findings({"app/functions.py": source}) == []


def test_a_derived_sqlmodel_name_is_judged_by_the_class_name_s_last_word() -> None:
    source = (
        "from sqlmodel import SQLModel\n"
        "class UserSettings(SQLModel, table=True):\n"
        "    id: int\n"
        "class HeroTeamLinks(SQLModel, table=True):\n"
        "    id: int\n"
    )
    assert _lines(_findings({"app/models.py": source})) == [
        (
            "app/models.py",
            4,
            'Table name "heroteamlinks" is plural; name it in the singular: "heroteamlink".',
        )
    ]


def test_a_date_column_whose_last_word_is_a_date_passes() -> None:
    source = (
        "from datetime import date\nfrom sqlalchemy.orm import Mapped\n"
        "from app.base import Base\n"
        'class Person(Base):\n    __tablename__ = "person"\n'
        "    birthday: Mapped[date]\n    due_day: Mapped[date]\n    joined: Mapped[date]\n"
    )
    found = _findings({"app/models.py": source})
    assert [f.message for f in found] == [
        'Date column "joined" does not end with "_date"; name it "joined_date".'
    ]


def test_a_library_of_mixins_maps_no_table_and_owes_no_naming_convention() -> None:
    mixins = (
        "from typing import Generic, TypeVar\nfrom sqlalchemy.orm import Mapped\n"
        "ID = TypeVar('ID')\n"
        'class BaseUserTable(Generic[ID]):\n    __tablename__ = "user"\n    id: Mapped[ID]\n'
    )
    assert _findings({"app/models.py": mixins}, convention=False) == []
    mapped = mixins + 'class Order(Base):\n    __tablename__ = "order"\n'
    found = _findings({"app/models.py": "from app.base import Base\n" + mapped}, convention=False)
    assert ["naming_convention" in f.message for f in found] == [True]


def test_a_link_table_is_known_by_its_shape_not_its_name() -> None:
    # `run_labels` joins two table names but holds a key and a value per run: a table of
    # its own, judged. The link tables hold two foreign keys (and at most an `id`).
    models = """\
from sqlalchemy import Column, ForeignKey, Integer, String
from sqlmodel import Field, SQLModel
from django.db import models
from app.base import Base

class Run(Base):
    __tablename__ = "run"

class Label(Base):
    __tablename__ = "label"

class RunLabel(Base):
    __tablename__ = "run_labels"
    run_id = Column(Integer, ForeignKey("run.id"), primary_key=True)
    key = Column(String(250), primary_key=True)
    value = Column(String(5000))

class RunOwners(Base):
    __tablename__ = "run_owners"
    id = Column(Integer, primary_key=True)
    run_id = Column(ForeignKey("run.id"))
    owner_id = Column(ForeignKey("owner.id"))

class TeamHeroes(SQLModel, table=True):
    team_id: int = Field(foreign_key="team.id", primary_key=True)
    hero_id: int = Field(foreign_key="hero.id", primary_key=True)

class Memberships(models.Model):
    person = models.ForeignKey("Person", on_delete=models.CASCADE)
    group = models.ForeignKey("Group", on_delete=models.CASCADE)

    class Meta:
        db_table = "memberships"
"""
    found = [f.message for f in _findings({"app/models.py": models})]
    assert found == ['Table name "run_labels" is plural; name it in the singular: "run_label".']


def test_suggested_names_read_as_english() -> None:
    models = """\
from datetime import date, datetime
from sqlalchemy.orm import Mapped
from app.base import Base

class ModelAliases(Base):
    __tablename__ = "model_aliases"
    date_of_birth: Mapped[date]
    timestamp: Mapped[datetime]
    lease_until: Mapped[datetime]

class Warehouses(Base):
    __tablename__ = "warehouses"
"""
    found = [f.message for f in _findings({"app/models.py": models})]
    assert found == [
        'Table name "model_aliases" is plural; name it in the singular: "model_alias".',
        'Date column "date_of_birth" does not end with "_date"; name it "birth_date".',
        'Table name "warehouses" is plural; name it in the singular: "warehouse".',
    ]
