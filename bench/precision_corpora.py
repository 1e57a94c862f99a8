"""Run opt-in rules on the precision corpora: copies of real code with a configuration each.

Issue 13 measures its opt-in rules on code nobody here wrote (FastAPI's ``docs_src/`` and
``tests/``, fastapi-users, Django). The corpora are shared and read-only, so each one is
copied to ``bench/out/precision/<corpus>/`` (only the packages its configuration names, and
again only when the copy is missing or stale), given a ``pyproject.toml`` built from
``bench/precision/<corpus>.toml``, and checked there with the installed ``inwards check
--format json --no-cache --select CODE``, one run per rule, each document written to
``bench/out/precision/<corpus>.<CODE>.json`` for ``bench/precision.py sample``. A document
keeps that rule's diagnostics only: the others are the warnings that the corpus's other rule
tables do nothing in a run of one rule, which would pass for those rules' findings.

A corpus configuration holds a ``[corpus]`` table (``source``: the unpacked distribution
below the corpora directory; ``copy``: the directories or files copied from it;
``layers-from = "django"``: take the layers from ``bench/corpora.py``'s django_layering) and
the ``[tool.inwards]`` table of the copy. Its ``[tool.inwards.rules] extend-select`` lists
the rules measured on that corpus: a rule not listed there is not run on it. When
``bench/precision/diagrams/<corpus>.md`` exists it is copied to ``architecture.md`` and
named by ``diagrams`` (once the installed inwards has that key).

The configurations are written for the finished rules; while a rule is missing or has fewer
options, the table of a rule the installed inwards doesn't list, an option its check kind
doesn't take, and a top-level key it doesn't know are left out of the written
``pyproject.toml`` and named on standard error, so a run never fails on them.

usage: python bench/precision_corpora.py run --rule CODE [--rule CODE ...]
           [--corpus NAME ...] [--inwards PATH] [--corpora-dir DIR]
       python bench/precision_corpora.py prepare [--corpus NAME ...] (copies and configs only)
Exit status: 0 when every run finished (0 or 1 from inwards), 1 when one failed, 2 on bad
usage.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
# corpora.py sits next to this script; bench/ is a folder of scripts, not a package.
import corpora as corpora_module

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
CONFIG_DIR = BENCH_DIR / "precision"
DIAGRAMS_DIR = CONFIG_DIR / "diagrams"
OUT_DIR = corpora_module.OUT_DIR / "precision"
CORPORA = ("fastapi-docs_src", "fastapi-tests", "fastapi-users", "django")
DIAGRAM_NAME = "architecture.md"  # where a corpus's diagram lands in its copy
STAMP = ".precision-copy.json"  # what a copy was made from, to tell a stale one
LAYERS_FROM = {"django": corpora_module.django_layering}
ACCEPTED_EXITS = (0, 1)  # clean or warnings only, errors found
_CODE = re.compile(r"[A-Za-z]{2,6}[0-9]{3}")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class PrecisionRunError(Exception):
    """A configuration or an installed inwards this script cannot use."""


@attrs.frozen
class CorpusConfig:
    """One ``bench/precision/<corpus>.toml``."""

    name: str
    source: str  # relative to the corpora directory
    copy: tuple[str, ...]
    layers_from: str
    tool: Mapping[str, Any] = attrs.field(eq=False)  # the [tool.inwards] table

    @property
    def selected(self) -> tuple[str, ...]:
        """The rules measured on this corpus (its ``extend-select``), upper-cased."""
        rules = self.tool.get("rules", {})
        return tuple(code.upper() for code in rules.get("extend-select", []))


@attrs.frozen
class Rule:
    code: str
    name: str
    kind: str
    default: str


@attrs.frozen
class Installed:
    """What the installed inwards knows: its rules, each check kind's options, its keys."""

    rules: tuple[Rule, ...]
    kind_options: Mapping[str, frozenset[str]] = attrs.field(eq=False)
    top_keys: frozenset[str]

    def rule(self, name_or_code: str) -> Rule | None:
        wanted = name_or_code.lower()
        return next((r for r in self.rules if wanted in (r.code.lower(), r.name.lower())), None)

    def has(self, code: str) -> bool:
        return self.rule(code) is not None


