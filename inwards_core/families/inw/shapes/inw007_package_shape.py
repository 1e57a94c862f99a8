"""inw.package-shape: members that a package's shape or a name rule refuses, and shape
selectors that name no package."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from inwards_core import (
    CheckKind,
    Config,
    Example,
    KindDocs,
    ModuleIndex,
    ModuleInfo,
    ProjectModel,
    Severity,
    Span,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import ScopedOptions

if TYPE_CHECKING:  # the index's members module is loaded when a shape is first checked
    from inwards_core import NameRule, PackageMember, Shape
    from inwards_core.families.inw.shapes.shape_rules import Shapes

# The shape helpers (`shape_rules`, `shape_targets`) are imported by the functions that use
# them: a project without shapes or names rules never loads them.

DOCS = KindDocs(
    what_it_does="""
Keeps packages in the shape the team agreed on, from the project's files alone (imports play
no part). A `[[tool.inwards.shape]]` entry names packages (`a.b` the package itself, `a.*`
each package one level below `a`, `a.**` every package below `a`; the first entry that
names a package shapes it) and the direct members they may hold. A
`[[tool.inwards.names]]` entry keeps members with a name like `pattern` to the packages
listed in `only-in`. This rule reports:

- a member that the shape's `forbid` names (an error);
- a member whose name matches a names rule, in a package outside its `only-in`;
- a member that the shape's `allow` does not name (an error, or a warning with
  `extra = "warning"`); a `require`d member is always allowed, and a shape without `allow`
  allows every member;
- a shape selector that names no package of the project: a warning on the configuration
  (whole-project runs only).

A member is a module (`orders.py`; a stub `orders.pyi` counts) or a subpackage (with or
without `__init__.py`). In `allow`, `require` and `forbid`, `orders` matches either,
`orders/` a subpackage only and `orders.py` a module only, and `*`, `?` and `[...]` work as
in shell globs. A member is reported once, at the first line of its file (a subpackage's
`__init__.py`, or the first file below it), so `inwards check FILE` reports the member that
file is.
""",
    why_is_this_bad="""
A package whose members follow a known plan is one a reader (or an AI agent) finds their way
in without a search: the ports are in `ports/`, the use cases in `service.py`. Every
`helpers.py` or `common/` that slips in becomes the place where anything goes, and the next
change puts its code there too.
""",
    how_to_fix="""
Move the code of the member into one the shape allows (the fix names the likeliest, from
the shape's `hints`, singular and plural forms, usual synonyms such as `helpers` for
`utils`, a shared ending and close spellings) and delete the member; update the imports of
it. A shape whose `hints` is a list of sentences has each of them shown as a step of the
fix, as written. If the package really needs such a member, change its
`[[tool.inwards.shape]]` entry.
A misnamed member moves to a package its names rule lists in `only-in`, or is renamed.
""",
    limitations="""
