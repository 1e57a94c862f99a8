"""The projects bench/run.py times: generated ones and real ones, each with a layering that
ours, the reference 0.7.0 and import-linter all read.

A prepared project lives under ``bench/out/`` (git ignores it); each tool then gets its own
copy of it (``working_copy``), since ours and the reference both keep their cache in
``.inwards/``.
"""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs
import generate  # sits next to this script; bench/ is not a package

BENCH_DIR = Path(__file__).resolve().parent
OUT_DIR = BENCH_DIR / "out"
DEFAULT_CORPORA = Path(os.environ.get("INWARDS_CORPORA") or "/work/corpora")
DJANGO_CORPUS = Path("big") / "django-6.1.3"
SYMPY_CORPUS = Path("big") / "sympy-1.14.0"
GET_CORPORA_HINT = "bash ../shared/bench/get-corpora.sh DIR big (from the repository root)"

SYNTHETIC, SYNTHETIC_CONTEXTS, SYNTHETIC_LARGE = "synthetic", "synthetic-contexts", "synthetic-9000"
DJANGO, SYMPY = "django", "sympy"
SYNTHETIC_OPTIN, DJANGO_OPTIN = "synthetic-optin", "django-optin"
OPTIN_BASES = {SYNTHETIC_OPTIN: SYNTHETIC, DJANGO_OPTIN: DJANGO}  # variant: the default run
OPTIN_CODES = tuple(f"INW0{number}" for number in range(12, 20))  # issue 13's opt-in rules
DIAGRAM_CODES = ("INW017", "INW018", "INW019")
DIAGRAM_FILE = "docs/architecture.md"  # the marked layers diagram of an opt-in variant
LARGE_MODULES = 9_000  # about the size of homeassistant's core package


@attrs.frozen
class Corpus:
    """A prepared project: a directory with both tools' configs, ready to be copied per tool."""

    key: str
    source: Path | None
    python_root: str  # directory (relative to the project) that import-linter needs on sys.path
    one_file: str  # a module path relative to the project, for one-file runs
    description: str
    unavailable: str = ""


@attrs.frozen
class RealPackage:
    """A real package given two layers: one subpackage above all the other top-level entries."""

    key: str
    corpus: Path  # relative to the corpora directory
    package: str  # the top-level package, a directory of the corpus
    outer: str  # the subpackage above the rest
    one_file: str  # a clean module (in the outer layer), relative to the project


DJANGO_PACKAGE = RealPackage(
    DJANGO, DJANGO_CORPUS, "django", "contrib", "django/contrib/admin/options.py"
)
# The peers study's layering of sympy: sympy.physics above the 44 other top-level entries.
SYMPY_PACKAGE = RealPackage(
    SYMPY, SYMPY_CORPUS, "sympy", "physics", "sympy/physics/units/quantities.py"
)


def prepare_synthetic(
    source: Path | None, modules: int, key: str = SYNTHETIC, out: Path | None = None
) -> Corpus:
    """A generated project (with its five planted violations), written when ``source`` is
    None and ``out`` doesn't already hold one of that size."""
    if source is None:
        source = out or OUT_DIR / key
        if not (source / generate.MARKER).is_file() or not _generated_size_is(source, modules):
            generate.generate(source, modules, violations=True)
    if not (source / "pyproject.toml").is_file() or not (source / ".importlinter").is_file():
        return Corpus(
            key,
            None,
            "src",
            "",
            "",
            unavailable=f"{source} has no pyproject.toml/.importlinter (run bench/generate.py)",
        )
    layout = generate.layout(modules)
    one_file = layout[-1].path  # the last api module: clean, and it imports from every layer
    if not (source / one_file).is_file():
        one_file = next(str(p.relative_to(source)) for p in sorted(source.rglob("m*.py")))
    description = f"synthetic, {count_python(source)} files"
    return Corpus(key, source, "src", one_file, description)


def prepare_synthetic_contexts(synthetic: Corpus) -> Corpus:
    """The synthetic project with contexts and both kinds of cycles on top of its layers:
    what INW002-INW004 cost against the layers-only run."""
    if synthetic.source is None:
        return attrs.evolve(synthetic, key=SYNTHETIC_CONTEXTS)
    source = OUT_DIR / SYNTHETIC_CONTEXTS
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(
        synthetic.source, source, ignore=shutil.ignore_patterns("__pycache__", ".inwards")
    )
    pyproject = source / "pyproject.toml"
    variant = generate.contexts_variant(pyproject.read_text(encoding="utf-8"))
    pyproject.write_text(variant, encoding="utf-8")
    description = f"{synthetic.description}, as contexts with cycles"
    return attrs.evolve(synthetic, key=SYNTHETIC_CONTEXTS, source=source, description=description)


