"""`inwards diagram`: the configured layers (or contexts) as a marked diagram, the one INW017
to INW019 check and `inwards import-diagram` reads back; a picture through an optional
renderer."""

from __future__ import annotations

import enum
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from inwards_cli.commands.console import fail
from inwards_cli.commands.loading import active_rules, build_config, locate_config, plugin_host
from inwards_cli.commands.options import (
    ConfigOption,
    IsolatedOption,
    OldOutputOption,
    output_file_given,
    output_file_option,
)

if TYPE_CHECKING:
    from inwards_cli.config_file import LoadedConfig
    from inwards_core.config.values import Config
    from inwards_core.diagrams.blocks import Notation

RENDER_EXTRA = "inwards-lint[render]"
NO_RENDERER = (
    "`--format {format}` draws the Mermaid diagram with the optional renderer mermaidx, "
    "which is not installed: `pip install '{extra}'` (or `uv add '{extra}'`).",
    "Without it, a Mermaid diagram is a picture wherever Markdown shows one: "
    "`inwards diagram -o docs/layers.md` writes it in a ```mermaid block, "
    "which GitHub and GitLab draw (or paste the text into https://mermaid.live).",
)


class DiagramFormat(enum.StrEnum):
    MERMAID = "mermaid"
    PLANTUML = "plantuml"
    SVG = "svg"
    PNG = "png"


def diagram_command(
    diagram_format: Annotated[
        DiagramFormat,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="mermaid or plantuml (text), or svg or png (a picture of the Mermaid "
            "diagram, with the optional renderer: pip install 'inwards-lint[render]').",
        ),
    ] = DiagramFormat.MERMAID,
    contexts: Annotated[
        bool,
        typer.Option(
            "--contexts", help="Draw the contexts and their depends-on instead of the layers."
        ),
    ] = False,
    output_file: Annotated[
        Path | None,
        output_file_option(
            "Write to this file instead of standard output (needed for png); a .md "
            "file gets the diagram in a fenced block."
        ),
    ] = None,
    rule: Annotated[
        str | None,
        typer.Option(
            "--rule",
            help="Draw the layers an enabled rule checks (a rule of kind inw.layers, such as "
            "one `inwards import-config` wrote for a layers contract), by code or name, "
            "instead of those of [tool.inwards]; the diagram carries no marker.",
            show_default=False,
            metavar="CODE",
        ),
    ] = None,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
    old_output: OldOutputOption = None,
) -> None:
    """Print the architecture of [tool.inwards] as a diagram: each layer a box labelled
    with its modules, arrows pointing inwards (from a layer to the layers it may import),
    siblings side by side; the `%% inwards: layers` marker makes INW017-INW019 check it
    once its file is listed in `diagrams`. `--rule CODE` draws a rule's layers instead.
    Exit status 0, or 2 (no configuration, no contexts to draw, no such rule, no renderer
    for svg/png)."""
    from inwards_core.diagrams.blocks import MARKDOWN_SUFFIXES
    from inwards_core.diagrams.writing import NothingToDraw, architecture_diagram

    output = output_file_given(output_file, old_output)
    if rule is not None and contexts:
        fail("error: --rule draws a rule's layers and --contexts the contexts; choose one.")
    loaded = locate_config(config)
    built = build_config(loaded)
    notation: Notation = "plantuml" if diagram_format is DiagramFormat.PLANTUML else "mermaid"
    if rule is not None:
        text = _rule_diagram(loaded, built, rule, notation, isolated=isolated)
    else:
        try:
            text = architecture_diagram(built, "contexts" if contexts else "layers", notation)
        except NothingToDraw as error:
            fail(f"error: {error}; `inwards diagram` without --contexts draws the layers.")
    if diagram_format in (DiagramFormat.SVG, DiagramFormat.PNG):
        _write_picture(text, diagram_format, output)
        return
    if output is not None and output.suffix.lower() in MARKDOWN_SUFFIXES:
        text = f"```{notation}\n{text}```\n"
    _write(text.encode("utf-8"), output)


def _rule_diagram(
    loaded: LoadedConfig, built: Config, wanted: str, notation: Notation, *, isolated: bool
) -> str:
    """The diagram of the layers the enabled rule `wanted` (a code or a name) checks."""
    from inwards_core.diagrams.writing import rule_diagram
    from inwards_core.reporting.escaping import printable

    rules = active_rules(loaded, built, isolated=isolated)
    found = next((r for r in rules if wanted.strip() in (r.code, r.name)), None)
    shown = printable(wanted)
    if found is None:
        fail(f"error: --rule {shown}: no rule has that code or name (`inwards rules` lists them).")
    if not found.enabled:
        fail(
            f"error: --rule {shown}: {found.code} is off in this project, so it checks no "
            "layers; turn it on in [tool.inwards.rules] to draw them."
        )
    layering = plugin_host(loaded.project_dir).rule_layering(found)
    if layering is None:
        fail(
            f"error: --rule {shown}: {found.code} (kind {found.rule.kind.id}) checks no layers; "
            "--rule draws a rule of a kind that layers modules, such as inw.layers."
        )
    return rule_diagram(layering, found.rule.definition.origin.path, notation)


def _write_picture(text: str, diagram_format: DiagramFormat, output: Path | None) -> None:
    if diagram_format is DiagramFormat.PNG and output is None:
        fail(
            "error: `--format png` needs `--output-file FILE`: a picture is not written to a "
            "terminal."
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import mermaidx  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        fail(*(line.format(format=diagram_format, extra=RENDER_EXTRA) for line in NO_RENDERER))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawn = mermaidx.render(text)
            picture = (
                drawn.svg().encode("utf-8")
                if diagram_format is DiagramFormat.SVG
                else drawn.png(background="#ffffff")
            )
    except Exception as error:  # a renderer of another project: say what it said, exit 2
        fail(f"error: mermaidx could not draw the diagram: {error}")
    _write(picture, output)


def _write(payload: bytes, output: Path | None) -> None:
    from inwards_cli.adapters.atomic import failure_reason, write_user_file
    from inwards_cli.adapters.standard_output import write_standard_output

    if output is None:
        write_standard_output(payload.decode("utf-8"), "the diagram")
        return
    try:
        write_user_file(output, payload)
    except OSError as error:
        fail(f"error: can't write the diagram to {output}: {failure_reason(error)}.")
