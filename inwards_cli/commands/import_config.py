"""`inwards import-config [FILE]`: convert import-linter's contracts to inwards.

Reads the configuration import-linter would read in the project directory (or FILE), and
writes `[tool.inwards]` into `pyproject.toml` (every other byte kept) and one project rule
definition per contract into `.inwards/rules/`. `--dry-run` prints all of it instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import attrs
import typer

from inwards_cli.commands.console import fail, warn, write_text
from inwards_core.reporting.escaping import printable

if TYPE_CHECKING:
    from inwards_core.migration.importlinter_convert import Conversion, Definition
    from inwards_core.rules.kinds import Family

RULES_DIRECTORY = Path(".inwards") / "rules"
_ONE_LINE = 70  # a longer list of options is written one item a line


def import_config_command(
    file: Annotated[
        Path | None,
        typer.Argument(
            help="The import-linter configuration to read (.importlinter, setup.cfg or "
            "pyproject.toml); by default the one import-linter finds in the current "
            "directory. Its directory is the project directory.",
            show_default=False,
            metavar="FILE",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Print the table, the diff and the definitions; write nothing."
        ),
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Replace an existing [tool.inwards] table and existing IL definition files.",
        ),
    ] = False,
) -> None:
    """Convert import-linter contracts: one project rule per contract (IL001, ...), turned
    on alone in a new [tool.inwards] table, so `inwards check` gives lint-imports' verdicts."""
    from inwards_cli.commands.loading import plugin_host
    from inwards_core.migration.importlinter_convert import CODE_PREFIX, MAX_DEFINITIONS, convert
    from inwards_core.migration.importlinter_read import (
        SEARCH_ORDER,
        ReadProblem,
        read_importlinter,
    )

    project = (file.parent if file is not None else Path.cwd()).resolve()
    names = SEARCH_ORDER if file is None else (file.name,)
    texts = _read_texts(project, names)
    config = read_importlinter(texts, named=None if file is None else file.name)
    if isinstance(config, ReadProblem):
        where = f"{project / config.file}" if config.file else str(project)
        line = f":{config.line}" if config.line else ""
        fail(f"import-config: {where}{line}: {config.message}")
    # The file's name is written into TOML comments and the report: shown escaped, a
    # control character or a line break in it can't end a comment or forge a line.
    config = attrs.evolve(config, file=printable(config.file))
    if not config.root_packages:
        fail(f"import-config: {config.file}: [importlinter] sets no root_package(s)")
    root = _root_directory(project, config.root_packages)
    families = plugin_host(project)
    kinds = families.import_linter_kinds()
    if not kinds:
        fail(
            "import-config: no rule family of this run has kinds for import-linter's contracts "
            "(a plugin left out with INWARDS_DISABLE_PLUGINS takes its kinds with it)."
        )
    conversion = convert(
        config,
        root=root,
        kinds=kinds,
        top_level=_top_level(project / root),
        other_rules=_other_rules(families.families(), kinds.values()),
    )
    if len(conversion.definitions) > MAX_DEFINITIONS:
        fail(
            f"import-config: {config.file}: more than {MAX_DEFINITIONS} contracts to convert, "
            f"but rule codes have three digits ({CODE_PREFIX}001 to {CODE_PREFIX}"
            f"{MAX_DEFINITIONS}); split the contracts between configurations"
        )
    pyproject = project / "pyproject.toml"
    old = _read_optional(pyproject)
    new = _with_table(old, conversion, force=force)
    definitions = {d.code: definition_text(d, config.file) for d in conversion.definitions}
    if dry_run:
        _print_dry_run(old, new, definitions, project)
    else:
        _write(project, pyproject, new, definitions, force=force)
    _print_report(conversion, config.file)


def _read_texts(project: Path, names: tuple[str, ...]) -> dict[str, str]:
    """The files import-linter would read, with `check`'s limits: a regular file of at most
    `MAX_CONFIG_BYTES`, inside the project (a link out of it is refused, not followed)."""
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.adapters.reading import read_regular_file
    from inwards_cli.config_file import MAX_CONFIG_BYTES

    texts = {}
    for name in names:
        path = project / name
        if not path.is_file():
            continue
        leads_to = Path(os.path.realpath(path))
        if not leads_to.is_relative_to(project):
            fail(
                f"import-config: {path}: is a symbolic link to {leads_to}, outside the project "
                f"at {project}; import-config reads only files inside it"
            )
        try:
            texts[name] = read_regular_file(path, max_bytes=MAX_CONFIG_BYTES).decode("utf-8")
        except OSError as error:
            fail(f"import-config: {path}: can't be read: {failure_reason(error)}")
        except UnicodeDecodeError as error:
            fail(f"import-config: {path}: can't be read ({error})")
    return texts


