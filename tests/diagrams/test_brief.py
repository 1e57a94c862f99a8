"""The architecture brief: what it says for each part of the configuration, the golden brief
of examples/shop, and how it is kept between markers."""

from __future__ import annotations

from pathlib import Path

import pytest

from inwards_core import load_config_text
from inwards_core.api import load_rules
from inwards_core.diagrams.brief import (
    BEGIN_MARKER,
    END_MARKER,
    MarkerError,
    architecture_brief,
    with_brief,
)
from inwards_core.families.inw import plugin as inw_plugin
from inwards_core.plugins import PluginHost
from inwards_core.rules.selection import select

# The brief's INW lines come from the INW plugin, as `inwards context` gets them.
INW_ONLY = PluginHost.create(plugins=[inw_plugin])

GOLDEN = Path(__file__).parent / "golden" / "shop-brief.md"

FULL = """
[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["app.domain"], extend-deny-libraries = ["pandas"] },
  [
    { name = "api", modules = ["app.api"], allow-libraries = ["fastapi"] },
    { name = "jobs", modules = ["app.jobs"], deny-libraries = ["requests"] },
  ],
]
rules.extend-select = ["INW014", "INW017"]

[tool.inwards.rules.ports-abstract]
modules = ["app.domain.ports"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["app.domain.billing"]
public = ["app.domain.billing.api", "=app.domain.billing"]
depends-on = ["catalog"]

[[tool.inwards.contexts]]
name = "catalog"
modules = ["app.domain.catalog"]
"""


def brief_of(text: str) -> str:
    config = load_config_text(text)
    return architecture_brief(config, select(load_rules(), config.rules), INW_ONLY)


def test_the_brief_of_a_full_configuration() -> None:
    lines = brief_of(FULL).splitlines()
    assert lines[0] == "## Architecture brief (inwards)"
    assert "1. **domain** (`app.domain`): imports no other layer." in lines
    assert "2. **api** (`app.api`) and **jobs** (`app.jobs`): may import domain." in lines
    assert "   Also kept out: `pandas`." in lines
    assert "   Third-party libraries of api: only `fastapi`." in lines
    assert "   Libraries kept out of jobs: `requests`." in lines
    assert "- api, jobs" in lines
    assert (
        "Ports live in `app.domain.ports`: interfaces only (abstract classes, protocols, "
        "values), no working code (INW014)." in lines
    )
    assert (
        "- **billing** (`app.domain.billing`); public `app.domain.billing.api`, "
        "`=app.domain.billing`; may import catalog." in lines
    )
    assert "- **catalog** (`app.domain.catalog`); may import no other context." in lines
    opt_in = lines[lines.index("Opt-in rules on:") + 1 :]
    assert [line.split(":")[0] for line in opt_in[:2]] == [
        "- INW014 ports-abstract",
        "- INW017 diagram-unknown-name",
    ]
    assert brief_of(FULL) == brief_of(FULL)  # same configuration, same bytes


def test_the_golden_brief_of_the_shop() -> None:
    """`inwards context --isolated` in examples/shop (tests/e2e checks the command prints
    this file)."""
    shop = Path(__file__).parents[2] / "examples" / "shop"
    text = (shop / "pyproject.toml").read_text(encoding="utf-8")
    config = load_config_text(text)
    brief = architecture_brief(config, select(load_rules(), config.rules), INW_ONLY)
    # The shop's project rule SHOP001 comes from its .inwards/rules, which load_rules()
    # does not read; the golden file, written by the command, has it.
    golden = GOLDEN.read_text(encoding="utf-8")
    assert brief == golden.replace(
        "\nProject rules:\n- SHOP001 adapters-wired-in-bootstrap: Only the composition root "
        "may import the outbound adapters.\n",
        "",
    )


def test_the_docs_show_the_golden_brief() -> None:
    """docs/diagrams-and-brief.md shows the shop's brief as an illustrative block, which
    the doc snippet tests don't run: it must stay the golden file, byte for byte."""
    docs = Path(__file__).parents[2] / "docs" / "diagrams-and-brief.md"
    golden = GOLDEN.read_text(encoding="utf-8")
    assert f"```markdown\n{golden}```\n" in docs.read_text(encoding="utf-8")


def test_the_brief_goes_between_the_markers() -> None:
    block = f"{BEGIN_MARKER}\nB\n{END_MARKER}\n"
    assert with_brief("", "B\n") == block
    assert with_brief("# Agents\n", "B\n") == f"# Agents\n\n{block}"
    kept = f"# Agents\n\nbefore\n{BEGIN_MARKER}\nold\n{END_MARKER}\nafter\n"
    assert with_brief(kept, "B\n") == f"# Agents\n\nbefore\n{block}after\n"
    assert with_brief(with_brief(kept, "B\n"), "B\n") == with_brief(kept, "B\n")
    crlf = f"x\r\n{BEGIN_MARKER}\r\nold\r\n{END_MARKER}\r\ny\r\n"
    assert with_brief(crlf, "B\n") == f"x\r\n{BEGIN_MARKER}\r\nB\r\n{END_MARKER}\r\ny\r\n"


@pytest.mark.parametrize(
    "text",
    [
        f"{END_MARKER}\n{BEGIN_MARKER}\n",
        f"{BEGIN_MARKER}\nno end\n",
        f"{BEGIN_MARKER}\n{END_MARKER}\n{BEGIN_MARKER}\n{END_MARKER}\n",
    ],
)
def test_markers_out_of_order_are_refused(text: str) -> None:
    with pytest.raises(MarkerError, match="must stand once each"):
        with_brief(text, "B\n")
