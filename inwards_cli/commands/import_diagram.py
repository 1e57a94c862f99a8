"""`inwards import-diagram FILE`: a marked layers diagram (Mermaid or PlantUML) into a
`[tool.inwards]` proposal for the `pyproject.toml` of the current directory, with the
diagram listed in `diagrams` and the diagram rules on, so the two stay in step."""

from __future__ import annotations

import errno
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from inwards_cli.commands.console import fail, warn, write_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from inwards_core.diagrams.model import Diagram
    from inwards_core.diagrams.ranking import ProposedLayer

DIAGRAM_RULES = ("INW017", "INW018", "INW019")
NO_MARKED_DIAGRAM = (
    "{file}: no marked layers diagram: a Mermaid flowchart (.mmd, .mermaid, or a ```mermaid "
    "block of a .md file) or a PlantUML diagram (.puml, .plantuml, .pu, .iuml, or a "
    "```plantuml block) holding the line `%% inwards: layers` (PlantUML: `' inwards: layers`)"
)


def import_diagram_command(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="The file holding the marked layers diagram (.md, .mmd, .puml, ...).",
            show_default=False,
        ),
    ],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the change to pyproject.toml; write nothing.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Change an existing [tool.inwards] table: its layers and diagrams are "
            "replaced, the diagram rules added, every other key kept.",
        ),
    ] = False,
) -> None:
    """Propose [tool.inwards] layers from a drawn architecture diagram: each box a layer
    (its label lists the modules), a layer's rank the longest path of arrows from it
    inwards, boxes of one rank siblings. Cycles are refused. Writes pyproject.toml in the
    current directory, with `diagrams = [FILE]` and INW017-INW019 on. Exit status 0, or 2."""
    from inwards_core.diagrams.ranking import RankingError, layers_entries, rank_layers

    project = Path.cwd()
    entry = _diagrams_entry(project, file)
    diagram = _read_diagram(file, project.resolve() / entry, entry)
    try:
        ranks = rank_layers(diagram)
    except RankingError as error:
        fail(f"import-diagram: {error}")
    pyproject = project / "pyproject.toml"
    old = _read_optional(pyproject)
    table = _proposed_table(old, layers_entries(ranks), entry, root=_root(project, ranks))
    new = _with_table(old, table, force=force)
    _check_proposal(new)
    names = " | ".join(", ".join(layer.name for layer in rank) for rank in ranks)
    if dry_run:
        from inwards_cli.pyproject_edit import unified_diff

        write_text(f"# {pyproject}, as it would change:\n")
        write_text(unified_diff(old, new, "pyproject.toml"))
        write_text(f"layers, innermost first: {names}\n(dry run: nothing written)\n")
        return
    _write(pyproject, new)
    sys.stdout.write(f"wrote pyproject.toml: layers, innermost first: {names}\n")


def _diagrams_entry(project: Path, file: Path) -> str:
    """FILE as `diagrams` lists it: its real path (links resolved) relative to the project
    directory, in POSIX form. A file, or a link to one, outside the project is refused: the
    diagram rules read only files inside it, and neither does this command read others."""
    resolved = file.resolve()
    try:
        relative = resolved.relative_to(project.resolve())
    except ValueError:
        through = f" (a symbolic link to {resolved})" if file.is_symlink() else ""
        fail(
            f"import-diagram: {file}{through} is outside the project directory {project}: "
            "`diagrams` lists files inside it; copy the diagram into the project first"
        )
    return relative.as_posix()


def _read_diagram(file: Path, real: Path, entry: str) -> Diagram:
    """The marked layers diagram of `file`, read at `real`, its resolved path inside the
    project, as the diagram rules read it: a regular file of at most MAX_DOCUMENT_BYTES,
    UTF-8 (a byte-order mark dropped). Not through a link: `real` has none left, so one
    that appeared since is refused rather than followed. A FIFO is refused, not waited on."""
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file
    from inwards_core.diagrams.blocks import find_blocks
    from inwards_core.diagrams.reading import parse_diagram_block
    from inwards_core.extraction.documents import MAX_DOCUMENT_BYTES

    try:
        data = read_regular_file(real, follow_symlinks=False, max_bytes=MAX_DOCUMENT_BYTES)
    except NotARegularFileError as error:
        fail(f"import-diagram: {file} {error.strerror}; a diagram is read from a file.")
    except OSError as error:
        fail(f"import-diagram: {file}: can't be read: {failure_reason(error)}.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        fail(
            f"import-diagram: {file}:{line}: is not UTF-8 text (byte {error.start + 1} of the "
            "file); a diagram file must be UTF-8."
        )
    block = next((b for b in find_blocks(entry, text) if b.kind == "layers"), None)
    if block is None:
        fail(f"import-diagram: {NO_MARKED_DIAGRAM.format(file=entry)}")
    diagram = parse_diagram_block(block, entry)
    for problem in diagram.problems:
        warn(f"{entry}:{problem.line}:{problem.column}: {problem.message}")
    return diagram


