"""The `[tool.inwards]` table a conversion writes, its comment, and the names it gives."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from inwards_core.migration.importlinter_read import Contract, ImportLinterConfig

_COMMENT_WIDTH = 86


def inwards_table(
    config: ImportLinterConfig, root: str, top_level: Sequence[str], codes: tuple[str, ...]
) -> dict[str, Any]:
    tops = {package.split(".")[0] for package in config.root_packages}
    ignore = sorted(f"/{name}" for name in top_level if name not in tops)
    table: dict[str, Any] = {"root": root}
    if ignore:
        table["ignore"] = ignore
    table["layers"] = [
        {"name": layer_name(package), "modules": [package]} for package in config.root_packages
    ]
    table["cycles"] = []
    table["rules"] = {"select": list(codes)}
    return table


def table_comment(config: ImportLinterConfig, other_rules: Sequence[tuple[str, str]]) -> str:
    lines = [
        f"Converted from import-linter's contracts in {config.file} by `inwards import-config`:",
        "one project rule per contract in .inwards/rules/IL0NN.toml, the only rules turned on.",
    ]
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
