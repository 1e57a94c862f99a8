"""INW007 package-shape and INW008 missing-member on hand-built configurations: selectors,
member patterns, first match, names rules, the likely target, per-file runs and the
findings' params."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs
import pytest

from inwards_core import (
    Config,
    ModuleIndex,
    NameRule,
    PackageMember,
    ProjectModel,
    Severity,
    Shape,
    Violation,
)
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.shapes import inw007_package_shape, inw008_missing_member
from inwards_core.families.inw.shapes.shape_rules import member_matches, selector_matches
from inwards_core.families.inw.shapes.shape_targets import likely_target

SHOP = [
    "shop/__init__.py",
    "shop/domain/__init__.py",
    "shop/domain/order.py",
    "shop/domain/helpers.py",
    "shop/domain/test_order.py",
    "shop/domain/tests/__init__.py",
    "shop/domain/tests/test_money.py",
    "shop/application/__init__.py",
    "shop/application/services.py",
    "shop/infrastructure/__init__.py",
    "shop/infrastructure/db.py",
    "shop/common/__init__.py",
    "shop/common/clock.py",
]


def config(*shapes: Shape, names: Sequence[NameRule] = (), root: str = ".") -> Config:
    return Config(
        file="pyproject.toml", root=root, layers=(), shapes=tuple(shapes), names=tuple(names)
    )


def shape(
    *packages: str,
    allow: Sequence[str] | None = None,
    require: Sequence[str] = (),
    forbid: Sequence[str] = (),
    extra: Severity = Severity.ERROR,
    hints: Mapping[str, str] | None = None,
    key: str = "tool.inwards.shape[0]",
) -> Shape:
    return Shape(
        packages=packages,
        key=key,
        allow=None if allow is None else tuple(allow),
        require=tuple(require),
        forbid=tuple(forbid),
        extra=extra,
        hints=dict(hints or {}),
    )


def model(cfg: Config, files: Iterable[str], checked: Sequence[str] | None = None) -> ProjectModel:
    index = ModuleIndex.build(cfg, InMemoryProjectFiles(dict.fromkeys(files, "")).listing(""))
    if checked is None:
        return ProjectModel(cfg, index, {}, tuple(index.modules.values()), True)
    infos = tuple(index.by_file[file] for file in checked)
    return ProjectModel(cfg, index, {}, infos, False)


def shape_findings(
    cfg: Config, files: Iterable[str] = SHOP, checked: Sequence[str] | None = None
) -> list[Violation]:
    found = inw007_package_shape.check(model(cfg, files, checked), ScopedOptions())
    return sorted(found, key=lambda v: (v.file, v.message))


def missing(cfg: Config, files: Iterable[str] = SHOP) -> list[Violation]:
    return list(inw008_missing_member.check(model(cfg, files), ScopedOptions()))


def where(findings: Sequence[Violation]) -> list[tuple[str, str]]:
    return [(v.file, v.message) for v in findings]


@pytest.mark.parametrize(
    ("selector", "package", "expected"),
    [
        ("shop.domain", "shop.domain", True),
        ("shop.domain", "shop.domain.tests", False),
        ("shop.domain", "shop", False),
        ("shop.*", "shop.domain", True),
        ("shop.*", "shop", False),
        ("shop.*", "shop.domain.tests", False),
        ("shop.**", "shop.domain", True),
        ("shop.**", "shop.domain.tests", True),
        ("shop.**", "shop", False),
        ("shop.*.tests", "shop.domain.tests", True),
        ("shop.*.tests", "shop.domain", False),
        ("shop.dom*", "shop.domain", False),  # refused by the loader; names nothing here
    ],
)
def test_selectors_name_packages_not_prefixes(selector: str, package: str, expected: bool) -> None:
    assert selector_matches(selector, package) is expected


@pytest.mark.parametrize(
    ("pattern", "is_package", "expected"),
    [
        ("ports", True, True),
        ("ports", False, True),
        ("ports/", True, True),
        ("ports/", False, False),
        ("ports.py", False, True),
        ("ports.py", True, False),
        ("ports.pyi", False, True),
        ("p*", False, True),
        ("[pq]orts", True, True),
        ("Ports", False, False),  # fnmatchcase: case counts
    ],
)
def test_member_patterns(pattern: str, is_package: bool, expected: bool) -> None:
    member = PackageMember("shop", "ports", is_package, "shop/ports.py")
    assert member_matches(pattern, member) is expected


def test_members_outside_allow_are_reported_once_on_their_file() -> None:
    cfg = config(shape("shop", allow=["domain/", "application/", "infrastructure/"]))
    assert where(shape_findings(cfg)) == [
        (
            "shop/common/__init__.py",
            'Package "shop" has a member "common/" that its shape does not allow.',
        )
    ]


def test_no_allow_allows_anything_and_require_is_always_allowed() -> None:
    cfg = config(
        shape("shop.domain", require=["order"]),
        shape("shop.application", allow=[], require=["services.py"], key="tool.inwards.shape[1]"),
    )
    assert shape_findings(cfg) == []


def test_forbid_wins_and_first_matching_shape_wins() -> None:
    cfg = config(
        shape("shop.domain", forbid=["helpers*", "tests/"]),
        shape("shop.*", allow=["nothing"], key="tool.inwards.shape[1]"),
    )
    found = shape_findings(cfg)
    assert [(v.file, v.severity) for v in found] == [
        ("shop/application/services.py", None),
        ("shop/common/clock.py", None),
        ("shop/domain/helpers.py", None),
        ("shop/domain/tests/__init__.py", None),
        ("shop/infrastructure/db.py", None),
    ]
    assert (
        found[2].message
        == 'Package "shop.domain" has a member "helpers.py" that its shape forbids.'
    )


def test_extra_warning_makes_not_allowed_members_warnings_but_not_forbidden_ones() -> None:
    cfg = config(
        shape("shop.domain", allow=["order"], forbid=["helpers.py"], extra=Severity.WARNING)
    )
    found = {v.file: v.severity for v in shape_findings(cfg)}
    assert found == {
        "shop/domain/helpers.py": None,
        "shop/domain/test_order.py": Severity.WARNING,
        "shop/domain/tests/__init__.py": Severity.WARNING,
    }


def test_names_rule_outside_only_in() -> None:
    rule = NameRule("test_*", ("shop.domain.tests",), "tool.inwards.names[0]")
    found = shape_findings(config(names=[rule]))
    assert where(found) == [
        (
            "shop/domain/test_order.py",
            '"test_order.py" in package "shop.domain" has a name that [tool.inwards.names] '
            "keeps to other packages.",
        )
    ]
    assert found[0].variant == "misplaced-name"
    assert found[0].params["places"] == "`shop.domain.tests`"
    assert found[0].params["pattern"] == "test_*"


def test_names_rule_only_in_names_packages_exactly() -> None:
    rule = NameRule("test_*", ("shop.domain",), "tool.inwards.names[0]")
    assert [v.file for v in shape_findings(config(names=[rule]))] == [
        "shop/domain/tests/test_money.py"
    ]


def test_a_names_finding_comes_before_not_allowed() -> None:
    rule = NameRule("test_*", ("shop.domain.tests",), "tool.inwards.names[0]")
    cfg = config(shape("shop.domain", allow=["order", "helpers", "tests/"]), names=[rule])
    assert [(v.file, v.variant) for v in shape_findings(cfg)] == [
        ("shop/domain/test_order.py", "misplaced-name")
    ]


def test_dead_selectors_warn_on_the_configuration() -> None:
    cfg = config(shape("shop.domain", "shop.nothere", "shop.**.deep"))
    found = [v for v in shape_findings(cfg) if v.file == "pyproject.toml"]
    assert [(v.message, v.severity, v.variant) for v in found] == [
        (
            'Shape selector "shop.**.deep" (tool.inwards.shape[0]) names no package of this project.',
            Severity.WARNING,
            "dead-selector",
        ),
        (
            'Shape selector "shop.nothere" (tool.inwards.shape[0]) names no package of this project.',
            Severity.WARNING,
            "dead-selector",
        ),
    ]
    assert (
        found[0].stable_message == 'Shape selector "shop.**.deep" names no package of this project.'
    )


def test_with_paths_only_the_checked_files_members_and_no_dead_selectors() -> None:
    cfg = config(shape("shop", "shop.nothere", allow=["domain/"]))
    checked = ["shop/common/clock.py", "shop/application/__init__.py"]
    assert where(shape_findings(cfg, checked=checked)) == [
        (
            "shop/application/__init__.py",
            'Package "shop" has a member "application/" that its shape does not allow.',
        )
    ]


def test_the_fix_names_the_likely_target() -> None:
    cfg = config(
        shape(
            "shop.application",
            allow=["service", "ports/"],
            key="tool.inwards.shape[0]",
        ),
        shape("shop.domain", allow=["order", "utils.py"], key="tool.inwards.shape[1]"),
    )
    found = {v.file: v.params for v in shape_findings(cfg)}
    services = found["shop/application/services.py"]
    assert (services["target"], services["target_path"], services["reason"]) == (
        "service.py",
        "shop/application/service.py",
        "the same word, singular or plural",
    )
    assert services["allowed"] == "`service`, `ports/`"
    assert found["shop/domain/helpers.py"]["target"] == "utils.py"
    assert found["shop/domain/test_order.py"]["target"] == ""


def test_without_allow_the_target_is_a_sibling_member() -> None:
    files = [*SHOP, "shop/domain/utils.py"]
    found = shape_findings(config(shape("shop.domain", forbid=["helpers.py"])), files)
    assert [(v.params["target"], v.params["allowed"]) for v in found] == [
        ("utils.py", "any member but `helpers.py`")
    ]


def candidates_target(name: str, candidates: Sequence[str], **hints: str) -> str | None:
    target = likely_target(PackageMember("p", name, False, "p/x.py"), candidates, hints)
    return None if target is None else target.shown


@pytest.mark.parametrize(
    ("name", "candidates", "expected"),
    [
        ("services", ["service", "ports/"], "service.py"),
        ("repository", ["repositories/"], "repositories/"),
        ("helpers", ["models", "utils"], "utils.py"),
        ("misc", ["utils.py"], "utils.py"),
        ("test_orders", ["tests/"], "tests/"),
        ("orders_test", ["tests/"], "tests/"),
        ("order_service", ["ports", "service"], "service.py"),
        ("pricng", ["pricing", "orders"], "pricing.py"),
        ("pricnig", ["pricing"], "pricing.py"),  # 2 edits, 7 characters
        ("ordr", ["order"], "order.py"),  # 1 edit, 4 characters
        ("odr", ["order"], None),  # 2 edits is too many for 3 characters
        ("ab", ["ac"], None),  # too short to guess
        ("helpers", ["util*"], None),  # only literal entries are targets
        ("whatever", ["a", "b"], None),
    ],
)
def test_likely_targets(name: str, candidates: list[str], expected: str | None) -> None:
    assert candidates_target(name, candidates) == expected


def test_hints_win() -> None:
    assert candidates_target("helpers", ["utils"], helpers="support") == "support.py"
    assert candidates_target("helpers", ["utils"], **{"helpers.py": "kit/"}) == "kit/"


def test_missing_members() -> None:
    cfg = config(
        shape("shop.domain", require=["order", "model", "tests/", "ports/", "x*"]),
        shape("shop.application", require=["services/"], key="tool.inwards.shape[1]"),
    )
    assert [(v.file, v.message, v.params["path"]) for v in missing(cfg)] == [
        (
            "shop/application/__init__.py",
            'Package "shop.application" has no member "services/", which its shape requires.',
            "shop/application/services/__init__.py",
        ),
        (
            "shop/domain/__init__.py",
            'Package "shop.domain" has no member "model", which its shape requires.',
            "shop/domain/model.py",
        ),
        (
            "shop/domain/__init__.py",
            'Package "shop.domain" has no member "ports/", which its shape requires.',
            "shop/domain/ports/__init__.py",
        ),
        (
            "shop/domain/__init__.py",
            'Package "shop.domain" has no member matching "x*", which its shape requires.',
            "shop/domain/x*.py",
        ),
    ]


def test_missing_member_of_a_namespace_package_is_on_its_first_file() -> None:
    files = ["src/shop/__init__.py", "src/shop/orders/b.py", "src/shop/orders/a/x.py"]
    cfg = attrs.evolve(config(shape("shop.orders", require=["api.py"])), root="src")
    assert [(v.file, v.params["path"]) for v in missing(cfg, files)] == [
        ("src/shop/orders/a/x.py", "src/shop/orders/api.py")
    ]


def test_nothing_without_shapes_or_names() -> None:
    assert shape_findings(config()) == []
    assert missing(config(shape("shop"))) == []
