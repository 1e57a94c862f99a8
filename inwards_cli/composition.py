"""The disk composition of a check, shared by `inwards check` and `inwards_core.Session`.

Every step here raises a typed exception instead of printing and exiting: the command
(`inwards_cli/commands/check/run.py`) turns them into messages and exit statuses, and a
script calling `inwards_core.Session.open` or `check_path` catches them. `open_directory` is
registered under the entry-point group `inwards.composition` (pyproject.toml), which is how
the core finds it without importing this package (see docs/architecture.md, "The library
entry point").
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from inwards_cli.adapters.atomic import failure_reason
from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file
from inwards_cli.adapters.rule_roots import PROJECT_RULES_DIR, LocalRuleSources
from inwards_cli.bootstrap import CACHE_DIR, bootstrap, cache_disabled, rule_sources
from inwards_cli.config_file import LoadedConfig, find_config, read_config
from inwards_core.adapters.entry_points import (
    DISABLE_VARIABLE,
    disabled_names,
    installed_entry_points,
    installed_paths,
    paths_stamp,
    without_disabled,
)
from inwards_core.api import (
    ConfigNotFoundError,
    InwardsWarning,
    load_rules,
    prepare,
    whole_config_error,
)
from inwards_core.baseline import BASELINE_FILE_NAME, MAX_BASELINE_BYTES, Baseline, BaselineError
from inwards_core.config.load import read_rule_settings
from inwards_core.config.values import Config, ConfigError
from inwards_core.model.findings import NotChecked, Report
from inwards_core.model.value_repr import value_repr
from inwards_core.plugins import PluginHost
from inwards_core.ports import RootState
from inwards_core.rules.definitions import DefinitionProblem
from inwards_core.rules.digests import root_digests
from inwards_core.rules.kinds import Family
from inwards_core.rules.overlays_in_effect import overlays_in_effect
from inwards_core.rules.rule_set import RuleSet
from inwards_core.session import SessionSetup
from inwards_core.version import inwards_version

if TYPE_CHECKING:
    from inwards_cli.adapters.rule_manifest import RuleRootsManifest
    from inwards_cli.workspace import WorkspaceView
    from inwards_core.verification import CacheMismatch


def open_directory(
    directory: str, *, isolated: bool = False, baseline: bool = True, cache: bool = True
) -> SessionSetup:
    """The setup of a `Session` on the project holding `directory`, as `inwards check` run
    there reads it: the configuration found at or above it, the core, user (unless
    `isolated`) and project rule roots, the baseline next to the configuration (unless
    `baseline` is False), the extraction cache in `.inwards/cache/` and the worker
    processes. The session's paths are relative to the project directory (or absolute).

    Raises `ConfigNotFoundError` when no configuration is found, `ConfigError` for a
    configuration or project rule that can't be used, `BaselineError` for a baseline that
    can't be read or parsed, `FamilyLoadError` for a family that fails to load, and
    `NotADirectoryError` for a directory that isn't there (a named path that isn't there is
    `FileNotFoundError` when a check names it). Rule-root warnings (what the command prints
    as `warning:` lines) are `InwardsWarning`s.

    Without `cache`, nothing is read from or written to `.inwards/cache/` (neither the
    extraction cache nor the parsed rule definitions kept there): what the agent hooks use,
    since a branch can plant a cache that says anything."""
    start = Path(directory)
    if not start.is_dir():
        # Looking above a directory that isn't there would check some other project.
        raise NotADirectoryError(f"{directory} is not a directory.")
    found = find_config(start)
    if found is None:
        raise ConfigNotFoundError(str(start.absolute()))

    def reload() -> SessionSetup:
        importlib.invalidate_caches()  # a rule pack installed since is found by find_spec
        return open_directory(directory, isolated=isolated, baseline=baseline, cache=cache)

    loaded = read_config(found)
    # Taken first: an install while the setup is built makes the next call build it again.
    paths = installed_paths(loaded.project_dir)
    stamp = paths_stamp(paths)

    def outdated() -> bool:
        return paths_stamp(paths) != stamp

    setup = open_loaded(loaded, isolated=isolated, baseline=baseline, cache=cache)
    return attrs.evolve(setup, reload=reload, outdated=outdated)


def open_loaded(
    loaded: LoadedConfig, *, isolated: bool = False, baseline: bool = True, cache: bool = True
) -> SessionSetup:
    """`open_directory` for a configuration already read (`loaded.table` may be another
    `[tool.inwards]` than the file's, such as the one an agent's session started with). The
    setup can't reload: its configuration is the one given."""
    project_dir = loaded.project_dir
    from inwards_cli.workspace_root import view_for_config

    config = with_workspace_view(
        build_whole_config(loaded, isolated=isolated, cache=cache), view_for_config(loaded.path)
    )
    accepted = None
    if baseline:
        accepted = find_baseline(project_dir, shown=lambda relative: str(project_dir / relative))
    resolved = resolve_rule_roots(
        loaded, config, isolated=isolated, use_cache=None if cache else False
    )
    prepared = prepare(config, resolved.rule_set)
    for line in rule_warnings(resolved):
        warnings.warn(line, InwardsWarning, stacklevel=4)
    adapters = bootstrap(project_dir, no_cache=not cache)
    record_rules(resolved, digests=True)

    def finish(report: Report, outside: Sequence[str]) -> Report:
        for line in adapters.cache.warnings:
            warnings.warn(line, InwardsWarning, stacklevel=4)
        return finish_report(report, outside, project_dir, resolved.rule_set, accepted)

    return SessionSetup(
        prepared.config,
        prepared.rule_set,
        prepared.rules,
        adapters.ports,
        finish=finish,
        locate=project_locator(project_dir),
        reloads_on=setup_inputs(loaded, baseline=baseline),
        rule_sources=resolved.sources,
        recorded_digests=recorded_digests(resolved),
    )


