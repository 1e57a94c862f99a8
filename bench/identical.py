"""Proof that a change of structure changed no behaviour: every output of two builds of
inwards on the same trees, byte for byte (durations aside).

``record`` runs one build's ``inwards`` on each project, in a fresh copy per build, and
writes what each command printed (stdout, stderr, exit code) to a folder: every format of a
whole-project check without the cache, with it (a cold run, then a warm one the memo
answers), a one-file check, ``--explain``, ``status``, ``rules``, and ``diagram``. ``compare``
lists every difference between two such folders and exits 1 on any.

The projects: the bundled examples, the synthetic project with its five plants
(``generate.py --violations``), its contexts-and-cycles variant, and, where the corpora are
(``INWARDS_CORPORA``, default /work/corpora), Django and sympy with the layerings
``bench/run.py`` times, every opt-in rule on for Django, and the projects that ship
import-linter contracts converted by ``inwards import-config``.

usage: python bench/identical.py record --inwards PATH/bin/inwards OUT
       python bench/identical.py compare BEFORE AFTER
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpora

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("text", "concise", "json", "sarif", "github")
# What differs between two runs of one build: how long they took, and where they ran.
DURATION = re.compile(rb"\d+(?:\.\d+)? ?ms\b|\"duration_?[mM]s\": ?[0-9.]+")
# ... and which virtualenv and scratch folder they ran from.
SITE_PACKAGES = re.compile(rb"/[^\s\"']*/lib/python3\.\d+/site-packages/")
SCRATCH = re.compile(rb"/tmp/tmp[^/\s\"']+/")
CONTRACT_PROJECTS = ("import-linter-2.16", "kedro-1.7.0", "dfetch-0.14.4", "usethis-0.22.0")


def projects(corpus_dir: Path, scratch: Path) -> Iterator[tuple[str, Path, str]]:
    """(name, directory, one module path) of every project checked that is there."""
    for name, source, one_file in _candidates(corpus_dir, scratch):
        if source is not None and source.is_dir():
            yield name, source, one_file


def _candidates(corpus_dir: Path, scratch: Path) -> Iterator[tuple[str, Path | None, str]]:
    for name, one in (
        ("shop", "src/shop/domain/order.py"),
        ("shop-violations", "src/shop/domain/discounts.py"),
        ("workspace", ""),
    ):
        yield f"example-{name}", REPO / "examples" / name, one
    corpora.OUT_DIR = scratch  # prepared projects go to the scratch folder, not bench/out
    synthetic = corpora.prepare_synthetic(None, 2_000)
    yield "synthetic", synthetic.source, synthetic.one_file
    contexts = corpora.prepare_synthetic_contexts(synthetic)
    yield "synthetic-contexts", contexts.source, contexts.one_file
    everything = corpora.OptIn(corpora.OPTIN_CODES, diagrams_key=True)
    optin = corpora.prepare_optin(
        synthetic, corpora.SYNTHETIC_OPTIN, everything, corpora.SYNTHETIC_OPTIN_LAYOUT
    )
    yield "synthetic-optin", optin.source, optin.one_file
    if (corpus_dir / corpora.DJANGO_CORPUS).is_dir():
        django = corpora.prepare_django(corpus_dir / corpora.DJANGO_CORPUS)
        yield "django", django.source, django.one_file
        optin = corpora.prepare_optin(
            django, corpora.DJANGO_OPTIN, everything, corpora.DJANGO_OPTIN_LAYOUT
        )
        yield "django-optin", optin.source, optin.one_file
    sympy = corpora.SYMPY_PACKAGE
    if (corpus_dir / sympy.corpus).is_dir():
        prepared = corpora.prepare_real(sympy, corpus_dir / sympy.corpus)
        yield sympy.key, prepared.source, prepared.one_file
    for name in CONTRACT_PROJECTS:
        source = corpus_dir / "contracts" / name
        if source.is_dir():
            yield f"contracts-{name}", source, ""


def commands(one_file: str) -> Iterator[tuple[str, list[str]]]:
    for name in FORMATS:
        yield f"check-no-cache-{name}", ["check", "--no-cache", "--format", name]
    yield "check-cold-json", ["check", "--format", "json"]
    yield "check-warm-json", ["check", "--format", "json"]
    yield "check-warm-text", ["check"]
    yield "check-full-parse", ["check", "--no-cache", "--full-parse", "--format", "concise"]
    if one_file:
        yield "check-one-file", ["check", "--no-cache", one_file, "--format", "json"]
        yield "check-one-file-text", ["check", one_file]
    yield "check-explain", ["check", "--no-cache", "--explain", "INW001", "--format", "json"]
    yield "status", ["status", "--json"]
    yield "rules", ["rules", "--json"]
    yield "diagram", ["diagram"]


def record(inwards: Path, out: Path) -> int:
    corpus_dir = corpora.DEFAULT_CORPORA
    environment = {**os.environ, "NO_COLOR": "1"}
    environment.pop("INWARDS_NO_CACHE", None)
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        environment["XDG_CONFIG_HOME"] = str(scratch / "no-user-config")
        for name, source, one_file in projects(corpus_dir, scratch):
            if (out / name / "diagram.txt").is_file():
                continue  # recorded by an earlier run into the same folder
            work = scratch / "work" / name
            shutil.copytree(source, work, symlinks=True, ignore=shutil.ignore_patterns(".inwards"))
            if name.startswith("contracts-"):
                if (source / ".inwards").is_dir():
                    shutil.copytree(source / ".inwards", work / ".inwards")
                run(inwards, ["import-config", "--force"], work, environment)
            for command, argv in commands(one_file):
                result = run(inwards, argv, work, environment)
                target = out / name / f"{command}.txt"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(result)
            print(f"recorded {name}", file=sys.stderr)
    return 0


def run(inwards: Path, argv: Sequence[str], where: Path, environment: dict[str, str]) -> bytes:
    done = subprocess.run(
        [str(inwards), *argv], cwd=where, env=environment, capture_output=True, timeout=600
    )
    text = b"exit %d\n-- stdout\n%s\n-- stderr\n%s" % (done.returncode, done.stdout, done.stderr)
    return normalised(text.replace(str(where).encode(), b"<project>"))


def normalised(text: bytes) -> bytes:
    text = SITE_PACKAGES.sub(b"<site-packages>/", text)
    return DURATION.sub(b"<duration>", SCRATCH.sub(b"<scratch>/", text))


def compare(before: Path, after: Path) -> int:
    names = sorted(
        {path.relative_to(before) for path in before.rglob("*.txt")}
        | {path.relative_to(after) for path in after.rglob("*.txt")}
    )
    differ = 0
    for name in names:
        old, new = before / name, after / name
        if not old.exists() or not new.exists():
            print(f"{name}: only in {'after' if not old.exists() else 'before'}")
            differ += 1
            continue
        if normalised(old.read_bytes()) != normalised(new.read_bytes()):
            differ += 1
            lines = difflib.unified_diff(
                old.read_text(errors="replace").splitlines(),
                new.read_text(errors="replace").splitlines(),
                str(old),
                str(new),
                lineterm="",
                n=1,
            )
            print("\n".join(line[:300] for line in list(lines)[:30]))
    print(f"{len(names)} outputs compared, {differ} differ")
    return 1 if differ else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    verbs = parser.add_subparsers(dest="verb", required=True)
    recording = verbs.add_parser("record")
    recording.add_argument("--inwards", type=Path, required=True)
    recording.add_argument("out", type=Path)
    comparing = verbs.add_parser("compare")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    arguments = parser.parse_args(argv)
    if arguments.verb == "record":
        return record(arguments.inwards, arguments.out)
    return compare(arguments.before, arguments.after)


if __name__ == "__main__":
    raise SystemExit(main())
