"""`inwards explain-module MODULE`: which layer and context own a module, which entry matched
and why, and what the module may import (the first family plugin that explains modules
answers: INW's `module_explanation`)."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_cli.commands.console import fail, write_text
from inwards_cli.commands.loading import active_rules, build_config, locate_config, plugin_host
from inwards_cli.commands.options import ConfigOption, IsolatedOption
from inwards_core import ModuleIndex


def explain_module_command(
    module: Annotated[
        str,
        typer.Argument(
            metavar="MODULE", help="A dotted module or package name (shop.adapters.outbound)."
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print a JSON object with the keys module, file, is_package, layer (name, "
            "key, entry, kind, why, also_matching), context (name, key, prefix, public, "
            "public_entry), ignored, generated, shapes (as_member, as_package: key and package), may_import (layers, libraries "
            "with allow and deny, contexts) and rules (code, name, kind, says; for inw.layers "
            "also layer, container, may_import, may_not_import); null where nothing applies.",
        ),
    ] = False,
    isolated: IsolatedOption = False,
    config: ConfigOption = None,
) -> None:
    """Explain a module: the layer that owns it and the entry that won (and why), its
    context and whether it is public there, whether `ignore` or `generated` cover it, the
    shapes over it, what it may import (layers, libraries per INW005, contexts), and what
    the enabled rules of the generic kinds (inw.layers, inw.forbidden, ...: import-config's
    rules among them) say about it. Never imports the project's code. Exit status 0, or 2
    for a name that is no module of the project or a configuration problem."""
    loaded = locate_config(config)
    built = build_config(loaded)
    listing = LocalProjectFiles(loaded.project_dir).listing(built.root)
    index = ModuleIndex.build(built, listing)
    name = module.strip()
    if name not in index.modules:
        close = index.closest_modules(name)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        fail(f'"{name}" is not a module of this project (under root "{built.root}").{hint}')
    enabled = {
        rule.code: rule for rule in active_rules(loaded, built, isolated=isolated) if rule.enabled
    }
    explanation = plugin_host(loaded.project_dir).explain_module(built, index, name, enabled)
    if explanation is None:
        fail(
            "explain-module: no rule family of this run explains modules (a plugin left out "
            "with INWARDS_DISABLE_PLUGINS takes its explanation with it)."
        )
    if as_json:
        sys.stdout.write(json.dumps(explanation.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        write_text(explanation.render())