Shapes cover the direct members of a package only: give subpackages a shape of their own
(`a.**` shapes all of them). Files whose names are not identifiers (`0001_initial.py`,
`my-script.py`) are members too: importlib loads them. With `inwards check PATHS` the rule judges each named file that is a member of a
shaped package (or of any package, with a names rule), whether a layer owns it or not:
it needs the file listing only, so such a file is not read. The selectors that name
nothing are reported on whole-project runs only. The findings are not suppressible
inline: change the shape instead. Unlike some tools, a
subpackage is reported once, on the file that stands for it, not on each of its files.
""",
)


GUIDANCE_PARAMS = {
    "member": "the member as a shape pattern writes it (`helpers.py`, `common/`; empty for "
    "a selector that names nothing)",
    "package": "the package that holds the member",
    "package_dir": "the package's directory, relative to the project directory",
    "allowed": "what the package's shape allows, as a list (empty for a names finding)",
    "target": "the likeliest member to move the code into (`utils.py`)",
    "target_path": "the path of that member",
    "reason": "why that member is the likeliest",
    "pattern": "the names rule's `pattern` a misnamed member matches",
    "places": "the packages its names rule keeps such members to (`only-in`)",
    "selector": "a shape selector that names no package",
    "key": "the dotted key of the shape's table (`tool.inwards.shape[0]`)",
    "advice": "the sentences of the shape's `hints` when written as a list, in one line; a "
    "step that is `{advice}` alone shows each as a step of its own, as written (no step "
    "when the shape has none)",
}


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    config = model.config
    if not config.shapes and not config.names:
        return
    judge = _Judge(config, model.index)
    scoped = bool(options.modules)
    for member in _members_to_judge(model, judge.shapes):
        if member.file is None or (scoped and not options.applies_to(member.dotted)):
            continue
        found = judge.judge(member)
        if found is not None:
            yield found
    if model.whole_project:
        yield from _dead_selectors(config, judge.shapes, model.index.packages())


def _members_to_judge(model: ProjectModel, shapes: Shapes) -> Iterator[PackageMember]:
    """On a whole-project run, the members of every package a shape or a names rule can
    judge; with paths, the members that the named files are, read or not (`listed`)."""
    index = model.index
    if not model.whole_project:
        for info in (*model.checked, *model.listed):
            yield from index.members_at(info)
        return
    every_package = bool(model.config.names)
    for package in index.packages():
        if every_package or shapes.of(package) is not None:
            yield from index.members(package)


# A definition that words no variant for a finding gives it the main steps: their
# `{advice}` step is then no step at all.
NO_ADVICE: dict[str, tuple[str, ...]] = {"advice": ()}


def judges_listed(
    index: ModuleIndex, options: ScopedOptions
) -> Callable[[ModuleInfo], bool] | None:
    """With PATHS, whether a named file is a member this rule judges: of a shaped package,
    or of any package once a names rule is set. Only the listing is needed, so a file no
    layer owns is judged without reading it."""
    config = index.config
    if not config.shapes and not config.names:
        return None
    from inwards_core.families.inw.shapes.shape_rules import Shapes

    shapes = Shapes(config)
    every_package = bool(config.names)

    def judges(info: ModuleInfo) -> bool:
        return any(
            (every_package or shapes.of(member.package) is not None)
            and options.applies_to(member.dotted)
            for member in index.members_at(info)
        )

    return judges


def _params(**given: str) -> dict[str, str]:
    """Every guidance parameter, empty where a finding has no value for it."""
    return {name: given.get(name, "") for name in GUIDANCE_PARAMS}


class _Judge:
    """Judges one member against its package's shape and the names rules."""

    def __init__(self, config: Config, index: ModuleIndex) -> None:
        from inwards_core.families.inw.shapes.shape_rules import MemberPatterns, Shapes

        self.config = config
        self.index = index
        self.shapes = Shapes(config)
        self.names = tuple((rule, MemberPatterns((rule.pattern,))) for rule in config.names)

    def judge(self, member: PackageMember) -> Violation | None:
        from inwards_core.families.inw.shapes.shape_rules import selector_matches

        name, is_package = member.name, member.is_package
        rule = self.shapes.of(member.package)
        forbid = None if rule is None else rule.forbid
        if rule is not None and forbid is not None and forbid.first(name, is_package) is not None:
            stable = f'Package "{quoted(member.package)}" has a member "{quoted(member.shown)}" that its shape forbids.'
            return self._refused(member, rule.shape, stable, None)
        for names, pattern in self.names:
            if pattern.first(name, is_package) is not None and not any(
                selector_matches(place, member.package) for place in names.only_in
            ):
                return self._misnamed(member, names)
        if rule is None or rule.allowed is None:
            return None
        if rule.allowed.first(name, is_package) is not None:
            return None
        stable = f'Package "{quoted(member.package)}" has a member "{quoted(member.shown)}" that its shape does not allow.'
        severity = Severity.WARNING if rule.shape.extra is Severity.WARNING else None
        return self._refused(member, rule.shape, stable, severity)

    def _refused(
        self, member: PackageMember, shape: Shape, stable: str, severity: Severity | None
    ) -> Violation:
        """A member that its shape forbids or does not allow, with where its code goes."""
        # Loaded here: a run without such a member never pays for the synonym table.
        from inwards_core.families.inw.shapes.shape_rules import package_dir
        from inwards_core.families.inw.shapes.shape_targets import likely_target

        directory = package_dir(self.config, member.package)
        target = likely_target(member, self._candidates(member, shape), shape.hints)
        allowed = _allowed(shape)
        return Violation(
            file=member.file or "",
            module=member.dotted,
            span=Span.start_of_file(),
            message=stable,
            severity=severity,
            variant="" if target is None else "likely-target",
            params=_params(
                member=quoted(member.shown),
                package=quoted(member.package),
                package_dir=quoted(directory),
                allowed=allowed,
                target="" if target is None else quoted(target.shown),
                target_path="" if target is None else quoted(directory + target.shown),
                reason="" if target is None else target.reason,
                key=shape.key,
                advice=" ".join(shape.advice),
            ),
            step_lists={"advice": shape.advice},
        )

    def _candidates(self, member: PackageMember, shape: Shape) -> Sequence[str]:
        """The members the code could move into: those the shape names, or with no
        `allow`, the package's other members that it does not forbid."""
        from inwards_core.families.inw.shapes.shape_rules import first_match

        if shape.allow is not None:
            return (*shape.allow, *shape.require)
        return [
            sibling.shown
            for sibling in self.index.members(member.package)
            if sibling.name != member.name and first_match(shape.forbid, sibling) is None
        ]

    def _misnamed(self, member: PackageMember, rule: NameRule) -> Violation:
        """A member named like a names rule's pattern outside the packages it lists."""
        from inwards_core.families.inw.shapes.shape_rules import listed, package_dir

        stable = f'"{quoted(member.shown)}" in package "{quoted(member.package)}" has a name that [tool.inwards.names] keeps to other packages.'
        places = listed(rule.only_in)
        return Violation(
            file=member.file or "",
            module=member.dotted,
            span=Span.start_of_file(),
            message=stable,
            variant="misplaced-name",
            step_lists=NO_ADVICE,
            params=_params(
                member=quoted(member.shown),
                package=quoted(member.package),
                package_dir=quoted(package_dir(self.config, member.package)),
                pattern=quoted(rule.pattern),
                places=places,
                key=rule.key,
            ),
        )


