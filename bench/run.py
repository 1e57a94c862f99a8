"""Time whole runs of our inwards, the reference inwards 0.7.0 and import-linter 2.16.

Every row of issue 12's table in one run: one file, warm and cold on the generated projects,
Django and sympy, and a cold run of each of 24 real trees with a made-up layering, with the
issue's targets and whether each is met. Each tool gets its own copy of each project under
``bench/out/work/`` (ours and the reference both keep their cache in ``.inwards/``), warm-up
runs first, then ``--runs`` rounds in which the tools take turns, so a burst of outside load
hits all of them alike. Medians are reported with the min-max range.

usage: python bench/run.py [--runs N] [--warmups N] [--only ours,reference,import-linter]
           [--corpora synthetic,synthetic-contexts,synthetic-optin,synthetic-9000,django,
                      django-optin,sympy,trees]
           [--scenarios version,one-file,cold,warm] [--ours PATH/TO/bin/inwards] [--json FILE]
The -optin corpora are their base with every opt-in rule of issue 13 the timed inwards has
turned on (bench/corpora.py); they are timed for ours only, against the base's default run
(issue 13: at most 1.5x, cold and warm). The peers' virtualenvs come from bench/peers.sh; the scaling report is bench/scaling.py and
the start-up report bench/startup.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The modules sit next to this script; bench/ is a folder of scripts, not a package.
import corpora as corpora_module
import generate
import measure
import precision_corpora
import report
import trees as trees_module
from corpora import (
    DJANGO,
    DJANGO_OPTIN,
    DJANGO_PACKAGE,
    OPTIN_BASES,
    OPTIN_CODES,
    SYMPY,
    SYMPY_PACKAGE,
    SYNTHETIC,
    SYNTHETIC_CONTEXTS,
    SYNTHETIC_LARGE,
    SYNTHETIC_OPTIN,
    Corpus,
    OptIn,
)
from measure import COLD, OURS, REFERENCE, SCENARIOS, TOOLS, VERSION, WARM, Result, Tool
from report import TREE_PREFIX, TREES

DEFAULT_VENVS = Path(
    os.environ.get("INWARDS_BENCH_VENVS") or Path.home() / ".cache" / "inwards-bench"
)
CORPORA = (
    SYNTHETIC,
    SYNTHETIC_CONTEXTS,
    SYNTHETIC_OPTIN,
    SYNTHETIC_LARGE,
    DJANGO,
    DJANGO_OPTIN,
    SYMPY,
    TREES,
)
OPTIN_LIMIT = 1.5  # issue 13: every opt-in rule on costs at most this times the default run
TREE_TOOLS = (OURS, REFERENCE)  # import-linter gets no contract for the made-up layerings
DEFAULT_TREE_RUNS = 3


@attrs.frozen
class Settings:
    runs: int
    warmups: int
    quiet_wait: float
    tree_runs: int


def _choices(text: str, allowed: Sequence[str], option: str) -> list[str]:
    picked = [item.strip() for item in text.split(",") if item.strip()]
    unknown = [item for item in picked if item not in allowed]
    if unknown or not picked:
        raise SystemExit(f"{option}: choose from {', '.join(allowed)} (got {text!r})")
    return [item for item in allowed if item in picked]


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add = parser.add_argument
    add("--runs", type=int, default=7, help="measured runs per case (default 7)")
    add("--warmups", type=int, default=1, help="unmeasured runs first (default 1)")
    add("--only", default=",".join(TOOLS), help="tools, comma-separated")
    add("--corpora", default=",".join(CORPORA), help="corpora, comma-separated")
    add("--scenarios", default=",".join(SCENARIOS), help="comma-separated")
    add("--ours", help="our inwards executable (default: inwards on PATH)")
    add("--venvs", type=Path, default=DEFAULT_VENVS, help=f"peers' venvs ({DEFAULT_VENVS})")
    add(
        "--corpora-dir",
        type=Path,
        default=corpora_module.DEFAULT_CORPORA,
        help="the unpacked corpora, with MANIFEST.tsv (default $INWARDS_CORPORA or "
        "/work/corpora); Django, sympy and the trees come from there",
    )
    add("--django", type=Path, help="the unpacked Django corpus (a directory holding django/)")
    add("--sympy", type=Path, help="the unpacked sympy corpus (a directory holding sympy/)")
    add("--synthetic", type=Path, help="an already generated project (default: generate one)")
    add(
        "--modules",
        type=int,
        default=generate.DEFAULT_MODULES,
        help=f"modules in the generated project (default {generate.DEFAULT_MODULES})",
    )
    add(
        "--large-modules",
        type=int,
        default=corpora_module.LARGE_MODULES,
        help=f"modules in the large generated project (default {corpora_module.LARGE_MODULES})",
    )
    add(
        "--tree-runs",
        type=int,
        default=DEFAULT_TREE_RUNS,
        help=f"measured runs per tree, at most --runs (default {DEFAULT_TREE_RUNS})",
    )
    add(
        "--quiet-wait",
        type=float,
        default=5.0,
        help="before each measured run, wait up to this many seconds for the CPUs to be "
        "at least 85%% idle (default 5; 0 turns it off)",
    )
    add("--json", type=Path, help="write the raw measurements here")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmups < 0 or args.tree_runs < 1:
        parser.error("--runs and --tree-runs must be at least 1, --warmups at least 0")
    args.only = _choices(args.only, TOOLS, "--only")
    args.corpora = _choices(args.corpora, CORPORA, "--corpora")
    args.scenarios = _choices(args.scenarios, SCENARIOS, "--scenarios")
    return args


def optin_of(tools: dict[str, Tool]) -> OptIn | None:
    """Which of issue 13's opt-in rules ours has, and whether it knows ``diagrams``."""
    ours = tools.get(OURS)
    if ours is None or ours.unavailable or ours.executable is None:
        return None
    try:
        installed = precision_corpora.query_installed(str(ours.executable))
    except precision_corpora.PrecisionRunError as error:
        print(f"warning: {error}", file=sys.stderr)
        return None
    codes = tuple(code for code in OPTIN_CODES if installed.has(code))
    return OptIn(codes, "diagrams" in installed.top_keys)