@attrs.frozen
class Written:
    """The ``[tool.inwards]`` table written for a corpus, and what was left out of it."""

    tool: Mapping[str, Any] = attrs.field(eq=False)
    left_out: tuple[str, ...]


@attrs.frozen
class RunOutcome:
    corpus: str
    code: str
    status: str  # ok | failed | skipped
    findings: int
    seconds: float
    detail: str = ""


# -- configurations -------------------------------------------------------------------------


def load_config(path: Path) -> CorpusConfig:
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise PrecisionRunError(f"{path}: {error}") from error
    corpus = document.get("corpus")
    tool = document.get("tool", {}).get("inwards")
    if not isinstance(corpus, dict) or not isinstance(tool, dict):
        raise PrecisionRunError(f"{path}: needs a [corpus] and a [tool.inwards] table")
    source, copy = corpus.get("source"), corpus.get("copy")
    if not isinstance(source, str) or not isinstance(copy, list) or not copy:
        raise PrecisionRunError(f"{path}: [corpus] needs source (a path) and copy (a list)")
    layers_from = str(corpus.get("layers-from", ""))
    if layers_from and layers_from not in LAYERS_FROM:
        raise PrecisionRunError(f"{path}: layers-from: one of {', '.join(LAYERS_FROM)}")
    return CorpusConfig(path.stem, source, tuple(str(c) for c in copy), layers_from, tool)


def config_path(corpus: str) -> Path:
    return CONFIG_DIR / f"{corpus}.toml"


def configured_corpora() -> list[str]:
    """The four corpora of issue 13 and any other configuration added beside them."""
    added = sorted(path.stem for path in CONFIG_DIR.glob("*.toml") if path.stem not in CORPORA)
    return [*CORPORA, *added]


def diagram_path(corpus: str) -> Path:
    return DIAGRAMS_DIR / f"{corpus}.md"


def fit_tool_table(
    config: CorpusConfig, installed: Installed, copy: Path | None, has_diagram: bool
) -> Written:
    """The config's ``[tool.inwards]`` cut to what the installed inwards accepts: rule tables
    of rules it lists, options their check kinds take, top-level keys it knows; with the
    layers filled in (``layers-from``) and ``diagrams`` set when a diagram is copied."""
    left_out: list[str] = []
    tool: dict[str, Any] = {}
    for key, value in config.tool.items():
        if key != "rules" and key not in installed.top_keys:
            left_out.append(f"key {key!r} (this inwards has no such key)")
            continue
        tool[key] = value
    if config.layers_from and copy is not None:
        inner, outer = LAYERS_FROM[config.layers_from](copy / config.copy[0])
        tool["layers"] = [
            {"name": "framework", "modules": inner},
            {"name": outer[0].rsplit(".", 1)[-1], "modules": outer},
        ]
    if has_diagram and "diagrams" not in tool:
        if "diagrams" in installed.top_keys:
            tool["diagrams"] = [DIAGRAM_NAME]
        else:
            left_out.append("key 'diagrams' (this inwards has no such key)")
    rules, rule_notes = _fit_rules(config.tool.get("rules", {}), installed)
    tool["rules"] = rules
    return Written(tool, tuple(left_out + rule_notes))


def _fit_rules(rules: Mapping[str, Any], installed: Installed) -> tuple[dict[str, Any], list[str]]:
    fitted: dict[str, Any] = {}
    notes: list[str] = []
    for key, value in rules.items():
        if not isinstance(value, dict):
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                kept = [code for code in value if installed.has(code)]
                gone = [code for code in value if not installed.has(code)]
                if gone:
                    notes.append(f"rules.{key}: {', '.join(gone)} (not installed)")
                fitted[key] = kept
            else:
                fitted[key] = value
            continue
        rule = installed.rule(key)
        if rule is None:
            notes.append(f"the table rules.{key} (no such rule installed)")
            continue
        known = installed.kind_options.get(rule.kind, frozenset())
        options = {name: option for name, option in value.items() if name in known}
        notes.extend(
            f"rules.{rule.name}.{name} ({rule.kind} takes no such option)"
            for name in value
            if name not in known
        )
        if options:
            fitted[rule.name] = options
    return fitted, notes


# -- TOML out (only what configurations hold: tables, arrays, strings, ints, booleans) ------


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise PrecisionRunError(f"cannot write {value!r} as TOML")