def _allowed(shape: Shape) -> str:
    from inwards_core.families.inw.shapes.shape_rules import listed

    if shape.allow is None:
        return "any member but " + listed(shape.forbid)
    entries = list(dict.fromkeys((*shape.allow, *shape.require)))
    return listed(entries) if entries else "no member at all"


def _dead_selectors(config: Config, shapes: Shapes, packages: Sequence[str]) -> Iterator[Violation]:
    """A warning on each shape selector that names no package (a typo, or moved code)."""
    for shape, position in shapes.dead_selectors(packages):
        selector = shape.packages[position]
        line, column = config.locate(f"{shape.key}.packages[{position}]")
        shown = quoted(selector)
        yield Violation(
            file=config.file,
            module=None,
            span=Span(line, column, line, column + len(selector) + 2),
            message=f'Shape selector "{shown}" ({shape.key}) names no package of this project.',
            stable_message=f'Shape selector "{shown}" names no package of this project.',
            severity=Severity.WARNING,
            variant="dead-selector",
            params=_params(selector=shown, key=shape.key),
            step_lists=NO_ADVICE,
        )


_LAYERS = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]
"""


def examples() -> tuple[Example, ...]:
    """Good and bad projects: the pages show them with their real output, the tests
    run them."""
    outer = {
        "shop/domain/order.py": "class Order: ...\n",
        "shop/infrastructure/db.py": "",
    }
    return (
        Example(
            title="Members the application's shape does not allow, or forbids",
            good=False,
            config=_LAYERS
            + (
                "\n[[tool.inwards.shape]]\n"
                'packages = ["shop.application"]\n'
                'allow = ["ports/", "service.py"]\n'
                'forbid = ["helpers*"]\n'
            ),
            files={
                **outer,
                "shop/application/__init__.py": "",
                "shop/application/ports/__init__.py": "",
                "shop/application/service.py": "def place_order() -> None: ...\n",
                "shop/application/services.py": (
                    "def cancel_order() -> None: ...  # expect: INW007\n"
                ),
                "shop/application/helpers.py": "def slug(text: str) -> str: ...  # expect: INW007\n",
            },
        ),
        Example(
            title="The team's own advice in the fix",
            good=False,
            config=_LAYERS
            + (
                "\n[[tool.inwards.shape]]\n"
                'packages = ["shop.application"]\n'
                'allow = ["ports/", "service.py"]\n'
                'hints = ["Code the use cases share goes into service.py.", "Ask the team '
                'before adding a package."]\n'
            ),
            files={
                **outer,
                "shop/application/service.py": "def place_order() -> None: ...\n",
                "shop/application/common/__init__.py": "def slug(text: str) -> str: ...  # expect: INW007\n",
            },
        ),
        Example(
            title="A test module beside the code it tests",
            good=False,
            config=_LAYERS.replace("[tool.inwards]\n", '[tool.inwards]\nignore = ["tests"]\n')
            + ('\n[[tool.inwards.names]]\npattern = "test_*"\nonly-in = ["shop.tests"]\n'),
            files={
                **outer,
                "shop/application/checkout.py": "",
                "shop/domain/test_order.py": "from shop.domain.order import Order  # expect: INW007\n",
                "shop/tests/__init__.py": "",
                "shop/tests/test_checkout.py": "from shop.application import checkout\n",
            },
        ),
        Example(
            title="Every package has the shape the team agreed on",
            good=True,
            config=_LAYERS
            + (
                "\n[[tool.inwards.shape]]\n"
                'packages = ["shop.application"]\n'
                'allow = ["ports/", "use_cases/"]\n'
                "\n[[tool.inwards.shape]]\n"
                'packages = ["shop.application.*"]\n'
                'allow = ["*.py"]\n'
                'forbid = ["helpers.py", "utils.py"]\n'
            ),
            files={
                **outer,
                "shop/application/__init__.py": "",
                "shop/application/ports/__init__.py": "",
                "shop/application/ports/orders.py": "class Orders: ...\n",
                # A namespace package: a directory of modules without `__init__.py`.
                "shop/application/use_cases/place_order.py": "def place_order() -> None: ...\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.package-shape",
    summary="Package members that the package's shape or a name rule refuses.",
    options_type=ScopedOptions,
    check=check,
    judges_listed=judges_listed,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