def prepare(key: str, args: argparse.Namespace, ready: dict[str, Corpus]) -> Corpus:
    if key in OPTIN_BASES:
        base_key = OPTIN_BASES[key]
        base = ready.get(base_key) or prepare(base_key, args, ready)
        layout = (
            corpora_module.SYNTHETIC_OPTIN_LAYOUT
            if key == SYNTHETIC_OPTIN
            else corpora_module.DJANGO_OPTIN_LAYOUT
        )
        return corpora_module.prepare_optin(base, key, args.optin, layout)
    if key == SYNTHETIC:
        return corpora_module.prepare_synthetic(args.synthetic, args.modules)
    if key == SYNTHETIC_CONTEXTS:
        synthetic = ready.get(SYNTHETIC) or corpora_module.prepare_synthetic(
            args.synthetic, args.modules
        )
        return corpora_module.prepare_synthetic_contexts(synthetic)
    if key == SYNTHETIC_LARGE:
        return corpora_module.prepare_synthetic(None, args.large_modules, key=SYNTHETIC_LARGE)
    real = DJANGO_PACKAGE if key == DJANGO else SYMPY_PACKAGE
    given = args.django if key == DJANGO else args.sympy
    return corpora_module.prepare_real(real, given or args.corpora_dir / real.corpus)


def unavailable_results(
    corpus: Corpus, scenarios: Sequence[str], tools: Sequence[Tool]
) -> list[Result]:
    found: list[Result] = []
    for scenario in scenarios:
        for tool in tools:
            command = tool.command(scenario, corpus.one_file)
            if command is not None:
                found.append(
                    Result(corpus.key, scenario, tool.key, command, "", "n/a", corpus.unavailable)
                )
    return found