def _generated_size_is(source: Path, modules: int) -> bool:
    text = (source / "pyproject.toml").read_text(encoding="utf-8")
    return f", {modules} modules)" in text.splitlines()[0] and "Planted violations" in text


def count_python(directory: Path) -> int:
    return sum(1 for _ in directory.rglob("*.py"))


def outer_layering(package: Path, outer: str) -> tuple[list[str], list[str]]:
    """Peers' "clean" layering: ``package.outer`` above every other top-level entry of the
    package (subpackages and modules, in name order), which may import each other."""
    top = package.name
    inner: list[str] = []
    for entry in sorted(package.iterdir()):
        if entry.name == outer or entry.name.startswith(("_", ".")):
            continue
        if entry.is_dir() and (entry / "__init__.py").is_file():
            inner.append(f"{top}.{entry.name}")
        elif entry.suffix == ".py":
            inner.append(f"{top}.{entry.stem}")
    return inner, [f"{top}.{outer}"]


def django_layering(package: Path) -> tuple[list[str], list[str]]:
    """Django's layering: django.contrib above every other top-level entry of django."""
    return outer_layering(package, DJANGO_PACKAGE.outer)


def _toml_list(names: Iterable[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def two_layer_configs(
    root_package: str, inner: Sequence[str], outer: Sequence[str]
) -> tuple[str, str]:
    """(pyproject.toml, .importlinter) texts for the same two-layer layering: ``outer`` above
    ``inner``; the entries of a layer may import each other."""
    above = ", ".join(name.rsplit(".", 1)[-1] for name in outer)
    pyproject = (
        f"# {root_package} with two layers: {above} above the rest (bench/corpora.py).\n"
        "[tool.inwards]\n"
        'root = "."\n'
        "layers = [\n"
        f'  {{ name = "framework", modules = [{_toml_list(inner)}] }},\n'
        f'  {{ name = "{above}", modules = [{_toml_list(outer)}] }},\n'
        "]\n"
    )
    importlinter = (
        "# The same layering for import-linter: outermost first, ':' joins siblings that may\n"
        "# import each other.\n"
        "[importlinter]\n"
        f"root_package = {root_package}\n"
        "\n"
        "[importlinter:contract:clean]\n"
        f"name = {root_package} {above} above the rest\n"
        "type = layers\n"
        "layers =\n"
        f"    {' : '.join(outer)}\n"
        f"    {' : '.join(inner)}\n"
    )
    return pyproject, importlinter


def django_configs(inner: Sequence[str], outer: Sequence[str]) -> tuple[str, str]:
    return two_layer_configs("django", inner, outer)


def prepare_real(real: RealPackage, corpus_dir: Path) -> Corpus:
    """Copy a real package to ``bench/out/<key>/`` and write its two-layer configs there.
    ``corpus_dir`` is the unpacked distribution (holding the package) or the package."""
    package = corpus_dir / real.package
    if not (package / "__init__.py").is_file() and corpus_dir.name == real.package:
        package = corpus_dir
    if not (package / "__init__.py").is_file():
        return Corpus(
            real.key,
            None,
            ".",
            "",
            "",
            unavailable=f"no {real.package} package in {corpus_dir}; "
            f"get it with {GET_CORPORA_HINT}",
        )
    source = OUT_DIR / real.key
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(package, source / real.package, ignore=shutil.ignore_patterns("__pycache__"))
    inner, outer = outer_layering(source / real.package, real.outer)
    pyproject, importlinter = two_layer_configs(real.package, inner, outer)
    (source / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (source / ".importlinter").write_text(importlinter, encoding="utf-8")
    description = f"{package.parent.name}, {count_python(source)} files"
    return Corpus(real.key, source, ".", real.one_file, description)


def prepare_django(corpus_dir: Path) -> Corpus:
    return prepare_real(DJANGO_PACKAGE, corpus_dir)


@attrs.frozen
class OptIn:
    """What the inwards being timed offers for an opt-in variant: which of issue 13's rules
    it has (only those are turned on) and whether it knows the ``diagrams`` key."""

    codes: tuple[str, ...]
    diagrams_key: bool

    @property
    def diagrams(self) -> bool:
        return self.diagrams_key and any(code in DIAGRAM_CODES for code in self.codes)


@attrs.frozen
class OptInLayout:
    """The parts of an opt-in variant's configuration that depend on the project."""

    layers: tuple[str, ...]  # layer names, innermost first (the diagram's nodes)
    role: tuple[str, ...]  # INW015 construct-only-in
    allowed_in: tuple[str, ...]


SYNTHETIC_OPTIN_LAYOUT = OptInLayout(
    generate.LAYERS, (f"{generate.PACKAGE}.infrastructure",), (f"{generate.PACKAGE}.api",)
)
DJANGO_OPTIN_LAYOUT = OptInLayout(
    ("framework", DJANGO_PACKAGE.outer),
    tuple(f"django.db.backends.{name}" for name in ("postgresql", "sqlite3", "mysql", "oracle")),
    ("django.db.backends", "django.contrib.gis.db.backends"),
)


def layers_diagram(layers: Sequence[str]) -> str:
    """A Markdown page with a marked Mermaid layers diagram: each layer may import the next
    inner one (a path of arrows covers every inward import)."""
    arrows = [f"    {outer} --> {inner}" for inner, outer in itertools.pairwise(layers)]
    return "\n".join(
        [
            "# Architecture",
            "",
            "The layers, outermost at the top (written by bench/corpora.py).",
            "",
            "```mermaid",
            "%% inwards: layers",
            "flowchart TD",
            *reversed(arrows),
            "```",
            "",
        ]
    )


def optin_pyproject(pyproject: str, optin: OptIn, layout: OptInLayout) -> str:
    """The default run's configuration with every opt-in rule ``optin`` has turned on at its
    default options; INW015 gets the role it requires and the diagram rules a diagram. The
    base text ends inside ``[tool.inwards]`` (after ``layers``), so keys can follow it."""
    lines = [pyproject.rstrip("\n")]
    if optin.diagrams:
        lines.append(f'diagrams = ["{DIAGRAM_FILE}"]')
    lines += ["", "[tool.inwards.rules]", f"extend-select = [{_toml_list(optin.codes)}]"]
    if "INW015" in optin.codes:
        lines += [
            "",
            "[tool.inwards.rules.construct-only-in]",
            f"role = [{_toml_list(layout.role)}]",
            f"allowed-in = [{_toml_list(layout.allowed_in)}]",
        ]
    return "\n".join(lines) + "\n"


def prepare_optin(base: Corpus, key: str, optin: OptIn | None, layout: OptInLayout) -> Corpus:
    """A copy of a prepared corpus with every opt-in rule of issue 13 on (``optin`` None: the
    inwards being timed could not say which it has)."""
    if base.source is None or optin is None:
        why = base.unavailable or "could not list the rules of the inwards being timed"
        return attrs.evolve(base, key=key, source=None, unavailable=why)
    if not optin.codes:
        return attrs.evolve(
            base,
            key=key,
            source=None,
            unavailable=f"the inwards being timed has none of {', '.join(OPTIN_CODES)}",
        )
    source = OUT_DIR / key
    if source.exists():
        shutil.rmtree(source)
    shutil.copytree(base.source, source, ignore=shutil.ignore_patterns("__pycache__", ".inwards"))
    pyproject = source / "pyproject.toml"
    text = optin_pyproject(pyproject.read_text(encoding="utf-8"), optin, layout)
    pyproject.write_text(text, encoding="utf-8")
    if optin.diagrams:
        (source / DIAGRAM_FILE).parent.mkdir(parents=True, exist_ok=True)
        (source / DIAGRAM_FILE).write_text(layers_diagram(layout.layers), encoding="utf-8")
    rules = ", ".join(optin.codes)
    description = f"{base.description}, with {rules} on"
    return attrs.evolve(base, key=key, source=source, description=description)


def working_copy(corpus: Corpus, tool: str) -> Path:
    """A fresh copy of the corpus for one tool, so no tool reads another's cache."""
    assert corpus.source is not None
    destination = OUT_DIR / "work" / corpus.key / tool
    if destination.exists():
        shutil.rmtree(destination)
    shutil.copytree(
        corpus.source,
        destination,
        ignore=shutil.ignore_patterns("__pycache__", ".inwards", ".import_linter_cache"),
    )
    return destination
