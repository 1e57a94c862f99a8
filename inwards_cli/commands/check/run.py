"""One check of one configuration: load the configuration and the rules, run the engine,
finish the report, and yield a `CheckOutcome` (no typer here: the fast start-up path of
`inwards_cli.main.main` runs it; rendering and writing the report are `output.py`'s)."""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import attrs

from inwards_cli.adapters.standard_output import write_standard_output
from inwards_cli.bootstrap import Adapters, bootstrap, cache_disabled
from inwards_cli.commands.check.options import CheckArguments, shows_frames
from inwards_cli.commands.console import display_from, fail, fail_config, warn
from inwards_cli.commands.loading import (
    ResolvedRules,
    locate_config,
    print_rule_warnings,
    resolve_rules,
    rule_warnings,
)
from inwards_cli.composition import (
    LoadedBaseline,
    UnreadableBaselineError,
    build_whole_config,
    find_baseline,
    finish_report,
    project_locator,
    read_baseline,
    record_rules,
    setup_inputs,
    split_paths,
    with_workspace_view,
)
from inwards_cli.config_file import LoadedConfig
from inwards_core.api import Prepared, prepare
from inwards_core.baseline import BaselineError
from inwards_core.config.values import Config, ConfigError
from inwards_core.engine import files_to_check
from inwards_core.model.findings import Report
from inwards_core.model.value_repr import value_repr
from inwards_core.reporting.escaping import safe_line
from inwards_core.reporting.formats import FORMATS, format_named, listed
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.selection import ActiveRule, SelectionError, override_selection
from inwards_core.session import Session, SessionSetup
from inwards_core.verification import CachedFactsDiffer

if TYPE_CHECKING:
    from inwards_cli.adapters.progress import ProgressBar
    from inwards_cli.workspace import WorkspaceView
    from inwards_core.rules.why import Explanation


def project_paths(paths: tuple[Path, ...], project_dir: Path) -> tuple[list[str], list[str]]:
    """User paths -> POSIX paths relative to the project dir; and paths outside it."""
    try:
        return split_paths(paths, project_dir)
    except (FileNotFoundError, NotADirectoryError) as error:
        fail(f"{error.filename} is not a file or directory.")
    except OSError as error:  # EACCES: a directory on the way to it can't be searched
        fail(f"{error.filename} can't be examined: {(error.strerror or str(error)).lower()}.")


@attrs.frozen
class CheckOutcome:
    """A finished check and what the renderers need besides the report."""

    __repr__ = value_repr

    report: Report
    rules: tuple[ActiveRule, ...]
    rule_set: RuleSet
    project_dir: Path
    # The warnings about rule roots and definitions printed on stderr (SARIF records them).
    rule_warnings: tuple[str, ...] = ()
    # Why the rule `--explain` names reported what it did (None without the option).
    explanation: Explanation | None = None


def check(arguments: CheckArguments, *, view: WorkspaceView | None = None) -> CheckOutcome:
    """Load the configuration and the rules, check, and finish the report (the paths
    outside the project, the rule set, the baseline): a `CheckSession` used once. `view`:
    how a uv workspace's check of one of its configurations differs (`workspace.py`)."""
    opened = CheckSession(arguments, view=view)
    try:
        return opened.check()
    finally:
        opened.close()


@attrs.define
class _Setup:
    """What the session's setup was last built from, as the command's outcomes need it."""

    arguments: CheckArguments  # with --explain's code made exact
    loaded: LoadedConfig
    resolved: ResolvedRules
    prepared: Prepared
    adapters: Adapters
    baseline: LoadedBaseline | None
    named: tuple[str, ...] | None
    outside: tuple[str, ...]
    bar: ProgressBar | None