def time_corpus(
    corpus: Corpus, scenarios: Sequence[str], tools: Sequence[Tool], settings: Settings
) -> list[Result]:
    if corpus.unavailable:
        return unavailable_results(corpus, scenarios, tools)
    projects = {tool.key: corpora_module.working_copy(corpus, tool.key) for tool in tools}
    results: list[Result] = []
    for scenario in scenarios:
        print(f"... {corpus.key} {scenario}", file=sys.stderr, flush=True)
        results.extend(
            measure.run_scenario(
                corpus,
                scenario,
                tools,
                projects,
                settings.runs,
                settings.warmups,
                settings.quiet_wait,
            )
        )
    return results


def time_trees(
    chosen: Sequence[trees_module.Tree], tools: Sequence[Tool], settings: Settings
) -> list[Result]:
    """A cold run of each tree per tool; with --no-cache they share one copy of the tree."""
    out_dir = corpora_module.OUT_DIR / TREES
    results: list[Result] = []
    for number, tree in enumerate(chosen, 1):
        project = trees_module.prepare_tree(tree, out_dir)
        corpus = Corpus(TREE_PREFIX + tree.name, project, ".", "", f"{tree.files} files")
        print(f"... tree {number}/{len(chosen)} {tree.name}", file=sys.stderr, flush=True)
        results.extend(
            measure.run_scenario(
                corpus,
                COLD,
                tools,
                {tool.key: project for tool in tools},
                min(settings.tree_runs, settings.runs),
                settings.warmups,
                settings.quiet_wait,
            )
        )
    return results


def optin_targets(results: Sequence[Result], corpora: Sequence[str]) -> list[report.Target]:
    """Each timed -optin corpus against its base's default run, cold and warm."""
    found = []
    for variant, base in OPTIN_BASES.items():
        if variant not in corpora or base not in corpora:
            continue
        for scenario in (COLD, WARM):
            with_rules = report.median_wall(results, variant, scenario, OURS)
            default = report.median_wall(results, base, scenario, OURS)
            target = report.judge(
                "opt-in",
                variant,
                f"{scenario} <= {OPTIN_LIMIT:.1f}x {base} {scenario}",
                with_rules,
                _scaled(default, OPTIN_LIMIT),
                f"needs ours {scenario} on {variant} and {base}",
            )
            if with_rules is not None and default:
                ratio = f" ({with_rules / default:.2f}x)"
                target = attrs.evolve(target, detail=target.detail + ratio)
            found.append(target)
    return found


def _scaled(seconds: float | None, factor: float) -> float | None:
    return None if seconds is None else seconds * factor


def print_header(tools: dict[str, Tool], host: dict[str, Any], load: list[float]) -> None:
    print(
        f"Machine: {host['cpus']} CPUs, {host['cpu_model']}; load average {load}; "
        f"python -I -c pass takes {report.ms(host['python_start_s'])} ms"
    )
    for tool in tools.values():
        where = tool.executable or "-"
        state = f"n/a: {measure.brief(tool.unavailable)}" if tool.unavailable else tool.version
        print(f"  {tool.key:<14} {where}  {state}")
    if load and host["cpus"] and load[0] > 0.5 * host["cpus"]:
        print("warning: the machine is busy; wall times will be pessimistic (CPU time less so)")


def print_results(
    results: Sequence[Result],
    corpora: Sequence[str],
    tree_names: Sequence[str],
    verdicts: Sequence[report.Target],
    settings: Settings,
    loads: tuple[list[float], list[float]],
) -> None:
    plain = [r for r in results if not r.corpus.startswith(TREE_PREFIX)]
    print()
    print(report.table(plain))
    print(
        f"(medians of {settings.runs} runs after {settings.warmups} warm-up; 'busy' counts runs "
        f"that started after waiting {settings.quiet_wait:g} s in vain for idle CPUs;\n"
        f" load average {loads[0]} before, {loads[1]} after)"
    )
    for result in (r for r in results if r.status == "failed"):
        print(
            f"\n{result.corpus} {result.scenario} {result.tool} failed: {' '.join(result.command)}"
        )
        print(result.reason)
    print("\nWhat each tool reported:")
    for result in plain:
        if result.ok and result.scenario in (COLD, measure.ONE_FILE):
            print(f"  {result.corpus:<18} {result.scenario:<9} {result.tool:<14} {result.reported}")
    if tree_names:
        print(
            f"\n{len(tree_names)} real trees, cold (--no-cache), each its subpackages as layers "
            f"in name order; medians of {min(settings.tree_runs, settings.runs)} runs:"
        )
        print(report.tree_table(results, tree_names))
    ratio_lines = report.ratios(results, corpora)
    if ratio_lines:
        print("\nRatios of medians:")
        print("\n".join(f"  {line}" for line in ratio_lines))
    if verdicts:
        print("\nThe issue's table (ratios of wall medians):")
        print(report.issue_table(results, verdicts, tree_names))
        print("\nTargets:")
        for target in verdicts:
            print(f"  {target.corpus:<10} {target.text:<36} {target.verdict:<8} {target.detail}")


