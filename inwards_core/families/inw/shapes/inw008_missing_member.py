"""inw.missing-member: a shaped package without a member its shape requires."""

from __future__ import annotations

from collections.abc import Iterator

from inwards_core import (
    CheckKind,
    Config,
    Example,
    KindDocs,
    ProjectModel,
    Scope,
    Span,
    Violation,
    quoted,
)
from inwards_core.families.inw.layering.layer_relations import ScopedOptions

# The shape helpers are imported on first need: a project without shapes never loads them.

DOCS = KindDocs(
    what_it_does="""
Reports each package that a `[[tool.inwards.shape]]` entry shapes and that lacks a member
its `require` names: `ports` is met by a module `ports.py` (or `ports.pyi`) or a subpackage
`ports/`, `ports/` by a subpackage only, `ports.py` by a module only; a pattern with
wildcards (`test_*`) by any member it matches. The finding is on the first line of the
package's `__init__.py` (or of the first file below a package without one). Whole-project
runs only: whether a member is missing is a question about the whole package.
""",
    why_is_this_bad="""
A required member is where the team expects a kind of code to live: the ports of a use
case, the router of a feature. A package without it either keeps that code somewhere a
reader won't look, or was half moved, renamed or deleted.
""",
    how_to_fix="""
Bring the member back if it was moved, renamed or deleted; otherwise create it (the fix
names the path). If the package really has no use for it, take it out of `require` of the
package's `[[tool.inwards.shape]]` entry.
""",
    limitations="""
Members come from the project's files: a module only a compiled file stands for
(`_speedups.so`) counts as present. The findings are not suppressible inline.
""",
)


GUIDANCE_PARAMS = {
    "package": "the shaped package",
    "package_dir": "the package's directory, relative to the project directory",
    "requirement": "the `require` entry no member meets, as written (`ports/`)",
    "path": "where a member meeting it would be (`shop/application/ports/__init__.py`)",
    "key": "the dotted key of the shape's table (`tool.inwards.shape[0]`)",
}


def applies(config: Config) -> bool:
    """Only a shape with `require` gives this rule anything to judge."""
    return any(shape.require for shape in config.shapes)


def check(model: ProjectModel, options: ScopedOptions) -> Iterator[Violation]:
    config = model.config
    if not applies(config):
        return
    from inwards_core.families.inw.shapes.shape_rules import Shapes

    shapes = Shapes(config)
    index = model.index
    for package in index.packages():
        rule = shapes.of(package)
        if rule is None or not rule.shape.require or not options.applies_to(package):
            continue
        shape = rule.shape
        file = index.package_file(package)
        if file is None:
            continue
        members = index.members(package)
        for requirement, patterns in zip(shape.require, rule.required, strict=True):
            if any(patterns.first(member.name, member.is_package) for member in members):
                continue
            yield _missing(config, package, file, requirement, shape.key)


def _missing(config: Config, package: str, file: str, requirement: str, key: str) -> Violation:
    from inwards_core.families.inw.shapes.shape_rules import is_literal, package_dir

    shown = quoted(requirement)
    what = "no member" if is_literal(requirement) else "no member matching"
    directory = package_dir(config, package)
    return Violation(
        file=file,
        module=package,
        span=Span.start_of_file(),
        message=f'Package "{quoted(package)}" has {what} "{shown}", which its shape requires.',
        params={
            "package": quoted(package),
            "package_dir": quoted(directory),
            "requirement": shown,
            "path": quoted(directory + _path_of(requirement)),
            "key": key,
        },
    )


def _path_of(requirement: str) -> str:
    """Where a member meeting `requirement` would be, below its package's directory."""
    from inwards_core.families.inw.shapes.shape_rules import split_pattern

    stem, is_package = split_pattern(requirement)
    if is_package:
        return f"{stem}/__init__.py"
    return requirement if is_package is False else f"{stem}.py"


_LAYERS_AND_SHAPE = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "application", modules = ["shop.application"] },
  { name = "infrastructure", modules = ["shop.infrastructure"] },
]

[[tool.inwards.shape]]
packages = ["shop.application"]
require = ["ports/", "service.py"]
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
            title="The application package lost its ports",
            good=False,
            config=_LAYERS_AND_SHAPE,
            files={
                **outer,
                "shop/application/__init__.py": '"""Use cases."""  # expect: INW008\n',
                "shop/application/service.py": "def place_order() -> None: ...\n",
                "shop/application/interfaces.py": "class Orders: ...\n",
            },
        ),
        Example(
            title="Every required member is there",
            good=True,
            config=_LAYERS_AND_SHAPE,
            files={
                **outer,
                "shop/application/__init__.py": "",
                "shop/application/service.py": "def place_order() -> None: ...\n",
                "shop/application/ports/__init__.py": "",
                "shop/application/ports/orders.py": "class Orders: ...\n",
            },
        ),
    )


KIND = CheckKind(
    id="inw.missing-member",
    summary="Shaped packages without a member their shape requires.",
    options_type=ScopedOptions,
    check=check,
    scope=Scope.PROJECT,
    applies=applies,
    guidance_params=GUIDANCE_PARAMS,
    docs=DOCS,
    examples=examples,
)