class CheckSession:
    """`inwards check`'s `Session`: built from the command's options (the configuration,
    the rules with --select and the like, the baseline, the cache, the memo of runs), kept
    by `--watch` between checks, used once otherwise. A change of the configuration, a
    project rule or the baseline rebuilds the setup the same way (exit 2 on a problem, as
    the first build)."""

    def __init__(self, arguments: CheckArguments, *, view: WorkspaceView | None = None) -> None:
        _refuse_conflicting_options(arguments)
        self._arguments = arguments
        self._view = view
        self._warned: set[str] = set()
        self._setup: _Setup | None = None
        self.session = Session(self._build())

    @property
    def project_dir(self) -> Path:
        return self._built.loaded.project_dir

    @property
    def _built(self) -> _Setup:
        assert self._setup is not None  # set by _build, which __init__ runs
        return self._setup

    def check(self) -> CheckOutcome:
        built = self._built
        arguments = built.arguments
        try:
            report = self.session.check(
                built.named,
                full_parse=arguments.full_parse,
                source_lines=shows_frames(arguments),
                verify_cache=arguments.verify_cache,
                trace_rule=arguments.explain,
            )
        except CachedFactsDiffer as differ:
            from inwards_cli.commands.cache_verification import fail_verification

            fail_verification(differ.mismatches, display_from(self.project_dir))
        except ConfigError as error:  # the configuration against the tree (a src layout)
            fail_config(error)
        finally:
            if built.bar is not None:
                built.bar.close()
        built = self._built  # a reload may have built it afresh
        return CheckOutcome(
            report,
            built.prepared.rules,
            built.resolved.rule_set,
            self.project_dir,
            rule_warnings=tuple(rule_warnings(built.resolved)),
            explanation=_explanation(
                built.arguments,
                built.resolved.rule_set,
                built.prepared,
                report,
                None if built.named is None else list(built.named),
            ),
        )

    def changed(self, paths: Sequence[str]) -> None:
        self.session.changed(paths)

    def reload(self) -> None:
        self.session.reload()

    def close(self) -> None:
        self.session.close()

    def _build(self) -> SessionSetup:
        arguments, view = self._arguments, self._view
        loaded = locate_config(arguments.config)
        project_dir = loaded.project_dir
        named: list[str] | None = None
        outside: list[str] = []
        if arguments.paths:
            named, outside = project_paths(arguments.paths, project_dir)
        config = _whole_config(loaded, arguments)
        if view is None and arguments.config is None:  # --config: that file alone, as it says
            from inwards_cli.workspace_root import view_for_config

            view = view_for_config(loaded.path)
        config = with_workspace_view(config, view)
        # Read before checking: a broken baseline stops the run at once.
        baseline = load_baseline(arguments, project_dir)
        resolved = _load_rules(loaded, config, arguments)
        if arguments.explain is not None:
            from inwards_cli.commands.check.why import explained_code

            arguments = attrs.evolve(
                arguments, explain=explained_code(resolved.rule_set, arguments)
            )
        config = _selected_on_command_line(config, resolved.rule_set, arguments)
        try:
            prepared = prepare(config, resolved.rule_set)
        except ConfigError as error:
            fail_config(error)
        print_rule_warnings(resolved)
        bar = _progress_bar(arguments) if self._setup is None else None
        adapters = bootstrap(
            project_dir,
            no_cache=arguments.no_cache,
            progress=bar,
            memo_context=_memo_context(loaded, resolved, arguments, named, view),
            verify=arguments.verify_cache,
        )
        if view is not None and view.excluded:
            from inwards_cli.adapters.excluded_files import ExcludedDirectories

            files = ExcludedDirectories(adapters.files, view.excluded)
            adapters = attrs.evolve(adapters, files=files)
        if arguments.show_files:
            show_files(prepared, adapters, named, project_dir)
        self._setup = _Setup(
            arguments,
            loaded,
            resolved,
            prepared,
            adapters,
            baseline,
            None if named is None else tuple(named),
            tuple(outside),
            bar,
        )
        return SessionSetup(
            prepared.config,
            resolved.rule_set,
            prepared.rules,
            adapters.ports,
            finish=self._finish,
            locate=project_locator(project_dir),
            reloads_on=setup_inputs(loaded, baseline=not arguments.no_baseline),
            reload=self._build,
        )

    def _finish(self, report: Report, outside: Sequence[str]) -> Report:
        """The engine's report with the stamps saved, the paths outside the project, the
        rule set and the baseline; the adapters' new warnings printed."""
        built = self._built
        _save_stamps(built.adapters, self.project_dir)
        report = finish_report(
            report,
            (*built.outside, *outside),
            self.project_dir,
            built.resolved.rule_set,
            built.baseline,
        )
        record_rules(built.resolved, digests=True)
        adapters = built.adapters
        for source in (adapters.cache, adapters.files, adapters.memo):
            for warning in source.warnings if source is not None else ():
                if warning not in self._warned:
                    self._warned.add(warning)
                    warn(warning)
        return report