def _root_directory(project: Path, packages: tuple[str, ...]) -> str:
    """ "." when the root packages stand in the project directory, "src" for a src layout."""
    for candidate in (".", "src"):
        base = project / candidate
        if all(_has_module(base, package.split(".")[0]) for package in packages):
            return candidate
    warn(
        f"none of {', '.join(packages)} was found in {project} or {project / 'src'}; "
        'root = "." is written: change it to the directory holding them'
    )
    return "."


def _has_module(base: Path, name: str) -> bool:
    return (base / name).is_dir() or (base / f"{name}.py").is_file()


def _top_level(root: Path) -> tuple[str, ...]:
    """The module names directly under `root` that hold Python code: what inwards would
    read there besides the root packages (directories as inwards skips them are left out)."""
    from inwards_core.ports import is_skipped_directory_name

    names = []
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return ()
    for entry in entries:
        if is_skipped_directory_name(entry.name):
            continue
        if entry.is_file() and entry.suffix == ".py" and entry.stem.isidentifier():
            names.append(entry.stem)
        elif entry.is_dir() and entry.name.isidentifier() and _holds_python(entry):
            names.append(entry.name)
    return tuple(names)


def _holds_python(directory: Path) -> bool:
    from inwards_core.ports import VIRTUALENV_MARKER

    if (directory / VIRTUALENV_MARKER).exists():
        return False
    return next(directory.rglob("*.py"), None) is not None


