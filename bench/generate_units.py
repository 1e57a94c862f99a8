"""A project of many independent units for the cost of `indirect = true` independence:
`estate.units.u00` ... (each a package of modules), and shared packages outside every unit
(`estate.shared.s00` ...) that the units import and that import some unit modules back, so
that chains run from nearly every unit to nearly every other through the shared code.

Deterministic: the same arguments write the same tree, byte for byte. Defaults: 10,000
modules, 60,000 import statements, 50 units (four fifths of the modules in the units).
An `.importlinter` beside the code holds one independence contract over the units, for
`lint-imports` and for `inwards import-config`.

usage: python bench/generate_units.py OUT [--modules N] [--imports N] [--units N] [--seed N]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = "estate"
UNIT_SHARE = 0.8  # of the modules, in the units
SHARED_PACKAGES = 40
# Where a unit module's imports go: its own unit, the shared code, another unit (directly).
UNIT_OWN, UNIT_SHARED = 0.72, 0.279
# Where a shared module's imports go: other shared code, else a unit module.
SHARED_SHARED = 0.97


def unit_names(units: int) -> list[str]:
    return [f"{ROOT}.units.u{index:02d}" for index in range(units)]


def _spread(total: int, parts: int) -> list[int]:
    base, extra = divmod(total, parts)
    return [base + (1 if index < extra else 0) for index in range(parts)]


def layout(modules: int, units: int) -> tuple[list[list[str]], list[str]]:
    """The modules of each unit and the shared modules (packages' `__init__` included)."""
    in_units = round(modules * UNIT_SHARE)
    unit_modules = [
        [name, *(f"{name}.m{i:03d}" for i in range(count - 1))]
        for name, count in zip(unit_names(units), _spread(in_units, units), strict=True)
    ]
    shared: list[str] = []
    packages = min(SHARED_PACKAGES, max(1, (modules - in_units) // 2))
    for index, count in enumerate(_spread(modules - in_units, packages)):
        package = f"{ROOT}.shared.s{index:02d}"
        shared.extend([package, *(f"{package}.m{i:03d}" for i in range(count - 1))])
    return unit_modules, shared


def imports_of(
    unit_modules: list[list[str]], shared: list[str], imports: int, seed: int
) -> dict[str, list[str]]:
    """Each module's imported modules, `imports` in all, drawn with `seed`."""
    chooser = random.Random(seed)
    everything = [m for unit in unit_modules for m in unit] + shared
    owner = {m: index for index, unit in enumerate(unit_modules) for m in unit}
    found: dict[str, list[str]] = {m: [] for m in everything}
    for _ in range(imports):
        importer = chooser.choice(everything)
        draw = chooser.random()
        unit = owner.get(importer)
        to_shared = draw < (SHARED_SHARED if unit is None else UNIT_OWN + UNIT_SHARED)
        if unit is not None and draw < UNIT_OWN:
            imported = chooser.choice(unit_modules[unit])
        elif to_shared:
            imported = chooser.choice(shared)
        else:
            imported = chooser.choice(chooser.choice(unit_modules))
        if imported != importer:
            found[importer].append(imported)
    return found


def write(out: Path, modules: int, imports: int, units: int, seed: int) -> int:
    """Writes the project under `out`; returns the number of modules written."""
    unit_modules, shared = layout(modules, units)
    found = imports_of(unit_modules, shared, imports, seed)
    packages = {ROOT, f"{ROOT}.units", f"{ROOT}.shared"}
    packages.update(unit[0] for unit in unit_modules)
    packages.update(m for m in shared if m.count(".") == 2)
    for package in sorted(packages):
        folder = out.joinpath(*package.split("."))
        folder.mkdir(parents=True, exist_ok=True)
    for module, imported in found.items():
        parts = module.split(".")
        path = out.joinpath(*parts, "__init__.py") if module in packages else None
        path = path or out.joinpath(*parts[:-1], parts[-1] + ".py")
        lines = [f"import {name}" for name in imported]
        path.write_text("\n".join([*lines, "", "VALUE = 1", ""]), encoding="utf-8")
    for package in (ROOT, f"{ROOT}.units", f"{ROOT}.shared"):
        init = out.joinpath(*package.split("."), "__init__.py")
        if not init.exists():
            init.write_text("", encoding="utf-8")
    contract = "\n".join(
        [
            "[importlinter]",
            f"root_package = {ROOT}",
            "",
            "[importlinter:contract:units]",
            "name = Units are independent",
            "type = independence",
            "modules =",
            *(f"    {name}" for name in unit_names(units)),
            "",
        ]
    )
    (out / ".importlinter").write_text(contract, encoding="utf-8")
    (out / "pyproject.toml").write_text('[project]\nname = "estate"\n', encoding="utf-8")
    return len(found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--modules", type=int, default=10_000)
    parser.add_argument("--imports", type=int, default=60_000)
    parser.add_argument("--units", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        print(f"{args.out} is not empty", file=sys.stderr)
        return 2
    written = write(args.out, args.modules, args.imports, args.units, args.seed)
    print(f"{args.out}: {written} modules, {args.units} units")
    return 0


if __name__ == "__main__":
    sys.exit(main())