def _explanation(
    arguments: CheckArguments,
    rule_set: RuleSet,
    prepared: Prepared,
    report: Report,
    named: list[str] | None,
) -> Explanation | None:
    if arguments.explain is None:
        return None
    from inwards_cli.commands.check.why import explanation_of

    return explanation_of(arguments, rule_set, prepared, report, named)


def _memo_context(
    loaded: LoadedConfig,
    resolved: ResolvedRules,
    arguments: CheckArguments,
    named: list[str] | None,
    view: WorkspaceView | None = None,
) -> str | None:
    """What a whole-project check's report depends on besides the tree (`memo_context`);
    None for a check of named paths, --show-files or without the cache."""
    if named is not None or arguments.show_files or cache_disabled(arguments.no_cache):
        return None
    if arguments.explain is not None:  # the explanation needs the run, not a kept report
        return None
    from inwards_cli.adapters.run_memo import memo_context

    options: tuple[object, ...] = (
        arguments.select,
        arguments.extend_select,
        arguments.ignore,
        arguments.isolated,
        arguments.disable_plugin,
        str(loaded.project_dir),
        # In the engine's inputs too; here they give each its own memo, so that text runs
        # (with frames) and json runs (without) don't replace each other's.
        arguments.full_parse,
        shows_frames(arguments),
    )
    if view is not None:  # another tree, other packages: their own memo
        options += (attrs.astuple(view),)
    return memo_context(loaded.path, loaded.text, resolved.rule_set, options)


def _save_stamps(adapters: Adapters, project_dir: Path) -> None:
    """Write the files' stamps; with --verify-cache, a stamp that disagreed with its file's
    bytes is exit 2 (once the stamps are corrected)."""
    if adapters.memo is None:
        return  # no stamps either (see `bootstrap`)
    from inwards_cli.adapters.file_stamps import StampedProjectFiles

    files = adapters.stamped
    if isinstance(files, StampedProjectFiles):
        files.stamps.flush()
        if files.mismatches:
            from inwards_cli.commands.cache_verification import fail_verification

            fail_verification(files.mismatches, display_from(project_dir))


def _progress_bar(arguments: CheckArguments) -> ProgressBar | None:
    """A bar on stderr for a long run, for people only: text or concise, at a terminal,
    outside CI (see `progress.wanted`)."""
    if not format_named(arguments.output_format).for_people:
        return None
    if arguments.silent or arguments.show_files or not sys.stderr.isatty():
        return None
    from inwards_cli.adapters.progress import progress_bar  # at a terminal only

    return progress_bar(sys.stderr)


def _selected_on_command_line(
    config: Config, rule_set: RuleSet, arguments: CheckArguments
) -> Config:
    """[tool.inwards.rules] with --select, --extend-select and --ignore applied; a code or
    name no rule has is a usage error naming the option (exit 2)."""
    if arguments.select is None and not arguments.extend_select and not arguments.ignore:
        return config
    try:
        rules = override_selection(
            config.rules,
            rule_set,
            select=arguments.select,
            extend_select=arguments.extend_select,
            ignore=arguments.ignore,
        )
    except SelectionError as error:
        fail(f"{error.option}: {error.message}")
    return attrs.evolve(config, rules=rules)