def with_workspace_view(config: Config, view: WorkspaceView | None) -> Config:
    """The configuration as a check sees it in a uv workspace (`view`; None outside one):
    in a member, the other members' packages are the workspace's, not unknown first-party
    code or libraries; at the root, the members are not the root's code."""
    if view is None:
        return config
    return attrs.evolve(
        config,
        workspace_packages=view.workspace_packages,
        installed_portions=view.installed_portions,
    )


def recorded_digests(resolved: ResolvedRules) -> Callable[[], dict[str, str] | None]:
    """The roots' digests the cache's rule manifest holds when asked (what `inwards status`
    compares with), None without the cache."""
    manifest = resolved.manifest
    if manifest is None:
        return lambda: None
    from inwards_cli.adapters.rule_manifest import RuleRootsManifest

    return lambda: RuleRootsManifest.read(manifest.cache_dir).digests


def project_locator(
    project_dir: Path,
) -> Callable[..., tuple[tuple[str, ...], tuple[str, ...]]]:
    """A session's `locate`: paths relative to the project directory (or absolute) as POSIX
    paths relative to it, and those outside it (see `split_paths`)."""

    def locate(paths: Sequence[str], *, existing: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
        named = tuple(project_dir / path for path in paths)
        inside, outside = split_paths(named, project_dir, existing=existing)
        return tuple(inside), tuple(outside)

    return locate


def setup_inputs(loaded: LoadedConfig, *, baseline: bool) -> Callable[[str], bool]:
    """Whether a path (POSIX, relative to the project directory) is an input of the
    session's setup: the configuration, a project rule definition, the baseline."""
    config = loaded.path.resolve()
    project_dir = loaded.project_dir.resolve()
    try:
        config_name = config.relative_to(project_dir).as_posix()
    except ValueError:
        config_name = ""
    rules = PROJECT_RULES_DIR.as_posix() + "/"

    def is_input(path: str) -> bool:
        return (
            path == config_name
            or path.startswith(rules)
            or (baseline and path == BASELINE_FILE_NAME)
        )

    return is_input


def split_paths(
    paths: Sequence[Path], project_dir: Path, *, existing: bool = True
) -> tuple[list[str], list[str]]:
    """Paths -> POSIX paths relative to the project directory; and the paths outside it.
    With `existing`, raises `FileNotFoundError` (or another `OSError`) for a path that can't
    be examined; without, a path that is not there (deleted, not written yet) is placed by
    its name."""
    inside: list[str] = []
    outside: list[str] = []
    base = project_dir.resolve()
    for path in paths:
        if existing:
            os.stat(path)
        try:
            inside.append(path.resolve().relative_to(base).as_posix())
        except ValueError:
            outside.append(str(path))
    return inside, outside


def build_whole_config(
    loaded: LoadedConfig,
    *,
    isolated: bool,
    resolve: Callable[..., ResolvedRules] | None = None,
    cache: bool = True,
) -> Config:
    """`loaded.build()`; when it fails, the rules are resolved anyway so that the
    `ConfigError` also lists the rule-definition and `[tool.inwards.rules]` problems:
    one run shows everything wrong with the file. `resolve` is `resolve_rule_roots` or a
    command's wrapper of it; by default the parsed definitions cached in the project are
    read unless `cache` is False."""
    try:
        return loaded.build()
    except ConfigError as error:
        file, positions = loaded.path.name, loaded.positions
        _, policies = read_rule_settings(loaded.table, file=file, positions=positions)
        if resolve is None:
            resolve = functools.partial(resolve_rule_roots, use_cache=None if cache else False)
        resolved = resolve(
            loaded,
            None,
            isolated=isolated,
            user_rules=policies.user_rules,
            on_collision=policies.on_collision,
        )
        raise whole_config_error(
            error, loaded.table, resolved.rule_set, file=file, positions=positions
        ) from None


@attrs.frozen
class ResolvedRules:
    """The rule set a command works with, and the sources it came from."""

    __repr__ = value_repr

    sources: LocalRuleSources
    rule_set: RuleSet
    manifest: RuleRootsManifest | None
    # With `verify_cache`: the cached tables that differ from their definitions.
    cache_mismatches: tuple[CacheMismatch, ...] = ()
    # Names given to leave a plugin out (--disable-plugin, INWARDS_DISABLE_PLUGINS) that
    # no installed plugin has.
    unknown_disabled: tuple[str, ...] = ()


def resolve_rule_roots(
    loaded: LoadedConfig | None,
    config: Config | None,
    *,
    isolated: bool,
    use_cache: bool | None = None,
    verify_cache: bool = False,
    disabled: Sequence[str] = (),
    user_rules: str | None = None,
    on_collision: str | None = None,
) -> ResolvedRules:
    """Resolve core, user and project definitions with the project's `user-rules` policy
    (`config`'s, else `user_rules`, else "on") and `on-collision` policy (likewise, else
    "warn").
    A family that fails to load raises `FamilyLoadError`; definition problems are left in
    the rule set (errors stop a check, warnings don't). With `use_cache` (by default unless
    INWARDS_NO_CACHE is set), the parsed definitions kept in the project's cache directory
    are reused; with `verify_cache` too, every definition is parsed afresh and each cached
    table that differs is a mismatch (the fresh tables replace them in the manifest).
    The plugins named in `disabled` or INWARDS_DISABLE_PLUGINS are not loaded: their
    families, kinds and core definitions are absent from the run."""
    project_dir = loaded.project_dir if loaded is not None else None
    families, unknown = load_families(project_dir, disabled)
    left_out = [name for name in disabled_names(disabled) if name not in unknown]
    policy = config.user_rules if config is not None else (user_rules or "on")
    collision = config.on_collision if config is not None else (on_collision or "warn")
    sources = rule_sources(families, project_dir=project_dir, user_rules=policy, isolated=isolated)
    if use_cache is None:
        use_cache = not cache_disabled(False)
    manifest = None
    if project_dir is not None and use_cache:
        # Imported here: a run without the cache never reads or writes the manifest.
        from inwards_cli.adapters.rule_manifest import RuleRootsManifest

        manifest = RuleRootsManifest.read(project_dir / CACHE_DIR)
    fresh: dict[str, Any] | None = {} if verify_cache else None
    rule_set = load_rules(
        families,
        sources,
        user_rules=policy,
        on_collision=collision,
        parsed_tables=fresh if fresh is not None or manifest is None else manifest.tables,
    )
    mismatches: list[CacheMismatch] = []
    if manifest is not None and fresh is not None:
        mismatches = manifest.verify(fresh, sources.documents())
        manifest.tables.update(fresh)
    if left_out:
        rule_set = attrs.evolve(
            rule_set, problems=tuple(_kind_left_out(p, left_out) for p in rule_set.problems)
        )
    return ResolvedRules(sources, rule_set, manifest, tuple(mismatches), unknown)


_NO_KIND = "is not a check kind of any installed family"


def _kind_left_out(problem: DefinitionProblem, left_out: Sequence[str]) -> DefinitionProblem:
    """A definition whose kind is missing because its plugin is disabled for this run (a
    shadow of one of the family's rules, or a rule of one of its kinds) says so."""
    if problem.key != "check" or _NO_KIND not in problem.message:
        return problem
    kind = problem.message.split('"')[1] if problem.message.count('"') >= 2 else ""
    namespace = kind.partition(".")[0]
    names = ", ".join(f'"{name}"' for name in left_out)
    if any(_same_plugin(namespace, name) for name in left_out):
        message = (
            f'"{kind}" is a check kind of the plugin "{namespace}", which this run leaves out '
            f"({DISABLE_VARIABLE} or --disable-plugin), so this definition has no kind. Run "
            f"with the plugin, or move {problem.path} aside while you run without it."
        )
    else:
        message = (
            f"{problem.message} This run leaves out the plugins {names} ({DISABLE_VARIABLE} "
            "or --disable-plugin): if one of them provides it, run with it."
        )
    return attrs.evolve(problem, message=message)


def _same_plugin(namespace: str, name: str) -> bool:
    def key(text: str) -> str:
        return text.replace("_", "-").replace(".", "-").lower()

    return bool(namespace) and key(namespace) == key(name)


def load_families(
    project_dir: Path | None, disabled: Sequence[str] = ()
) -> tuple[tuple[Family, ...], tuple[str, ...]]:
    """The installed families less those of the plugins named in `disabled` or
    INWARDS_DISABLE_PLUGINS (never imported); and the names no installed plugin has.
    Raises `FamilyLoadError` for a plugin that fails to load."""
    host, unknown = installed_plugin_host(project_dir, disabled)
    return host.families(), unknown


def installed_plugin_host(
    project_dir: Path | None, disabled: Sequence[str] = ()
) -> tuple[PluginHost, tuple[str, ...]]:
    """The host of the installed plugins less those `disabled` or INWARDS_DISABLE_PLUGINS
    names (never imported), and the names no installed plugin has. Raises
    `FamilyLoadError` for a plugin that fails to load."""
    points, unknown = without_disabled(
        installed_entry_points(project_dir), disabled_names(disabled)
    )
    return PluginHost.create(entry_points=points), unknown


def unknown_plugin_warnings(unknown: Sequence[str]) -> list[str]:
    """A usage warning for each name given to disable a plugin that no installed one has."""
    if not unknown:
        return []
    installed = ", ".join(
        f"{point.name} ({point.project_name()})" for point in installed_entry_points()
    )
    return [
        f'no installed rule family plugin is named "{name}", so disabling it changes nothing '
        f"(installed: {installed or 'none'}; names come from --disable-plugin and "
        f"{DISABLE_VARIABLE})."
        for name in unknown
    ]


def rule_warnings(resolved: ResolvedRules) -> list[str]:
    """What a command prints as `warning:` lines about the rule roots."""
    lines = [
        f"{report.root.value} rules: {report.warning}"
        for report in resolved.sources.roots()
        if report.warning and report.state is not RootState.IGNORED
    ]
    lines += resolved.rule_set.warnings()
    lines += unknown_plugin_warnings(resolved.unknown_disabled)
    return lines


def record_rules(resolved: ResolvedRules, *, digests: bool) -> None:
    """Keep the parsed tables of the definitions in use (and, after a check, the roots'
    digests) in the cache's rule manifest."""
    if resolved.manifest is None:
        return
    documents = resolved.sources.documents()
    resolved.manifest.write(
        root_digests(documents, resolved.rule_set.families) if digests else None,
        {hashlib.sha256(d.data).hexdigest() for d in documents},
    )


@attrs.frozen
class LoadedBaseline:
    __repr__ = value_repr

    baseline: Baseline
    # POSIX, relative to the project directory when inside it (reporters show it relative
    # to where the user stands, like finding files).
    shown_as: str


class UnreadableBaselineError(BaselineError):
    """A baseline file that can't be read at all (absent when named, a directory, a FIFO,
    no permission): its reason is a whole sentence naming the file."""

    def render(self) -> str:
        return self.reason


def find_baseline(project_dir: Path, *, shown: Callable[[str], str]) -> LoadedBaseline | None:
    """The baseline next to the configuration (inwards-baseline.json), None when there is
    none. `shown` turns its project-relative path into the name its errors give."""
    path = project_dir / BASELINE_FILE_NAME
    if not os.path.lexists(path):
        return None
    return read_baseline(path, project_dir, named=str(Path(os.path.abspath(path))), shown=shown)


def read_baseline(
    path: Path, project_dir: Path, *, named: str, shown: Callable[[str], str]
) -> LoadedBaseline:
    """Read and parse the baseline at `path`. `named` is how a file that can't be read is
    named (`UnreadableBaselineError`); `shown` turns the project-relative path into the name
    a parse error gives (`BaselineError`). A FIFO or a device is refused, never waited on."""
    try:
        data = read_regular_file(path, max_bytes=MAX_BASELINE_BYTES)
    except (FileNotFoundError, IsADirectoryError):
        raise UnreadableBaselineError(named, f"{named} is not a file.") from None
    except NotARegularFileError as error:
        raise UnreadableBaselineError(named, f"{named} {error.strerror}.") from None
    except OSError as error:
        reason = f"can't read {named}: {failure_reason(error)}."
        raise UnreadableBaselineError(named, reason) from None
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(os.path.abspath(project_dir)).as_posix()
    except ValueError:
        relative = str(absolute)
    from inwards_core.baseline.reading import parse_baseline  # only where there is one

    return LoadedBaseline(parse_baseline(data, file=shown(relative)), relative)


def finish_report(
    report: Report,
    outside: Sequence[str],
    project_dir: Path,
    rule_set: RuleSet,
    baseline: LoadedBaseline | None,
) -> Report:
    """The engine's report with the named paths outside the project, the rule set it was
    checked with, and the baseline applied."""
    if outside:
        extra = tuple(
            NotChecked(
                path, f"{path} is outside the project at {project_dir}, so it was not checked."
            )
            for path in outside
        )
        report = attrs.evolve(report, not_checked=report.not_checked + extra)
    report = attrs.evolve(
        report,
        rule_set_fingerprint=rule_set.fingerprint(inwards_version()),
        user_definitions=rule_set.user_in_effect(),
        overlays=overlays_in_effect(rule_set),
    )
    if baseline is not None:
        from inwards_core.baseline.matching import apply_baseline

        report = apply_baseline(report, baseline.baseline, file=baseline.shown_as)
    return report