def toml_table(header: str, table: Mapping[str, Any]) -> list[str]:
    """``[header]`` with its plain keys first, then each sub-table; ``layers`` one per line."""
    lines = [f"[{header}]"]
    for key, value in table.items():
        if isinstance(value, dict):
            continue
        if key == "layers" and isinstance(value, list):
            lines.append(f"{toml_key(key)} = [")
            lines.extend(f"  {toml_value(item)}," for item in value)
            lines.append("]")
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    for key, value in table.items():
        if isinstance(value, dict):
            lines.append("")
            lines.extend(toml_table(f"{header}.{toml_key(key)}", value))
    return lines


def pyproject_text(config: CorpusConfig, written: Written) -> str:
    head = [
        f"# Written by bench/precision_corpora.py from bench/precision/{config.name}.toml",
        f"# (a copy of {config.source}: {', '.join(config.copy)}); rewritten on every run.",
    ]
    return "\n".join(head + toml_table("tool.inwards", written.tool)) + "\n"


# -- the installed inwards ------------------------------------------------------------------


def default_inwards() -> str:
    """The repository's venv inwards (editable: a rule change shows at once), else PATH's."""
    venv = REPO / ".venv" / "bin" / "inwards"
    if venv.is_file():
        return str(venv)
    return shutil.which("inwards") or "inwards"


def _inwards_json(inwards: str, *arguments: str) -> Any:
    if os.sep in inwards:  # a path given relative to here still names it from elsewhere
        inwards = str(Path(inwards).resolve())
    with tempfile.TemporaryDirectory() as empty:  # no project config can change the answer
        try:
            done = subprocess.run(
                [inwards, *arguments], cwd=empty, capture_output=True, text=True, check=False
            )
        except OSError as error:
            raise PrecisionRunError(f"cannot run {inwards}: {error}") from error
    if done.returncode != 0:
        raise PrecisionRunError(
            f"{inwards} {' '.join(arguments)} exited {done.returncode}:\n{done.stderr}"
        )
    try:
        return json.loads(done.stdout)
    except ValueError as error:
        raise PrecisionRunError(f"{inwards} {' '.join(arguments)}: not JSON: {error}") from error


def read_installed(rules_document: Mapping[str, Any], schema: Mapping[str, Any]) -> Installed:
    """The rules (``inwards rules --json``) and options (``inwards schema config``)."""
    rules = tuple(
        Rule(str(r["code"]), str(r["name"]), str(r["kind"]), str(r.get("default", "")))
        for r in rules_document.get("rules", [])
    )
    kind_options: dict[str, frozenset[str]] = {}
    for name, definition in schema.get("$defs", {}).items():
        if name.startswith("options.") and isinstance(definition, dict):
            kind_options[name.removeprefix("options.")] = frozenset(
                definition.get("properties", {})
            )
    return Installed(rules, kind_options, frozenset(schema.get("properties", {})))


def query_installed(inwards: str) -> Installed:
    return read_installed(
        _inwards_json(inwards, "rules", "--json", "--isolated"),
        _inwards_json(inwards, "schema", "config"),
    )


# -- copies ---------------------------------------------------------------------------------


def source_dir(config: CorpusConfig, corpora_dir: Path) -> Path:
    return corpora_dir / config.source


def missing_source(config: CorpusConfig, corpora_dir: Path) -> str:
    """Why the corpus can't be copied, or "" when everything it names is there."""
    source = source_dir(config, corpora_dir)
    absent = [entry for entry in config.copy if not (source / entry).exists()]
    if absent:
        group = Path(config.source).parts[0]  # get-corpora.sh's group: fastapi, big
        hint = f"bash ../shared/bench/get-corpora.sh DIR {group} (from the repository root)"
        return f"{source} lacks {', '.join(absent)} (get it with {hint})"
    return ""


def _stamp(config: CorpusConfig, corpora_dir: Path) -> dict[str, Any]:
    source = source_dir(config, corpora_dir)
    return {"source": str(source.resolve()), "copy": list(config.copy)}