def _other_rules(families: Sequence[Family], kinds: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """The rules of the families whose kinds the contracts become, which the converted
    table leaves off (an always-on rule can't be left off)."""
    from inwards_core.api import load_rules
    from inwards_core.rules.kinds import kinds_by_id

    owners = kinds_by_id(families)
    prefixes = tuple({owners[kind][0].prefix for kind in kinds if kind in owners})
    rule_set = load_rules(families)
    return tuple(
        (code, chain[0].name)
        for code, chain in sorted(rule_set.chains.items())
        if code.startswith(prefixes) and not chain[0].always_on
    )


def _read_optional(path: Path) -> str:
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.adapters.reading import read_regular_file
    from inwards_cli.config_file import MAX_CONFIG_BYTES

    try:
        return read_regular_file(path, max_bytes=MAX_CONFIG_BYTES).decode("utf-8")
    except FileNotFoundError:
        return ""
    except OSError as error:
        fail(f"import-config: {path}: can't be read: {failure_reason(error)}")
    except UnicodeDecodeError as error:
        fail(f"import-config: {path}: can't be read ({error})")


def _with_table(old: str, conversion: Conversion, *, force: bool) -> str:
    from inwards_cli.pyproject_edit import PyprojectEditError, with_inwards_table

    try:
        return with_inwards_table(old, conversion.table, conversion.comment, replace=force)
    except PyprojectEditError as error:
        where = f"pyproject.toml:{error.line}" if error.line else "pyproject.toml"
        fail(f"import-config: {where}: {error.message}")


def definition_text(definition: Definition, source: str) -> str:
    """The TOML of one converted definition, laid out as `inwards rules new` writes one."""
    import tomlkit

    document = tomlkit.document()
    document.add(tomlkit.comment(f"{definition.code}: converted by `inwards import-config` from"))
    document.add(tomlkit.comment(f"import-linter's contract {definition.contract!r} in {source}."))
    document.add(tomlkit.nl())
    document.add("code", definition.code)
    document.add("name", definition.name)
    document.add("summary", definition.summary)
    document.add("check", definition.kind)
    document.add("default", "on")
    document.add("severity", "error")
    document.add("suppressible", False)
    options = tomlkit.table()
    for key, value in definition.options:
        options.add(key, _toml_value(value))
    document.add(tomlkit.nl())
    document.add("options", options)
    if definition.guidance:
        lines = [line.strip() for line in definition.guidance.splitlines() if line.strip()]
        guidance = tomlkit.table()
        guidance.add("summary", _literal_braces(lines[0]))
        if lines[1:]:
            steps = tomlkit.array()
            for line in lines[1:]:
                steps.append(_literal_braces(line))
            guidance.add("steps", steps.multiline(True))
        document.add(tomlkit.nl())
        document.add("guidance", guidance)
    return tomlkit.dumps(document)


def _toml_value(value: Any) -> Any:
    import tomlkit

    if isinstance(value, list) and len(repr(value)) > _ONE_LINE:
        array = tomlkit.array()
        for item in value:
            array.append(item)
        return array.multiline(True)
    return value


def _literal_braces(text: str) -> str:
    """Guidance is a template: braces from import-linter's text are written doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def _print_dry_run(old: str, new: str, definitions: dict[str, str], project: Path) -> None:
    from inwards_cli.pyproject_edit import unified_diff

    write_text(f"# pyproject.toml ({project / 'pyproject.toml'}), as it would change:\n")
    write_text(unified_diff(old, new, "pyproject.toml"))
    for code, text in definitions.items():
        write_text(f"\n# {RULES_DIRECTORY / f'{code}.toml'}:\n")
        write_text(text)
    write_text("\n(dry run: nothing written)\n")


def _write(
    project: Path, pyproject: Path, new: str, definitions: dict[str, str], *, force: bool
) -> None:
    from inwards_cli.adapters.atomic import RefusedTargetError
    from inwards_cli.definition_files import refuse_links_out

    directory = project / RULES_DIRECTORY
    targets = {code: directory / f"{code}.toml" for code in definitions}
    _refuse_taken(directory, targets.values(), force=force)
    writes = [(targets[code], text.encode("utf-8")) for code, text in definitions.items()]
    writes.append((pyproject, new.encode("utf-8")))
    try:
        for path in targets.values():
            refuse_links_out(project, path)
        _write_all_or_nothing(writes)
    except RefusedTargetError as error:
        fail(f"import-config: {error}")
    except _WriteFailedError as error:
        fail(f"import-config: {error.path}: {error.error.strerror or error.error}")
    for path, _data in writes:
        sys.stdout.write(f"wrote {path.relative_to(project)}\n")


def _refuse_taken(directory: Path, targets: Iterable[Path], *, force: bool) -> None:
    """Exit 2 when a definition file is there already (without --force), or one whose name
    differs only in case: on a case-insensitive disk it is the same file, on any other two
    files would define one code."""
    try:
        present = sorted(os.listdir(directory))
    except OSError:
        return  # no folder yet (or none readable: the write says why)
    wanted = {target.name.lower(): target for target in targets}
    for name in present:
        target = wanted.get(name.lower())
        if target is not None and name != target.name:
            fail(
                f"import-config: {directory / name} is there, which differs from "
                f"{target.name} only in case; rename or remove it first"
            )
    taken = [target for target in wanted.values() if target.name in present]
    if taken and not force:
        fail(
            f"import-config: {taken[0]} already exists (a rule with that code is defined); "
            "pass --force to overwrite the IL definitions"
        )


class _WriteFailedError(Exception):
    def __init__(self, path: Path, error: OSError) -> None:
        super().__init__(str(error))
        self.path = path
        self.error = error


def _write_all_or_nothing(writes: Sequence[tuple[Path, bytes]]) -> None:
    """Write every file (each atomically) or, when one fails, put back the ones already
    written: a half-converted project (rule files without the table that turns them on)
    would make the rerun refuse. Raises `_WriteFailedError` naming the file that failed, or
    `RefusedTargetError` (see `write_user_file`)."""
    import contextlib

    from inwards_cli.adapters.atomic import RefusedTargetError, write_user_file

    created: dict[Path, None] = {}  # the folders to make, innermost first
    for path, _data in writes:
        folder = path.parent
        while not folder.exists() and folder not in created:
            created[folder] = None
            folder = folder.parent
    done: list[tuple[Path, bytes | None]] = []
    try:
        for path, data in writes:
            old = path.read_bytes() if path.is_file() and not path.is_symlink() else None
            try:
                write_user_file(path, data)
            except RefusedTargetError:
                raise
            except OSError as error:
                raise _WriteFailedError(path, error) from None
            done.append((path, old))
    except BaseException:
        for path, old in reversed(done):
            with contextlib.suppress(OSError):
                if old is None:
                    path.unlink()
                else:
                    write_user_file(path, old)
        for folder in created:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _print_report(conversion: Conversion, source: str) -> None:
    lines = [f"import-linter contracts in {source}:"]
    for report in conversion.reports:
        code = report.code or "-"
        where = f"{source}:{report.line}" if report.line else source
        lines.append(
            f"  {code} {(report.name or report.contract)!r} ({where}): {report.status.value}"
        )
        lines += [f"      {note}" for note in report.notes]
    if conversion.layers_from is not None:
        layered = conversion.layers_from
        lines.append(
            f"  layers: [tool.inwards] has the layers of {layered.code} {layered.label!r}, "
            "which `inwards diagram`, `explain-module` and `context` show"
        )
    lines += [f"  note: {note}" for note in conversion.notes]
    # Notes quote the contracts and `source` is the FILE given: a line break in either
    # must not start a line of its own.
    write_text("\n".join(map(printable, lines)) + "\n")
