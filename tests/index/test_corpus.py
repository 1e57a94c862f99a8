"""The index on real third-party trees (skipped when the corpora are not there)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inwards_core.index.modules import ModuleIndex
from inwards_core.ports import ProjectListing

from .helpers import config

CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
DJANGO = CORPORA / "big" / "django-6.1.3"

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not DJANGO.is_dir(), reason="corpora not available"),
]


def disk_listing(top: Path) -> ProjectListing:
    files: list[str] = []
    directories: list[str] = []
    for here, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
        rel = Path(here).relative_to(top).as_posix()
        prefix = "" if rel == "." else rel + "/"
        directories.extend(prefix + d for d in dirs)
        files.extend(prefix + n for n in names)
    return ProjectListing(files=tuple(sorted(files)), directories=tuple(sorted(directories)))


DJANGO_LAYERS = (
    ("utils", ["django.utils", "django.dispatch"]),
    ("core", ["django.core", "django.conf", "django.apps"]),
    ("db", ["django.db"]),
    ("web", ["django.http", "django.urls", "django.template", "django.templatetags"]),
    ("app", ["django.views", "django.forms", "django.middleware", "django.contrib"]),
    ("models", ["django.contrib.*.models", "django.contrib.**.migrations"]),
    ("ghost", ["django.nothere"]),
)


@pytest.fixture(scope="module")
def django_index() -> ModuleIndex:
    return ModuleIndex.build(config(*DJANGO_LAYERS), disk_listing(DJANGO))


def test_every_python_file_is_a_module_unless_its_path_is_not_importable(
    django_index: ModuleIndex,
) -> None:
    py_files = sorted(p.relative_to(DJANGO).as_posix() for p in DJANGO.rglob("*.py"))
    unnamed = [f for f in py_files if f not in django_index.by_file]
    # Only paths Python can't import are left out (migration files like 0001_initial.py,
    # template folders with dashes, ...).
    for path in unnamed:
        parts = path[: -len(".py")].split("/")
        assert not all(part.isidentifier() for part in parts), path
    assert len(django_index.modules) > 500


def test_django_facts(django_index: ModuleIndex) -> None:
    idx = django_index
    assert idx.modules["django.db.models"].is_package
    assert idx.exists("django.db.models.fields")
    assert not idx.exists("django.db.modelz")
    assert idx.missing_part("django.db.modelz.x") == ("django.db", "modelz")
    assert "django.db.models" in idx.closest_modules("django.db.modelz")
    assert idx.classify("django.db") == "first-party"
    assert idx.classify("os.path") == "stdlib"
    layer = idx.layer_of("django.db.models.Model")
    assert layer is not None and layer.name == "db"
    auth_models = idx.layer_of("django.contrib.auth.models")
    assert auth_models is not None and auth_models.name == "models"
    assert [(layer.name, i) for layer, i in idx.unmatched_patterns()] == [("ghost", 0)]
    assert [layer.name for layer in idx.empty_layers()] == ["ghost"]
    # `django` holds the layers; what is left unowned is reported at its highest package.
    unassigned = [info.name for info in idx.unassigned_packages()]
    assert "django" not in unassigned
    assert "django.test" in unassigned
    assert not any(name.startswith("django.db.") for name in unassigned)