def show_files(
    prepared: Prepared, adapters: Adapters, named: list[str] | None, project_dir: Path
) -> NoReturn:
    """`--show-files`: the files the check would read, one a line as findings name them,
    and exit 0."""
    try:
        listed = files_to_check(prepared.config, prepared.rules, files=adapters.files, paths=named)
    except ConfigError as error:
        fail_config(error)
    display = display_from(project_dir)
    write_standard_output("".join(f"{safe_line(display(file))}\n" for file in listed), "the files")
    raise SystemExit(0)


def _refuse_conflicting_options(arguments: CheckArguments) -> None:
    if arguments.show_fixes and arguments.no_fixes:
        fail("--show-fixes and --no-fixes can't be used together; choose one.")
    if arguments.quiet and arguments.silent:
        fail("--quiet and --silent can't be used together; choose one.")
    output = format_named(arguments.output_format)
    if arguments.explain is not None and (arguments.watch or not output.explains):
        unexplained = [f"--format {each.name}" for each in FORMATS if not each.explains]
        explained = [each.name for each in FORMATS if each.explains]
        fail(
            f"--explain can't be used with {listed(['--watch', *unexplained], 'or')}: the "
            f"explanation is written with the {listed(explained, 'and')} formats."
        )
    if arguments.statistics and not output.counts:
        counted = [each.name for each in FORMATS if each.counts]
        fail(
            f"--statistics can't be used with --format {output.name}: the counts per rule are "
            f"written with the {listed(counted, 'and')} formats."
        )
    if output.every_finding and arguments.max_diagnostics is not None:
        fail(
            f"--max-diagnostics can't be used with --format {output.name}: code scanning needs "
            "every finding to track its alerts. Leave the option out, or use another format."
        )


def _whole_config(loaded: LoadedConfig, arguments: CheckArguments) -> Config:
    """The configuration; when it can't be built, exit 2 listing every problem of the
    file and of the rule definitions at once (`build_whole_config`)."""
    resolve = functools.partial(
        resolve_rules,
        use_cache=not cache_disabled(arguments.no_cache),
        disabled=arguments.disable_plugin,
    )
    try:
        return build_whole_config(loaded, isolated=arguments.isolated, resolve=resolve)
    except ConfigError as error:
        fail_config(error)


def _load_rules(loaded: LoadedConfig, config: Config, arguments: CheckArguments) -> ResolvedRules:
    """The rules of every root; with `--verify-cache`, cached definition tables that differ
    from the files are exit 2 (after the fresh tables replace them)."""
    resolved = resolve_rules(
        loaded,
        config,
        isolated=arguments.isolated,
        use_cache=not cache_disabled(arguments.no_cache),
        verify_cache=arguments.verify_cache,
        disabled=arguments.disable_plugin,
    )
    if resolved.cache_mismatches:
        record_rules(resolved, digests=False)  # the fresh tables replace those that differ
        from inwards_cli.commands.cache_verification import fail_verification

        # Definitions are named as every rule message names them, not relative to here.
        fail_verification(resolved.cache_mismatches, lambda path: path)
    return resolved


def load_baseline(arguments: CheckArguments, project_dir: Path) -> LoadedBaseline | None:
    """The baseline a check applies: `--baseline FILE`, else inwards-baseline.json next to
    the config when there is one, and none with `--no-baseline`. One that can't be read or
    parsed is exit 2: silently checking without it would fail every accepted finding, and
    ignoring it would hide why."""
    if arguments.no_baseline:
        if arguments.baseline is not None:
            fail("--baseline and --no-baseline can't be used together; choose one.")
        return None
    try:
        if arguments.baseline is None:
            return find_baseline(project_dir, shown=display_from(project_dir))
        named = arguments.baseline
        return read_baseline(named, project_dir, named=str(named), shown=lambda _: str(named))
    except UnreadableBaselineError as error:
        fail(f"baseline error: {error.render()}")
    except BaselineError as error:
        fail(
            f"baseline error: {error.render()}",
            "Fix the file, write it afresh with `inwards baseline`, or check without it "
            "(--no-baseline).",
        )
