"""The `[tool.inwards]` table a conversion writes, its comment, and the names it gives."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from inwards_core.migration.importlinter_layers import LayeredContract
from inwards_core.migration.importlinter_read import Contract, ImportLinterConfig

_COMMENT_WIDTH = 86


def inwards_table(
    config: ImportLinterConfig,
    root: str,
    top_level: Sequence[str],
    codes: tuple[str, ...],
    layers: Sequence[Any] = (),
) -> dict[str, Any]:
    """The table; `layers` those of a layers contract (see `importlinter_layers`), else
    one layer per root package."""
    tops = {package.split(".")[0] for package in config.root_packages}
    ignore = sorted(f"/{name}" for name in top_level if name not in tops)
    table: dict[str, Any] = {"root": root}
    if ignore:
        table["ignore"] = ignore
    table["layers"] = list(layers) or [
        {"name": layer_name(package), "modules": [package]} for package in config.root_packages
    ]
    table["cycles"] = []
    table["rules"] = {"select": list(codes)}
    return table


def table_comment(
    config: ImportLinterConfig,
    other_rules: Sequence[tuple[str, str]],
    layers_from: LayeredContract | None = None,
) -> str:
    lines = [
        f"Converted from import-linter's contracts in {config.file} by `inwards import-config`:",
        "one project rule per contract in .inwards/rules/IL0NN.toml, the only rules turned on.",
    ]
    if layers_from is not None:
        about = (
            f"The layers are those of {layers_from.code} ({_one_line(layers_from.label)}), "
            "which checks them as lint-imports did (chains and ignored imports included). "
            "INW001 and INW006 are off: on, INW001 would check direct imports between the "
            "layers without the contract's ignores, and INW006 report code no layer owns."
        )
        lines += textwrap.wrap(about, _COMMENT_WIDTH, break_long_words=False)
    if other_rules:
        lines.append("Other rules, ready to turn on with [tool.inwards.rules] extend-select:")
        line = ""
        for code, name in other_rules:
            item = f"{code} {name}"
            if line and len(line) + len(item) > _COMMENT_WIDTH:
                lines.append(line + ",")
                line = ""
            line = f"{line}, {item}" if line else f"  {item}"
        lines.append(line + ".")
    return "\n".join(lines)


def rule_name(contract: Contract) -> str:
    """`il-` and the contract's id (else its name) in kebab case."""
    words = re.sub(r"[^a-z0-9]+", "-", contract.label.lower()).strip("-")
    return f"il-{words}" if words else "il-contract"


def layer_name(package: str) -> str:
    return package.replace(".", "-")


def _one_line(text: str) -> str:
    """A contract's label inside a comment line: quoted, its line breaks made spaces."""
    return repr(" ".join(text.split()))