def ensure_copy(config: CorpusConfig, corpora_dir: Path, out_dir: Path) -> tuple[Path, bool]:
    """The corpus's copy under ``out_dir``, made (next to it, then renamed into place, so a
    run beside this one never sees half a copy) when missing or made from something else.
    Returns the copy and whether it was made now."""
    destination = out_dir / config.name
    wanted = _stamp(config, corpora_dir)
    stamp = destination / STAMP
    try:
        if json.loads(stamp.read_text(encoding="utf-8")) == wanted:
            return destination, False
    except (OSError, ValueError):
        pass
    out_dir.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{config.name}-", dir=out_dir))
    source = source_dir(config, corpora_dir)
    ignore = shutil.ignore_patterns("__pycache__", ".inwards")
    for entry in config.copy:
        origin, target = source / entry, building / entry
        target.parent.mkdir(parents=True, exist_ok=True)
        if origin.is_dir():
            shutil.copytree(origin, target, ignore=ignore)
        else:
            shutil.copy2(origin, target)
    (building / STAMP).write_text(json.dumps(wanted) + "\n", encoding="utf-8")
    if destination.exists():
        shutil.rmtree(destination, ignore_errors=True)
    try:
        building.rename(destination)
    except OSError:  # another run put its copy in place first: use that one
        shutil.rmtree(building, ignore_errors=True)
    return destination, True


