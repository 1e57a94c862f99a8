"""What a module's ORM models name (INW016 orm-naming): its tables and its date and datetime
columns, read from content facts for SQLAlchemy (declarative classes, Core `Table(...)`,
Flask-SQLAlchemy's `db.Column`), SQLModel (`table=True` classes) and Django models, and
whether it sets a `MetaData(naming_convention=...)`.

Names are resolved through the module's imports before they are matched (`Column` means
SQLAlchemy's only where the module imports it from there), never by bare name alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import attrs

from inwards_core import BindingFact, CallFact, ClassFact, ContentFacts, Span
from inwards_core.families.inw.orm.english_words import snake_case

SQLALCHEMY = "sqlalchemy"
SQLMODEL = "sqlmodel"
DJANGO = "django"
DATETIME = "datetime"
DATE = "date"

_SA_ROOTS = ("sqlalchemy.", "sqlmodel.", "flask_sqlalchemy.")
_DJANGO_ROOTS = ("django.db.models.", "django.contrib.gis.db.models.")
_SA_DATETIME = frozenset({"DateTime", "TIMESTAMP", "DATETIME"})
_SA_DATE = frozenset({"Date", "DATE"})
_SA_COLUMNS = frozenset({"Column", "mapped_column"})
_SA_MODEL_ATTRIBUTES = frozenset({"Column", "mapped_column", "relationship", "column_property"})
_SA_BASES = frozenset({"DeclarativeBase", "DeclarativeBaseNoMeta", "MappedAsDataclass", "Model"})

# qualify: a dotted name written in the module -> its canonical dotted name.
Qualify = Callable[[str], str]


@attrs.frozen
class TableName:
    """A table name the code chooses: `__tablename__`, `Table("name", ...)`, a Django
    `Meta.db_table`, or SQLModel's name derived from a `table=True` class (`derived`: the
    class name in lower case; `words` keeps the class name's words, `hero_team_links` for
    `HeroTeamLinks`, to judge its last word)."""

    name: str
    span: Span
    framework: str
    derived: bool = False
    words: str = ""
    association: bool = False
    # False for a mixin's `__tablename__` (a class with no base but `Generic`/`Protocol`): a
    # library of mixins maps no table itself; the application's base (and convention) does.
    mapped: bool = True


@attrs.frozen
class TimeColumn:
    """A column of a date or datetime type (`kind`), by the name the database sees."""

    name: str
    span: Span
    kind: str
    framework: str


@attrs.frozen
class ModuleModels:
    tables: tuple[TableName, ...] = ()
    columns: tuple[TimeColumn, ...] = ()
    # Where a `MetaData(naming_convention=...)` is built (or `MetaData(**options)`).
    conventions: tuple[Span, ...] = ()


@attrs.frozen
class _Names:
    qualify: Qualify
    # Whether a written root (`db` of `db.Column`) is the project's own: Flask-SQLAlchemy's
    # `db = SQLAlchemy()` handle, imported from a module of the project.
    local_root: Callable[[str], bool]

    def is_sa(self, written: str, last: frozenset[str]) -> bool:
        qualified = self.qualify(written)
        if qualified.rsplit(".", 1)[-1] not in last:
            return False
        if qualified.startswith(_SA_ROOTS):
            return True
        root, dot, _ = written.partition(".")
        return bool(dot) and "." not in written[len(root) + 1 :] and self.local_root(root)

    def is_django(self, written: str, last: str) -> bool:
        qualified = self.qualify(written)
        return qualified.startswith(_DJANGO_ROOTS) and qualified.rsplit(".", 1)[-1] == last

    def time_kind(self, written: str) -> str | None:
        """`datetime`/`date` for a written type name (SQLAlchemy type, Python class, Django
        field), else None."""
        if not written:
            return None
        qualified = self.qualify(written)
        if qualified == "datetime.datetime" or self.is_sa(written, _SA_DATETIME):
            return DATETIME
        if qualified == "datetime.date" or self.is_sa(written, _SA_DATE):
            return DATE
        if self.is_django(written, "DateTimeField"):
            return DATETIME
        if self.is_django(written, "DateField"):
            return DATE
        return None


def read_models(
    content: ContentFacts, qualify: Qualify, local_root: Callable[[str], bool]
) -> ModuleModels:
    """The tables, time columns and naming conventions a module's content names."""
    if not content.parsed:
        return ModuleModels()
    names = _Names(qualify, local_root)
    calls = sorted(content.calls, key=lambda call: call.span)
    bounds = _boundaries(content)
    tables: list[TableName] = []
    columns: list[TimeColumn] = []
    kinds = _class_kinds(content.classes, names)
    for found in content.classes:
        kind = kinds.get(found.qualname)
        if kind is None:
            continue
        links = _links_only(found, kind, names, calls, bounds)
        tables.extend(_class_tables(found, kind, links))
        columns.extend(_class_columns(found, kind, names, calls, bounds))
    for table, table_columns in _core_tables(calls, names, bounds):
        tables.append(table)
        columns.extend(table_columns)
    conventions = tuple(
        call.span
        for call in (*calls, *(c for f in content.functions for c in f.calls))
        if qualify(call.callee).rsplit(".", 1)[-1] == "MetaData"
        and ("naming_convention" in call.keywords or "**" in call.keywords)
    ) + tuple(  # `SQLModel.metadata.naming_convention = {...}`, set after the fact
        binding.span
        for binding in content.bindings
        if binding.name.endswith(".metadata.naming_convention")
    )
    return ModuleModels(tuple(tables), tuple(columns), conventions)


