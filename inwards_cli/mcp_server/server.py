"""The MCP server of `inwards mcp`, on the official SDK's `MCPServer` (stdio transport).

Every tool is read-only and answers JSON with a declared output schema: the schemas of the
documents the matching commands print (`inwards schema NAME`). The answers themselves come
from `McpProject` (project.py); this module only speaks the protocol. Its log goes to
stderr: stdout carries the protocol and nothing else.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import ToolAnnotations
from pydantic import Field

from inwards_cli.mcp_server.project import McpProject, Refused
from inwards_core.authoring.rule_page_schema import rule_page_schema
from inwards_core.model.json_schema import JSON
from inwards_core.reporting.diagnostics_schema import diagnostics_schema
from inwards_core.rules.listing_schema import rules_schema
from inwards_core.rules.status_schema import status_schema
from inwards_core.rules.why_schema import why_schema
from inwards_core.version import VERSION

INSTRUCTIONS = """\
inwards checks this Python project's architecture: the layers, bounded contexts and package \
shapes declared in [tool.inwards] of pyproject.toml, on every import.

- Before creating a module, or adding an import that crosses packages, call \
where_should_this_go with the imports the module needs: it says which layers accept them and \
why the others refuse.
- Before writing or after editing files, call check_files with the changed paths and, for \
files not saved yet, their text in `contents`: it answers what `inwards check --format json` \
would. Fix every error it reports before you finish.
- When a finding is unclear, call explain_rule with its code: the page says why the rule \
exists and how to fix what it reports.
- When a rule stays silent where you expected a finding, call why with the rule and path.
- rules_status says which rule definitions are in force and where each comes from (core, \
organisation, user or project root; what shadows or overlays what).
- The resource inwards://brief is a short brief of the architecture; \
inwards://rules/{code} is a rule's page.

Never edit [tool.inwards] in pyproject.toml, the .inwards/ rule definitions or \
inwards-baseline.json to make a finding go away: those are the team's decisions. Fix the code, \
or ask the user.\
"""

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

log = logging.getLogger("inwards.mcp")


def _object(description: str, properties: dict[str, Any], required: list[str]) -> JSON:
    return {
        "type": "object",
        "description": description,
        "required": required,
        "properties": properties,
    }


RULE_PAGE = _object(
    "The rule's page (inwards/rule@1, as `inwards rule CODE --json --full`) and its "
    "definition in force: origin root, the definitions it shadows or overlays, conflicts "
    "(as `inwards rules explain CODE --json`).",
    {
        "page": rule_page_schema(),
        "definition": {"type": "object", "required": ["code", "chain"]},
    },
    ["page", "definition"],
)
RULES_STATUS = _object(
    "The rule roots (inwards/status@1, as `inwards status --json`) and every rule's "
    "state and origin (inwards/rules@1, as `inwards rules --json`).",
    {"status": status_schema(), "rules": rules_schema()},
    ["status", "rules"],
)
_REASON = {
    "type": "object",
    "required": ["code", "message", "import"],
    "properties": {
        "code": {"type": "string"},
        "message": {"type": "string"},
        "import": {"type": ["string", "null"], "description": "The import of the finding's line."},
    },
}
_MATCH = {
    "type": "object",
    "required": ["word", "name"],
    "properties": {"word": {"type": "string"}, "name": {"type": "string"}},
}
PLACEMENT = _object(
    "Each probe: a module holding the imports, checked in a place without being written "
    "(a new module in a layer's or a context's package, or an existing module with the "
    "imports added); accepted when no error is reported on its lines. `fits` lists the "
    "accepting places in the order `ranking` explains; `probes` come in that order too, "
    "then the refusing ones. `words` are the description's words matched against names.",
    {
        "description": {"type": "string"},
        "words": {"type": "array", "items": {"type": "string"}},
        "imports": {"type": "array", "items": {"type": "string"}},
        "module": {"type": ["string", "null"]},
        "fits": {"type": "array", "items": {"type": "string"}},
        "ranking": {"type": "string"},
        "probes": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "layer",
                    "context",
                    "package",
                    "module",
                    "path",
                    "existing",
                    "accepted",
                    "refusals",
                    "notes",
                    "matched",
                    "near",
                ],
                "properties": {
                    "layer": {"type": ["string", "null"]},
                    "context": {"type": ["string", "null"]},
                    "package": {"type": "string"},
                    "module": {"type": "string"},
                    "path": {"type": "string"},
                    "existing": {"type": "boolean"},
                    "accepted": {"type": "boolean"},
                    "refusals": {"type": "array", "items": _REASON},
                    "notes": {"type": "array", "items": _REASON},
                    "matched": {"type": "array", "items": _MATCH},
                    "near": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        "skipped": {"type": "array", "items": {"type": "string"}},
    },
    ["description", "words", "imports", "module", "fits", "ranking", "probes", "skipped"],
)