def write_atomically(path: Path, text: str) -> bool:
    """Write ``text`` unless the file already holds it; True when written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except OSError:
        pass
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
    return True


def prepare_corpus(
    config: CorpusConfig, installed: Installed, corpora_dir: Path, out_dir: Path
) -> tuple[Path, Written, bool]:
    """Copy (when needed), the diagram, and the ``pyproject.toml``: (copy, written, copied)."""
    copy, copied = ensure_copy(config, corpora_dir, out_dir)
    diagram = diagram_path(config.name)
    has_diagram = diagram.is_file()
    if has_diagram:
        write_atomically(copy / DIAGRAM_NAME, diagram.read_text(encoding="utf-8"))
    written = fit_tool_table(config, installed, copy, has_diagram)
    write_atomically(copy / "pyproject.toml", pyproject_text(config, written))
    return copy, written, copied


# -- runs -----------------------------------------------------------------------------------


def findings_path(out_dir: Path, corpus: str, code: str) -> Path:
    return out_dir / f"{corpus}.{code}.json"


def count_findings(document: Mapping[str, Any], code: str) -> int:
    return sum(1 for d in document.get("diagnostics", []) if d.get("code") == code)


def run_rule(inwards: str, copy: Path, corpus: str, code: str, out_dir: Path) -> RunOutcome:
    command = [
        inwards,
        "check",
        "--format",
        "json",
        "--no-cache",
        "--isolated",
        "--no-baseline",
        "--config",
        str(copy / "pyproject.toml"),
        "--select",
        code,
    ]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in ACCEPTED_EXITS:
        detail = f"exit {done.returncode}: {' '.join(command)}\n{done.stderr.strip()}"
        return RunOutcome(corpus, code, "failed", 0, seconds, detail)
    try:
        document = json.loads(done.stdout)
    except ValueError as error:
        detail = f"not JSON ({error}): {' '.join(command)}\n{done.stderr.strip()}"
        return RunOutcome(corpus, code, "failed", 0, seconds, detail)
    kept = own_diagnostics(document, code)
    text = json.dumps(kept, indent=2, ensure_ascii=False) + "\n"
    write_atomically(findings_path(out_dir, corpus, code), text)
    return RunOutcome(corpus, code, "ok", count_findings(kept, code), seconds)


def own_diagnostics(document: Mapping[str, Any], code: str) -> dict[str, Any]:
    """The document with the rule's own diagnostics only. The others are the warnings that the
    options tables of the corpus's other rules do nothing in this run (one per table, located
    in pyproject.toml, coded as that other rule): kept, they would pass for findings of that
    rule when documents of several runs are read together."""
    kept = dict(document)
    kept["diagnostics"] = [d for d in document.get("diagnostics", []) if d.get("code") == code]
    return kept


def plan(config: CorpusConfig, codes: Sequence[str], installed: Installed) -> list[RunOutcome]:
    """The skipped runs of this corpus (rule not installed or not measured here)."""
    skipped = []
    for code in codes:
        if not installed.has(code):
            skipped.append(RunOutcome(config.name, code, "skipped", 0, 0.0, "not installed"))
        elif code not in config.selected:
            why = "not measured on this corpus (not in its extend-select)"
            skipped.append(RunOutcome(config.name, code, "skipped", 0, 0.0, why))
    return skipped


def describe(outcome: RunOutcome) -> str:
    where = f"{outcome.corpus:<17} {outcome.code}"
    if outcome.status == "ok":
        return f"{where}  {outcome.findings:>5} findings  {outcome.seconds:6.2f} s"
    if outcome.status == "skipped":
        return f"{where}  skipped: {outcome.detail}"
    return f"{where}  FAILED after {outcome.seconds:.2f} s: {outcome.detail}"


def run_corpus(
    config: CorpusConfig,
    codes: Sequence[str],
    installed: Installed,
    corpora_dir: Path,
    out_dir: Path,
    inwards: str,
) -> list[RunOutcome]:
    missing = missing_source(config, corpora_dir)
    if missing:
        outcome = RunOutcome(config.name, ",".join(codes), "skipped", 0, 0.0, missing)
        print(describe(outcome), flush=True)
        return [outcome]
    copy, written, copied = prepare_corpus(config, installed, corpora_dir, out_dir)
    if copied:
        print(f"{config.name}: copied to {copy}", file=sys.stderr)
    for note in written.left_out:
        print(f"{config.name}: left out of pyproject.toml: {note}", file=sys.stderr)
    outcomes = plan(config, codes, installed)
    for outcome in outcomes:
        print(describe(outcome), flush=True)
    skipped = {o.code for o in outcomes}
    for code in (c for c in codes if c not in skipped):
        outcome = run_rule(inwards, copy, config.name, code, out_dir)
        print(describe(outcome), flush=True)
        if outcome.status == "failed":
            print(f"\n*** {config.name} {code} FAILED ***\n{outcome.detail}\n", file=sys.stderr)
        outcomes.append(outcome)
    return outcomes


# -- command line ---------------------------------------------------------------------------


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="copy, configure and check with each --rule")
    prepare = commands.add_parser("prepare", help="copy and configure only")
    for sub in (run, prepare):
        sub.add_argument(
            "--corpus",
            action="append",
            choices=configured_corpora(),
            help=f"a corpus with a configuration in {CONFIG_DIR}; default: {', '.join(CORPORA)}",
        )
        sub.add_argument("--inwards", help="the inwards to run (default: .venv's, else PATH's)")
        sub.add_argument(
            "--corpora-dir",
            type=Path,
            default=corpora_module.DEFAULT_CORPORA,
            help="the unpacked corpora (default $INWARDS_CORPORA or /work/corpora)",
        )
        sub.add_argument("--out", type=Path, default=OUT_DIR, help=f"default {OUT_DIR}")
    run.add_argument("--rule", action="append", required=True, help="a rule code; repeatable")
    args = parser.parse_args(argv)
    rules = [code.upper() for code in getattr(args, "rule", None) or []]
    bad = [code for code in rules if not _CODE.fullmatch(code)]
    if bad:
        parser.error(f"--rule takes rule codes such as INW012 (got {', '.join(bad)})")
    args.rule = list(dict.fromkeys(rules))
    args.corpus = list(dict.fromkeys(args.corpus or CORPORA))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    inwards = args.inwards or default_inwards()
    if os.sep in inwards:  # the runs happen in the copies
        inwards = str(Path(inwards).resolve())
    try:
        installed = query_installed(inwards)
        configs = [load_config(config_path(corpus)) for corpus in args.corpus]
    except PrecisionRunError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"inwards: {inwards}", file=sys.stderr)
    outcomes: list[RunOutcome] = []
    for config in configs:
        if args.command == "prepare":
            missing = missing_source(config, args.corpora_dir)
            if missing:
                print(f"{config.name}: skipped: {missing}")
                continue
            copy, written, _ = prepare_corpus(config, installed, args.corpora_dir, args.out)
            for note in written.left_out:
                print(f"{config.name}: left out of pyproject.toml: {note}", file=sys.stderr)
            print(f"{config.name}: {copy}")
            continue
        outcomes.extend(
            run_corpus(config, args.rule, installed, args.corpora_dir, args.out, inwards)
        )
    failed = [o for o in outcomes if o.status == "failed"]
    if failed:
        names = ", ".join(f"{o.corpus} {o.code}" for o in failed)
        print(f"\n{len(failed)} run(s) FAILED: {names}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
