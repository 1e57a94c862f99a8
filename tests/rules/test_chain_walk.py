"""`inw.independence` with `indirect = true` finds every pair's chains and other routes from
one walk per unit (`SourceWalk`); before, each pair's other routes cost one search of the
whole graph each. The walk must find the same chains, import for import, in the same order:
random projects (units, modules outside them, imports between any two, `allow` entries)
are checked with the walk, and the old pair-by-pair search, kept here as the oracle, runs on
the same model and must yield the same (unit, unit, route) triples."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inwards_core import ImportEdge, ProjectModel
from inwards_core.families.inw.generic import import_chains, kind_independence
from inwards_core.families.inw.generic.import_chains import Chain, Route, shortest_chains
from inwards_core.families.inw.module_entries import checked_in, covers
from tests.rules.test_kinds import definition, only, run


def pair_by_pair(
    model: ProjectModel,
    sources: Sequence[str],
    ends: Sequence[str],
    hit: Callable[[str, ImportEdge], str | None],
    passable: Callable[[str, str], bool],
    follows: Callable[[ImportEdge], bool] | None = None,
    *,
    as_packages: bool = True,
) -> Iterator[tuple[str, str, Chain]]:
    """The oracle: `chains_from_each` as it was, a search per unit for the first routes
    and one more search of the graph per other route of each pair."""
    if not model.whole_project:
        return
    for source in sources:
        starts = list(checked_in(model, (source,)))
        if not as_packages:
            starts = [i for i in starts if covers(source, i.name, as_package=False)]
        chains = shortest_chains(
            model,
            starts,
            hit=functools.partial(hit, source),
            passable=functools.partial(passable, source),
            follows=follows,
        )
        for end in ends:
            chain = chains.get(end)
            if chain is not None:
                yield source, end, chain


def _whole(route: Chain) -> tuple[Any, ...]:
    """A route with everything it carries, edges by identity (the model's own objects)."""
    if not isinstance(route, Route):
        return (tuple(map(id, route)),)
    return (
        tuple(map(id, route)),
        tuple(map(id, route.heads)),
        tuple(map(id, route.tails)),
        tuple(_whole(other) for other in route.others),
    )


class _Compared:
    """Runs the walk and the oracle on each call the kind makes, and records both."""

    def __init__(self) -> None:
        self.calls = 0
        self.routes = 0
        self.new = import_chains.chains_from_each

    def __call__(self, *args: Any, **kwargs: Any) -> Iterator[tuple[str, str, Chain]]:
        self.calls += 1
        walked = list(self.new(*args, **kwargs))
        expected = list(pair_by_pair(*args, **kwargs))
        assert [(s, e, _whole(c)) for s, e, c in walked] == [
            (s, e, _whole(c)) for s, e, c in expected
        ]
        self.routes += sum(1 + len(getattr(c, "others", ())) for _, _, c in walked)
        return iter(walked)


def _project(
    units: int,
    unit_sizes: list[int],
    middles: int,
    imports: list[tuple[int, int, int, int]],
) -> dict[str, str]:
    unit_modules = []
    for unit in range(units):
        package = f"shop.units.u{unit}"
        size = unit_sizes[unit % len(unit_sizes)]
        unit_modules.append([package, *(f"{package}.m{i}" for i in range(size))])
    mid = [f"shop.mid.m{i}" for i in range(middles)] or ["shop.mid"]
    every_unit = [name for names in unit_modules for name in names]
    lines: dict[str, list[str]] = {name: [] for name in [*every_unit, *mid, "shop.mid"]}
    for kind, importer, target, style in imports:
        # most imports run from a unit into the middle, within it, or back into a unit,
        # so that pairs have several routes and cuts move parts of the walk
        sides = {
            0: (every_unit, mid),
            1: (mid, mid),
            2: (mid, every_unit),
            3: (every_unit, every_unit),
        }[kind]
        source = sides[0][importer % len(sides[0])]
        imported = sides[1][target % len(sides[1])]
        if source == imported:
            continue
        if style == 0:
            lines[source].append(f"import {imported}")
        elif style == 1:
            package, _, name = imported.rpartition(".")
            lines[source].append(f"from {package} import {name}")
        else:  # a second import of the same module on the same line
            lines[source].append(f"import {imported}; import {imported}")
    files = {"shop/__init__.py": "", "shop/units/__init__.py": ""}
    packages = {"shop.mid", *(names[0] for names in unit_modules)}
    for name, body in lines.items():
        path = name.replace(".", "/") + ("/__init__.py" if name in packages else ".py")
        files[path] = "".join(line + "\n" for line in body)
    return files


PROJECTS = st.builds(
    _project,
    units=st.integers(2, 4),
    unit_sizes=st.lists(st.integers(1, 3), min_size=1, max_size=4),
    middles=st.integers(2, 10),
    imports=st.lists(
        st.tuples(
            st.sampled_from([0, 0, 1, 1, 1, 2, 2, 3]),
            st.integers(0, 40),
            st.integers(0, 40),
            st.integers(0, 2),
        ),
        min_size=15,
        max_size=80,
    ),
)


def _rule(allow: list[str]) -> dict[str, str]:
    options = 'modules = ["shop.units.*"]\nindirect = true'
    if allow:
        options += "\nallow = [" + ", ".join(f'"{entry}"' for entry in allow) + "]"
    return {"ACME009.toml": definition("ACME009", "inw.independence", options)}


ALLOWS = st.lists(
    st.sampled_from(
        [
            "shop.mid.m0 -> shop.mid.m1",
            "shop.units.u0 -> shop.mid.m2",
            "shop.mid.m3 -> shop.units.u1",
        ]
    ),
    max_size=2,
    unique=True,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=PROJECTS, allow=ALLOWS)
def test_the_walk_finds_the_routes_the_pair_by_pair_search_finds(
    files: dict[str, str], allow: list[str]
) -> None:
    compared = _Compared()
    with mock.patch.object(kind_independence, "chains_from_each", compared):
        run(files, _rule(allow))
    assert compared.calls == 1


def test_the_comparison_sees_other_routes() -> None:
    # A hub that three units reach and that imports two more: each pair has a route, and
    # the pairs through the hub's two imports have other routes, found after cuts that
    # move modules of the walk (the hub's way from the unit is cut).
    files = {
        "shop/__init__.py": "",
        "shop/units/__init__.py": "",
        "shop/units/u0/__init__.py": "",
        "shop/units/u0/a.py": "import shop.mid.hub\nimport shop.mid.side\n",
        "shop/units/u0/b.py": "import shop.mid.hub\n",
        "shop/units/u1/__init__.py": "",
        "shop/units/u1/c.py": "",
        "shop/units/u2/__init__.py": "",
        "shop/units/u2/d.py": "",
        "shop/mid/__init__.py": "",
        "shop/mid/hub.py": "import shop.mid.far\nimport shop.units.u1.c\n",
        "shop/mid/side.py": "import shop.mid.far\n",
        "shop/mid/far.py": "import shop.units.u1.c\nimport shop.units.u2.d\n",
    }
    compared = _Compared()
    with mock.patch.object(kind_independence, "chains_from_each", compared):
        report = run(files, _rule([]))
    assert compared.routes > 2
    assert any("Other routes" in f.message for f in only(report, "ACME009"))
