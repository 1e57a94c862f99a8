"""The index room's parts behind ModuleIndex: what the facade binds, what it builds on
first need, and the ranking of closest names."""

from __future__ import annotations

import subprocess
import sys

from inwards_core.index.hints import ClosestNames, edit_distance
from inwards_core.index.ownership import Ownership
from inwards_core.index.resolution import Provenance, Resolution

from .helpers import index


def test_per_import_questions_are_the_parts_own_methods() -> None:
    """The engine asks them about every import: the facade adds no call in between."""
    idx = index(["shop/domain/order.py"], ("domain", ["shop.domain"]))
    for question in ("owning_pattern", "layer_of", "is_ignored"):
        assert isinstance(getattr(idx, question).__self__, Ownership)
    for question in ("exists", "is_generated", "is_first_party", "classify", "resolve_target"):
        assert isinstance(getattr(idx, question).__self__, Resolution)


def test_provenance_reads_as_its_text() -> None:
    idx = index(["shop/domain/order.py"], ("domain", ["shop.domain"]))
    assert idx.classify("requests") is Provenance.THIRD_PARTY
    assert idx.classify("os.path") == "stdlib"
    assert f"the {idx.classify('shop.domain')} library" == "the first-party library"


def test_hints_and_coverage_are_imported_on_first_need() -> None:
    """A check of a few clean files builds an index and never asks for a hint or for dead
    configuration: those modules stay off its start-up."""
    script = (
        "import sys\n"
        "from inwards_core.index.modules import ModuleIndex\n"
        "from inwards_core.config.values import Config, Layer\n"
        "from inwards_core.ports import ProjectListing\n"
        "layer = Layer(name='domain', modules=('shop.domain',), rank=0, key='k')\n"
        "config = Config(file='pyproject.toml', root='.', layers=(layer,))\n"
        "idx = ModuleIndex.build(config, ProjectListing(('shop/domain/a.py',), ()))\n"
        "assert idx.layer_of('shop.domain.a') is layer\n"
        "late = ('inwards_core.index.hints', 'inwards_core.index.coverage')\n"
        "print(*(name in sys.modules for name in late))\n"
        "idx.closest_modules('shop.domain.b'), idx.unmatched_patterns()\n"
        "print(*(name in sys.modules for name in late))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False False", "True True"]


def test_closest_names_rank_by_edit_distance_ties_by_name() -> None:
    """Not difflib's similarity ratio, which ranks `module_number_95` second here (it
    favours long shared runs, and breaks ties towards the later name)."""
    children = {"shop": {f"module_number_{n}" for n in range(200)}}
    assert ClosestNames(children).closest("shop", "module_numbr_5", 3) == (
        "shop.module_number_5",
        "shop.module_number_0",
        "shop.module_number_1",
    )


def test_edit_distance_stops_past_its_limit() -> None:
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("kitten", "sitting", limit=1) == 2  # any answer over 1 is 2
    assert edit_distance("a", "abcdef", limit=2) == 3  # the lengths alone say it