def _serialize(_instance: object, _field: object, value: object) -> object:
    return str(value) if isinstance(value, Path) else value


def write_json(path: Path, document: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    print(f"\nRaw measurements: {path}")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    settings = Settings(args.runs, args.warmups, args.quiet_wait, args.tree_runs)
    tools = measure.find_tools(args.ours, args.venvs.expanduser(), args.only)
    started = time.time()
    host = measure.machine()
    load_before = measure.load_average()
    host["python_start_s"] = measure.interpreter_start()
    print_header(tools, host, load_before)

    args.optin = optin_of(tools) if set(OPTIN_BASES) & set(args.corpora) else None
    prepared: dict[str, Corpus] = {}
    for key in (key for key in args.corpora if key != TREES):
        prepared[key] = prepare(key, args, prepared)
        corpus = prepared[key]
        status = f"n/a: {corpus.unavailable}" if corpus.unavailable else corpus.description
        print(f"Corpus {key}: {status}")
    chosen = trees_module.select_trees(args.corpora_dir) if TREES in args.corpora else []
    if TREES in args.corpora:
        found = f"{len(chosen)} from {args.corpora_dir}" if chosen else "n/a: no MANIFEST.tsv"
        print(f"Corpus {TREES}: {found}")

    results: list[Result] = []
    for corpus in prepared.values():
        scenarios = args.scenarios
        if corpus.key != args.corpora[0]:
            # Start-up cost doesn't depend on the project: measure it once.
            scenarios = [s for s in scenarios if s != VERSION]
        timed = list(tools.values())
        if corpus.key in OPTIN_BASES:  # the opt-in variants are ours against ours
            timed = [tool for tool in timed if tool.key == OURS]
        results.extend(time_corpus(corpus, scenarios, timed, settings))
    if chosen and COLD in args.scenarios:
        tree_tools = [tool for key, tool in tools.items() if key in TREE_TOOLS]
        results.extend(time_trees(chosen, tree_tools, settings))
    tree_names = [tree.name for tree in chosen] if COLD in args.scenarios else []
    load_after = measure.load_average()

    verdicts = report.targets(results, list(prepared), tree_names) if OURS in tools else []
    if OURS in tools:
        verdicts += optin_targets(results, list(prepared))
    print_results(
        results, list(prepared), tree_names, verdicts, settings, (load_before, load_after)
    )
    if args.json:
        write_json(
            args.json,
            {
                "schema": "inwards-bench/measurements@2",
                "taken_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
                "machine": host,
                "load_average": {"before": load_before, "after": load_after},
                "runs": args.runs,
                "warmups": args.warmups,
                "tree_runs": min(args.tree_runs, args.runs),
                "tools": {
                    k: attrs.asdict(t, value_serializer=_serialize) for k, t in tools.items()
                },
                "corpora": {
                    k: attrs.asdict(c, value_serializer=_serialize) for k, c in prepared.items()
                },
                "trees": [attrs.asdict(t, value_serializer=_serialize) for t in chosen],
                "results": [attrs.asdict(r, value_serializer=_serialize) for r in results],
                "targets": [attrs.asdict(target) for target in verdicts],
            },
        )
    return 1 if any(r.status == "failed" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
