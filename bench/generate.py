"""Generate a synthetic layered project for benchmarking architecture linters.

The tree is the same on every run (``random.Random(1)``): a package ``shop`` under ``src/`` with
four layers, innermost first ``domain``, ``application``, ``infrastructure``, ``api``; by default
25 packages per layer and 20 modules per package (2,000 modules, about half a million lines).
Every module imports two stdlib modules and eight functions of modules in its own or an inner
layer, so the clean tree has no violation. ``--violations`` plants exactly five, listed in a
comment of the generated ``pyproject.toml``. The same layering is written for import-linter in
``.importlinter``.

usage: python bench/generate.py [OUT] [--modules N] [--violations]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import attrs

SEED = 1
PACKAGE = "shop"
LAYERS = ("domain", "application", "infrastructure", "api")  # innermost first
PACKAGES_PER_LAYER = 25
DEFAULT_MODULES = 2_000
FIRST_PARTY_IMPORTS = 8
FUNCTIONS = 40
MARKER = ".inwards-bench-generated"
DEFAULT_OUT = Path(__file__).resolve().parent / "out" / "synthetic"

# Harmless stdlib modules: none of them is on the reference's default deny list, so a clean
# tree stays clean for every tool.
STDLIB = (
    "bisect",
    "collections",
    "dataclasses",
    "datetime",
    "decimal",
    "enum",
    "fractions",
    "functools",
    "heapq",
    "itertools",
    "json",
    "math",
    "operator",
    "os",
    "pathlib",
    "re",
    "statistics",
    "string",
    "textwrap",
    "typing",
)


@attrs.frozen
class Module:
    """One generated module: its layer index and dotted name."""

    layer: int
    package: int
    index: int

    @property
    def name(self) -> str:
        return f"{PACKAGE}.{LAYERS[self.layer]}.p{self.package}.m{self.index}"

    @property
    def path(self) -> str:
        return f"src/{self.name.replace('.', '/')}.py"


@attrs.frozen
class PlantedViolation:
    """A violation the generator put in on purpose, with where it is and who should see it."""

    path: str
    line: int
    code: str
    description: str


@attrs.frozen
class GeneratedProject:
    """What :func:`generate` wrote."""

    out: Path
    modules: int
    files: int
    lines: int
    size_bytes: int
    planted: tuple[PlantedViolation, ...]
    sample_module: str  # a clean module path, relative to ``out``, for one-file checks


def layout(total_modules: int) -> list[Module]:
    """Spread ``total_modules`` over the four layers as evenly as the grid allows.

    With the default 2,000 this is exactly 4 layers x 25 packages x 20 modules.
    """
    if total_modules < len(LAYERS) * 2:
        raise ValueError(f"--modules must be at least {len(LAYERS) * 2}, got {total_modules}")
    modules: list[Module] = []
    for layer in range(len(LAYERS)):
        in_layer = total_modules // len(LAYERS) + (1 if layer < total_modules % len(LAYERS) else 0)
        packages = min(PACKAGES_PER_LAYER, in_layer)
        for package in range(packages):
            in_package = in_layer // packages + (1 if package < in_layer % packages else 0)
            modules.extend(Module(layer, package, index) for index in range(in_package))
    return modules


def _function(number: int) -> list[str]:
    return [
        f"def f{number}(value: int) -> int:",
        f'    """Step {number} of a made-up calculation."""',
        f"    scaled = value * {number % 7 + 2}",
        f"    shifted = scaled + {number}",
        "    return shifted - value",
        "",
    ]


def _module_lines(module: Module, rng: random.Random, candidates: Sequence[Module]) -> list[str]:
    lines = [f'"""Synthetic module {module.name}, written by bench/generate.py."""', ""]
    lines.extend(f"import {name}" for name in sorted(rng.sample(STDLIB, 2)))
    # Sample one more than needed so dropping the module itself still leaves enough.
    wanted = min(FIRST_PARTY_IMPORTS + 1, len(candidates))
    targets = [target for target in rng.sample(candidates, wanted) if target != module]
    for position, target in enumerate(targets[:FIRST_PARTY_IMPORTS]):
        function = rng.randint(1, FUNCTIONS)
        lines.append(f"from {target.name} import f{function} as dep{position}_f{function}")
    lines.extend(["", ""])
    for number in range(1, FUNCTIONS + 1):
        lines.extend(_function(number))
    return lines


def _pick(modules: Sequence[Module], layer: int, nth: int) -> Module:
    in_layer = [module for module in modules if module.layer == layer]
    return in_layer[nth % len(in_layer)]


def _last_import_line(lines: Sequence[str]) -> int:
    """Index of the last top-level import line, so a planted import joins the block."""
    return max(i for i, line in enumerate(lines) if line.startswith(("import ", "from ")))


def _plant(
    modules: Sequence[Module], contents: dict[Module, list[str]]
) -> tuple[PlantedViolation, ...]:
    """Add the five violations to already generated module texts (no randomness used)."""
    domain, application, infrastructure, api = range(len(LAYERS))
    planted: list[PlantedViolation] = []

    def add_import(module: Module, statement: str, code: str, description: str) -> None:
        lines = contents[module]
        at = _last_import_line(lines) + 1
        lines.insert(at, statement)
        planted.append(PlantedViolation(module.path, at + 1, code, description))

    outer = _pick(modules, api, 0)
    module = _pick(modules, domain, 1)
    add_import(
        module,
        f"from {outer.name} import f1 as outward_f1",
        "INW001",
        f"domain imports {outer.name} (api)",
    )

    outer = _pick(modules, infrastructure, 1)
    module = _pick(modules, application, 2)
    add_import(
        module,
        f"from {outer.name} import f2 as outward_f2",
        "INW001",
        f"application imports {outer.name} (infrastructure)",
    )

    outer = _pick(modules, api, 2)
    module = _pick(modules, infrastructure, 3)
    lines = contents[module]
    lines.extend(
        [
            "def lazy_dependency() -> object:",
            f"    from {outer.name} import f3 as late_f3",
            "",
            "    return late_f3",
            "",
        ]
    )
    planted.append(
        PlantedViolation(
            module.path,
            len(lines) - 3,
            "INW001",
            f"infrastructure imports {outer.name} (api) inside a function",
        )
    )

    module = _pick(modules, domain, 4)
    add_import(module, "import requests", "INW005", "domain imports the library requests")

    inner = _pick(modules, domain, 0)
    missing = inner.name.rsplit(".", 1)[0] + ".ghost"
    module = _pick(modules, application, 5)
    add_import(
        module,
        f"from {missing} import f1 as ghost_f1",
        "INW010",
        f"application imports {missing}, which does not exist",
    )
    return tuple(planted)


def _pyproject(total_modules: int, planted: Sequence[PlantedViolation]) -> str:
    lines = [
        f"# Synthetic layered project written by bench/generate.py (seed {SEED}, "
        f"{total_modules} modules).",
    ]
    if planted:
        lines.append(f"# Planted violations ({len(planted)}), path:line code description:")
        lines.extend(f"#   {v.path}:{v.line} {v.code} {v.description}" for v in planted)
    else:
        lines.append("# No planted violations: every import points to the same or an inner layer.")
    lines += [
        "",
        "[project]",
        f'name = "{PACKAGE}"',
        'version = "0.0.0"',
        "",
        "[tool.inwards]",
        'root = "src"',
        "layers = [",
    ]
    lines.extend(f'  {{ name = "{layer}", modules = ["{PACKAGE}.{layer}"] }},' for layer in LAYERS)
    lines += ["]", ""]
    return "\n".join(lines)


def contexts_variant(pyproject: str) -> str:
    """The same project as bounded contexts too: each layer's package is a context that may
    depend on the inner ones, with every module public, and cycles of modules and of
    contexts looked for (bench/run.py's `synthetic-contexts`, against the layers alone)."""
    lines = [pyproject.rstrip("\n"), 'cycles = ["modules", "contexts"]', ""]
    for number, layer in enumerate(LAYERS):
        inner = ", ".join(f'"{name}"' for name in LAYERS[:number])
        lines += [
            "[[tool.inwards.contexts]]",
            f'name = "{layer}"',
            f'modules = ["{PACKAGE}.{layer}"]',
            f'public = ["{PACKAGE}.{layer}"]',
            f"depends-on = [{inner}]",
            "",
        ]
    return "\n".join(lines)


def _importlinter() -> str:
    layers = "\n".join(f"    {PACKAGE}.{layer}" for layer in reversed(LAYERS))
    return (
        "# The layering of pyproject.toml's [tool.inwards] for import-linter (outermost first).\n"
        "[importlinter]\n"
        f"root_package = {PACKAGE}\n"
        "\n"
        "[importlinter:contract:layers]\n"
        f"name = {PACKAGE} layers\n"
        "type = layers\n"
        "layers =\n"
        f"{layers}\n"
    )


def _clear(out: Path) -> None:
    """Empty ``out`` if it is a tree this script wrote; refuse to touch anything else."""
    if not out.exists():
        return
    if not (out / MARKER).is_file():
        if any(out.iterdir()):
            raise SystemExit(
                f"{out} exists and was not written by bench/generate.py; "
                "choose an empty or new directory."
            )
        return
    shutil.rmtree(out)


def generate(
    out: Path, total_modules: int = DEFAULT_MODULES, violations: bool = False
) -> GeneratedProject:
    """Write the synthetic project to ``out`` (replacing an earlier generated tree there)."""
    modules = layout(total_modules)
    rng = random.Random(SEED)
    by_layer = [[m for m in modules if m.layer <= layer] for layer in range(len(LAYERS))]
    contents = {module: _module_lines(module, rng, by_layer[module.layer]) for module in modules}
    planted = _plant(modules, contents) if violations else ()

    _clear(out)
    texts: dict[str, str] = {
        "pyproject.toml": _pyproject(total_modules, planted),
        ".importlinter": _importlinter(),
        MARKER: "Written by bench/generate.py; the next run may delete this directory.\n",
        f"src/{PACKAGE}/__init__.py": f'"""Synthetic package {PACKAGE}."""\n',
    }
    for layer in LAYERS:
        texts[f"src/{PACKAGE}/{layer}/__init__.py"] = f'"""Layer {layer}."""\n'
    for module in modules:
        package_dir = f"src/{PACKAGE}/{LAYERS[module.layer]}/p{module.package}"
        texts.setdefault(f"{package_dir}/__init__.py", f'"""Package p{module.package}."""\n')
        texts[module.path] = "\n".join(contents[module]).rstrip("\n") + "\n"

    size = 0
    lines = 0
    python_files = 0
    for relative, text in texts.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode()
        path.write_bytes(data)
        if relative.endswith(".py"):
            python_files += 1
            size += len(data)
            lines += text.count("\n")
    sample = _pick(modules, LAYERS.index("api"), len(modules) // len(LAYERS) - 1)
    return GeneratedProject(
        out=out,
        modules=len(modules),
        files=python_files,
        lines=lines,
        size_bytes=size,
        planted=planted,
        sample_module=sample.path,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "out",
        nargs="?",
        type=Path,
        default=DEFAULT_OUT,
        help=f"directory to write (default: {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--modules",
        type=int,
        default=DEFAULT_MODULES,
        help=f"number of modules (default: {DEFAULT_MODULES})",
    )
    parser.add_argument("--violations", action="store_true", help="plant exactly five violations")
    args = parser.parse_args(argv)
    try:
        project = generate(args.out, args.modules, args.violations)
    except ValueError as error:
        parser.error(str(error))
    out = project.out
    print(
        f"Wrote {project.files} Python files ({project.modules} modules), {project.lines:,} lines,"
    )
    print(f"{project.size_bytes / 1e6:.1f} MB, to {out}/src/{PACKAGE}")
    print(f"  config for inwards:       {out}/pyproject.toml")
    print(f"  config for import-linter: {out}/.importlinter")
    print(f"  module for one-file runs: {out}/{project.sample_module}")
    if project.planted:
        print(f"Planted {len(project.planted)} violations:")
        for violation in project.planted:
            print(f"  {violation.path}:{violation.line} {violation.code} {violation.description}")
    else:
        print("No planted violations (use --violations for five).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