def _boundaries(content: ContentFacts) -> list[tuple[int, int]]:
    """Where each statement that binds or defines something starts: a call between one and
    the next belongs to the first."""
    starts = [(b.span.line, b.span.column) for b in content.bindings]
    for found in content.classes:
        starts.append((found.span.line, found.span.column))
        starts.extend((a.span.line, a.span.column) for a in found.attributes)
    starts.extend((f.span.line, f.span.column) for f in content.functions)
    return sorted(set(starts))


def _next_boundary(bounds: Sequence[tuple[int, int]], after: Span) -> tuple[int, int]:
    here = (after.line, after.column)
    for start in bounds:
        if start > here:
            return start
    return (1 << 30, 0)


def _class_kinds(classes: Sequence[ClassFact], names: _Names) -> dict[str, str]:
    """Which classes are ORM models, and of which framework; a class inherits the kind of
    a base of the same module (abstract models, mixins with columns). A Django model
    extends `models.Model` (a class holding a field for another purpose, such as a
    database function's `output_field = DateField()`, is none)."""
    kinds: dict[str, str] = {}
    for found in classes:
        kind = _own_kind(found, names)
        if kind is None:
            kind = next((kinds[b] for b in found.bases if b in kinds), None)
        if kind is not None:
            kinds[found.qualname] = kind
    for found in classes:  # a same-module base of a SQLModel table holds its columns
        if kinds.get(found.qualname) == SQLMODEL and _is_sqlmodel_table(found):
            for base in found.bases:
                kinds.setdefault(base, SQLMODEL)
    return kinds


def _is_sqlmodel_table(found: ClassFact) -> bool:
    return ("table", "True") in found.keywords


def _own_kind(found: ClassFact, names: _Names) -> str | None:
    if _is_sqlmodel_table(found):
        return SQLMODEL
    for attribute in found.attributes:
        callee = attribute.value_callee
        if callee and names.is_sa(callee, _SA_MODEL_ATTRIBUTES):
            return SQLALCHEMY
        if attribute.name in ("__tablename__", "__table__", "__abstract__"):
            return SQLALCHEMY
    for base in found.bases:
        if names.is_django(base, "Model"):
            return DJANGO
        if names.is_sa(base, _SA_BASES):
            return SQLALCHEMY
    return None


def _literal(attribute: BindingFact) -> str | None:
    return attribute.literal if attribute.literal else None


_NO_MAPPING_BASES = frozenset({"Generic", "Protocol", "object", "ABC"})


def _links_only(
    found: ClassFact,
    kind: str,
    names: _Names,
    calls: Sequence[CallFact],
    bounds: Sequence[tuple[int, int]],
) -> bool:
    """The model's shape is a link table's: two or more columns, each a foreign key, and
    nothing else but a surrogate `id` key (relationships are no columns)."""
    keys = others = 0
    for attribute in found.attributes:
        if attribute.name.startswith(("Meta.", "__")) or attribute.name == "id":
            continue
        sort = _column_sort(attribute, kind, names, calls, bounds)
        keys += sort == "key"
        others += sort == "column"
    return keys >= 2 and others == 0


def _column_sort(
    attribute: BindingFact,
    kind: str,
    names: _Names,
    calls: Sequence[CallFact],
    bounds: Sequence[tuple[int, int]],
) -> str:
    """ "key" for a foreign key column, "column" for another column, "" for anything else."""
    callee = attribute.value_callee
    if kind == DJANGO:
        if callee and names.is_django(callee, "ForeignKey"):
            return "key"
        qualified = names.qualify(callee) if callee else ""
        return (
            "column" if qualified.startswith(_DJANGO_ROOTS) and qualified.endswith("Field") else ""
        )
    if not callee:
        # `x: Mapped[int]` (SQLAlchemy) or `x: int` (SQLModel) is a column; a ClassVar is not.
        plain = attribute.annotation and not any(
            n.rpartition(".")[2] == "ClassVar" for n in attribute.annotation
        )
        return "column" if plain else ""
    if names.is_sa(callee, _SA_COLUMNS):
        end = _next_boundary(bounds, attribute.span)
        inside = [
            c for c in calls if attribute.span <= c.span and (c.span.line, c.span.column) < end
        ]
        foreign = any(names.is_sa(c.callee, frozenset({"ForeignKey"})) for c in inside)
        return "key" if foreign else "column"
    if kind == SQLMODEL and names.is_sa(callee, frozenset({"Field"})):
        end = _next_boundary(bounds, attribute.span)
        field = next(
            (
                c
                for c in calls
                if attribute.span <= c.span
                and (c.span.line, c.span.column) < end
                and c.callee == callee
            ),
            None,
        )
        return "key" if field is not None and "foreign_key" in field.keywords else "column"
    return ""