def _root(project: Path, ranks: Sequence[Sequence[ProposedLayer]]) -> str:
    """ "src" when the diagram's top-level packages stand in project/src, else "."."""
    tops = {module.split(".")[0] for rank in ranks for layer in rank for module in layer.modules}
    tops.discard("*")
    src = project / "src"
    found = [t for t in tops if (src / t).is_dir() or (src / f"{t}.py").is_file()]
    return "src" if tops and len(found) == len(tops) else "."


def _read_optional(path: Path) -> str:
    """The text of `pyproject.toml`, "" when there is none, read as `check` reads its
    configuration (a regular file of at most MAX_CONFIG_BYTES; a FIFO is refused, not
    waited on) and never through a link, which the write would refuse too."""
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.adapters.reading import NotARegularFileError, read_regular_file
    from inwards_cli.config_file import MAX_CONFIG_BYTES

    try:
        data = read_regular_file(path, follow_symlinks=False, max_bytes=MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return ""
    except NotARegularFileError as error:
        fail(f"import-diagram: {path} {error.strerror}; the table is written into a file.")
    except OSError as error:
        if error.errno == errno.ELOOP:
            fail(
                f"import-diagram: {path} is a symbolic link; the table is written only into "
                "the file itself (replace the link with the file)."
            )
        fail(f"import-diagram: {path}: can't be read: {failure_reason(error)}.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        fail(
            f"import-diagram: {path}:{line}: is not UTF-8 text (byte {error.start + 1} of the "
            "file); TOML files must be UTF-8."
        )


def _proposed_table(old: str, layers: list[object], entry: str, *, root: str) -> dict[str, Any]:
    """The new table: an existing one's keys kept (with --force), `layers` replaced, the
    diagram added to `diagrams` and INW017-INW019 to `rules.extend-select`."""
    try:
        present = tomllib.loads(old).get("tool", {}).get("inwards", {})
    except tomllib.TOMLDecodeError:
        present = {}  # with_inwards_table says where the file is broken
    table: dict[str, Any] = dict(present) if isinstance(present, dict) else {}
    table.setdefault("root", root)
    table["layers"] = layers
    table["diagrams"] = [entry]
    rules = dict(table.get("rules", {})) if isinstance(table.get("rules"), dict) else {}
    chosen = [code for code in rules.get("extend-select", []) if code not in DIAGRAM_RULES]
    rules["extend-select"] = [*chosen, *DIAGRAM_RULES]
    table["rules"] = rules
    return table


def _with_table(old: str, table: dict[str, Any], *, force: bool) -> str:
    from inwards_cli.pyproject_edit import PyprojectEditError, with_inwards_table

    comment = (
        "Proposed by `inwards import-diagram` from the diagram listed in `diagrams`; the\n"
        "diagram rules (INW017-INW019) keep the two in step."
    )
    try:
        return with_inwards_table(old, table, comment, replace=force)
    except PyprojectEditError as error:
        where = f"pyproject.toml:{error.line}" if error.line else "pyproject.toml"
        fail(f"import-diagram: {where}: {error.message}")


def _check_proposal(new: str) -> None:
    """The proposal must load as a configuration (a module in two boxes, say, does not)."""
    from inwards_core.api import load_config_text
    from inwards_core.config.values import ConfigError

    try:
        load_config_text(new)
    except ConfigError as error:
        fail(
            "import-diagram: the proposed table is not a valid configuration:",
            *(f"  {problem.render()}" for problem in error.problems),
        )


def _write(pyproject: Path, new: str) -> None:
    from inwards_cli.adapters.atomic import failure_reason
    from inwards_cli.pyproject_edit import write_pyproject

    try:
        write_pyproject(pyproject, new)
    except OSError as error:
        fail(f"import-diagram: can't write {pyproject}: {failure_reason(error)}")