Paths = Annotated[
    list[str] | None,
    Field(
        description="Files or folders, relative to the project directory; "
        "without them the whole project."
    ),
]
Contents = Annotated[
    dict[str, str] | None,
    Field(
        description="Unsaved text by path: stands for the file on disk for this call only "
        "(a file not written yet, even in a package that doesn't exist yet). Nothing is "
        "written."
    ),
]
MaxDiagnostics = Annotated[
    int | None,
    Field(ge=0, description="List at most this many diagnostics (the summary counts all)."),
]
Rule = Annotated[
    str, Field(description="A rule code or name, any letter case: INW001, layer-dependency.")
]


def build_server(directory: Path) -> tuple[MCPServer, McpProject]:
    """The server for the project holding `directory`, and that project (to close)."""
    project = McpProject(directory)
    server = MCPServer("inwards", instructions=INSTRUCTIONS, version=VERSION, log_level="WARNING")

    def check_files(
        paths: Paths = None, contents: Contents = None, max_diagnostics: MaxDiagnostics = None
    ) -> dict[str, Any]:
        """Check files (or the whole project) against the architecture, with unsaved
        `contents` laid over the disk: the JSON document `inwards check --format json`
        prints (inwards/diagnostics@1), each diagnostic with its fix."""
        with _tool_errors():
            return project.check_files(paths, contents, max_diagnostics)

    def explain_rule(rule: Rule) -> dict[str, Any]:
        """A rule's page: what it reports, why, how to fix it, its options and examples,
        and where its definition in force comes from (root, shadows, overlays)."""
        with _tool_errors():
            return project.explain_rule(rule)

    def rules_status() -> dict[str, Any]:
        """The rule roots (core, organisation, user, project), what each defines, shadows
        and overlays, conflicts and problems, and every rule's state and origin."""
        with _tool_errors():
            return project.rules_status()

    def why(
        rule: Rule,
        path: Annotated[
            str | None, Field(description="A file or folder; without it the whole project.")
        ] = None,
    ) -> dict[str, Any]:
        """Why a rule reported what it did, or nothing, here: turned off or re-levelled (by
        which key), shadowed, files out of its scope, findings hidden by comments or the
        baseline (inwards/why@1, as `inwards rules why RULE --json`)."""
        with _tool_errors():
            return project.why(rule, path)

    def where_should_this_go(
        description: Annotated[
            str | None,
            Field(
                description="What the new module does: its words are matched against the "
                "names of layers, contexts, packages and their modules, to rank the places "
                "within a layer (plain word matching, nothing more)."
            ),
        ] = None,
        imports: Annotated[
            list[str] | None,
            Field(description="What it will import, dotted (shop.domain.orders.Order)."),
        ] = None,
        module: Annotated[
            str | None,
            Field(
                description="Judge exactly this module instead (an existing one with the "
                "imports added)."
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Where a new module with these imports may live: a probe holding them is checked
        in each layer's packages and each context's package within a layer (nothing is
        written). The answer ranks the places that accept it (innermost layer first, then
        the package whose names match the description) and, for each that refuses, the
        rule and the import it refuses."""
        with _tool_errors():
            return project.where_should_this_go(description, imports, module)

    tools = [
        _tool(check_files, diagnostics_schema()),
        _tool(explain_rule, RULE_PAGE),
        _tool(rules_status, RULES_STATUS),
        _tool(why, why_schema()),
        _tool(where_should_this_go, PLACEMENT),
    ]
    server = MCPServer(
        "inwards", instructions=INSTRUCTIONS, version=VERSION, log_level="WARNING", tools=tools
    )

    @server.resource(
        "inwards://brief",
        name="brief",
        description="The architecture brief (what `inwards context` prints).",
        mime_type="text/markdown",
    )
    def brief() -> str:
        try:
            return project.brief()
        except Refused as refused:
            raise ResourceError(str(refused)) from None

    @server.resource(
        "inwards://rules/{code}",
        name="rule",
        description="A rule's page (inwards/rule@1 JSON, as `inwards rule CODE --json --full`).",
        mime_type="application/json",
    )
    def rule_page(code: str) -> str:
        try:
            return json.dumps(project.rule_page(code), indent=2, ensure_ascii=False)
        except Refused as refused:
            raise ResourceError(str(refused)) from None

    return server, project


def _tool(function: Callable[..., dict[str, Any]], output_schema: JSON) -> Tool:
    """A read-only tool answering JSON that `output_schema` describes (the schema of the
    command's document, which the SDK can't derive from a `dict` return)."""
    # The docstring without its indentation: the SDK sends it as written, and a client
    # shows the description as the agent reads it (the Inspector showed the indentation).
    description = inspect.cleandoc(function.__doc__ or "")
    tool = Tool.from_function(
        function, description=description, annotations=READ_ONLY, structured_output=True
    )
    tool.fn_metadata.output_schema = dict(output_schema)
    return tool


@contextlib.contextmanager
def _tool_errors() -> Iterator[None]:
    """A `Refused` becomes the tool error the agent reads."""
    try:
        yield
    except Refused as refused:
        raise ToolError(str(refused)) from None


def serve(directory: Path) -> None:
    """Serve the project holding `directory` over stdio until the client hangs up."""
    logging.basicConfig(level=logging.WARNING, format="inwards mcp: %(message)s")
    server, project = build_server(directory)
    try:
        server.run("stdio")
    finally:
        project.close()