def _class_tables(found: ClassFact, kind: str, links: bool) -> Iterator[TableName]:
    explicit = False
    for attribute in found.attributes:
        literal = _literal(attribute)
        if literal is None:
            continue
        if attribute.name == "__tablename__" and kind in (SQLALCHEMY, SQLMODEL):
            explicit = True
            mapped = kind != SQLALCHEMY or any(
                base.rpartition(".")[2] not in _NO_MAPPING_BASES for base in found.bases
            )
            yield TableName(literal, attribute.span, kind, association=links, mapped=mapped)
        elif attribute.name == "Meta.db_table" and kind == DJANGO:
            yield TableName(literal, attribute.span, kind, association=links)
    if kind == SQLMODEL and _is_sqlmodel_table(found) and not explicit:
        name = found.qualname.rsplit(".", 1)[-1]
        yield TableName(
            name.lower(),
            found.span,
            kind,
            derived=True,
            words=snake_case(name),
            association=links,
        )


def _string(argument: str) -> str | None:
    """The text of a positional argument that is a string literal (`'"users"'`)."""
    if len(argument) >= 2 and argument[0] == argument[-1] == '"':
        return argument[1:-1]
    return None


def _class_columns(
    found: ClassFact,
    kind: str,
    names: _Names,
    calls: Sequence[CallFact],
    bounds: Sequence[tuple[int, int]],
) -> Iterator[TimeColumn]:
    for attribute in found.attributes:
        if attribute.name.startswith(("Meta.", "__")):
            continue
        column = _attribute_column(attribute, kind, names, calls, bounds)
        if column is not None:
            yield column


def _attribute_column(
    attribute: BindingFact,
    kind: str,
    names: _Names,
    calls: Sequence[CallFact],
    bounds: Sequence[tuple[int, int]],
) -> TimeColumn | None:
    callee = attribute.value_callee
    if kind == DJANGO:
        found = names.time_kind(callee) if callee else None
        return None if found is None else TimeColumn(attribute.name, attribute.span, found, kind)
    name = attribute.name
    found = None
    if callee and names.is_sa(callee, _SA_COLUMNS):
        arguments = attribute.positional
        if arguments and _string(arguments[0]) is not None:
            name = _string(arguments[0]) or name
            arguments = arguments[1:]
        found = next((k for k in map(names.time_kind, arguments[:1]) if k), None)
        if found is None:
            end = _next_boundary(bounds, attribute.span)
            found = _first_type_call(calls, attribute.span, end, names)
    if found is None:
        found = next((k for k in map(names.time_kind, attribute.annotation) if k), None)
    return None if found is None else TimeColumn(name, attribute.span, found, kind)


def _first_type_call(
    calls: Sequence[CallFact], after: Span, end: tuple[int, int], names: _Names
) -> str | None:
    """The time kind of the first type call (`DateTime(timezone=True)`) after `after` and
    before `end`, stopping at another column call."""
    start = (after.line, after.column)
    own = False  # the column call of the binding itself comes first
    for call in calls:
        here = (call.span.line, call.span.column)
        if here <= start:
            continue
        if here >= end:
            return None
        if names.is_sa(call.callee, _SA_COLUMNS):
            if own:
                return None
            own = True
            continue
        found = names.time_kind(call.callee)
        if found is not None:
            return found
    return None


def _core_tables(
    calls: Sequence[CallFact], names: _Names, bounds: Sequence[tuple[int, int]]
) -> Iterator[tuple[TableName, list[TimeColumn]]]:
    """`Table("name", metadata, Column("c", DateTime), ...)` at module level, with its
    date and datetime columns; a table whose every column has a ForeignKey is an
    association table."""
    for index, call in enumerate(calls):
        if not names.is_sa(call.callee, frozenset({"Table"})) or not call.positional:
            continue
        name = _string(call.positional[0])
        if name is None:
            continue
        end = _next_boundary(bounds, call.span)
        columns: list[TimeColumn] = []
        column_count = foreign = 0
        current: CallFact | None = None
        for inner in calls[index + 1 :]:
            if (inner.span.line, inner.span.column) >= end:
                break
            if names.is_sa(inner.callee, frozenset({"Table"})):
                break
            if names.is_sa(inner.callee, _SA_COLUMNS):
                column_count += 1
                current = inner
                kind = names.time_kind(inner.positional[1]) if len(inner.positional) > 1 else None
                column_name = _string(inner.positional[0]) if inner.positional else None
                if kind is not None and column_name:
                    columns.append(TimeColumn(column_name, inner.span, kind, SQLALCHEMY))
                    current = None
            elif current is not None and names.is_sa(inner.callee, frozenset({"ForeignKey"})):
                foreign += 1
            elif current is not None and current.positional:
                kind = names.time_kind(inner.callee)
                column_name = _string(current.positional[0])
                if kind is not None and column_name:
                    columns.append(TimeColumn(column_name, current.span, kind, SQLALCHEMY))
                    current = None
        association = column_count >= 2 and foreign >= column_count
        yield TableName(name, call.span, SQLALCHEMY, association=association), columns
