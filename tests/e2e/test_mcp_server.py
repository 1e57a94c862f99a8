"""`inwards mcp`, driven by the MCP SDK's own client over stdio: the installed console
script runs in a copy of examples/shop (one server for the module, as an agent keeps one
for its session), and every tool's structured output is validated against the output
schema the server declares for it."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import jsonschema
import pytest
from mcp import Client, MCPError
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult

from tests.e2e.helpers import EXAMPLES, NO_USER_CONFIG, inwards_executable, run_inwards

TOOLS = ("check_files", "explain_rule", "rules_status", "why", "where_should_this_go")


class Server:
    """A synchronous face on the SDK's async client (its loop runs in a portal thread)."""

    def __init__(self, portal: anyio.from_thread.BlockingPortal, client: Client) -> None:
        self.portal = portal
        self.client = client
        self.schemas: dict[str, dict[str, Any]] = {}

    def call(self, tool: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        result = self.portal.call(self.client.call_tool, tool, arguments or {})
        assert isinstance(result, CallToolResult)
        return result

    def answer(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """The structured output of a call that must succeed, valid against its schema."""
        result = self.call(tool, arguments)
        assert not result.is_error, result.content
        document = result.structured_content
        assert isinstance(document, dict)
        jsonschema.validate(document, self.schemas[tool])
        # The text the model reads is the same document.
        assert json.loads(result.content[0].text) == document  # type: ignore[union-attr]
        return document

    def refusal(self, tool: str, arguments: dict[str, Any]) -> str:
        result = self.call(tool, arguments)
        assert result.is_error
        return " ".join(getattr(item, "text", "") for item in result.content)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("mcp") / "shop"
    shutil.copytree(EXAMPLES / "shop", target, ignore=shutil.ignore_patterns("cache"))
    return target


@contextlib.contextmanager
def serving(project: Path) -> Iterator[Server]:
    """`inwards mcp` started in `project` by the SDK's client, connected."""
    parameters = StdioServerParameters(
        command=inwards_executable()[0],
        args=["mcp"],
        cwd=project,
        env={"XDG_CONFIG_HOME": str(NO_USER_CONFIG), "INWARDS_DAEMON": "0"},
    )
    with (
        anyio.from_thread.start_blocking_portal() as portal,
        portal.wrap_async_context_manager(Client(parameters, read_timeout_seconds=60)) as client,
    ):
        connected = Server(portal, client)
        listed = portal.call(client.list_tools)
        connected.schemas = {tool.name: tool.output_schema or {} for tool in listed.tools}
        yield connected


@pytest.fixture(scope="module")
def server(project: Path) -> Iterator[Server]:
    with serving(project) as connected:
        yield connected


def test_initialize_names_the_server_and_tells_when_to_call_each_tool(server: Server) -> None:
    assert server.client.server_info is not None
    assert server.client.server_info.name == "inwards"
    assert server.client.server_capabilities.tools is not None
    instructions = server.client.instructions or ""
    for tool in TOOLS:
        assert tool in instructions
    assert "Never edit [tool.inwards]" in instructions


def test_every_tool_is_read_only_with_an_object_output_schema(server: Server) -> None:
    listed = server.portal.call(server.client.list_tools)
    assert [tool.name for tool in listed.tools] == list(TOOLS)
    for tool in listed.tools:
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.destructive_hint is False
        assert tool.output_schema is not None and tool.output_schema["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(tool.output_schema)
        # The description as the agent reads it: no docstring indentation.
        assert tool.description and "\n " not in tool.description
    checked = next(tool for tool in listed.tools if tool.name == "check_files")
    assert checked.output_schema["properties"]["schema"]["const"] == "inwards/diagnostics@1"


def _without_duration(document: dict[str, Any]) -> dict[str, Any]:
    document = json.loads(json.dumps(document))
    document["summary"].pop("durationMs", None)
    return document


def test_check_files_answers_what_inwards_check_prints(server: Server, project: Path) -> None:
    answered = server.answer("check_files")
    printed = run_inwards("check", "--format", "json", cwd=project)
    assert printed.code == 0, printed.stderr
    assert _without_duration(answered) == _without_duration(json.loads(printed.stdout))


def test_unsaved_contents_in_a_package_that_does_not_exist_yet(
    server: Server, project: Path
) -> None:
    draft = "src/shop/domain/pricing/rules.py"
    text = "from shop.adapters.outbound.sql_orders import SqlOrders\n"
    document = server.answer("check_files", {"paths": [draft], "contents": {draft: text}})
    codes = {(d["file"], d["code"]) for d in document["diagnostics"]}
    assert (draft, "INW001") in codes
    assert not (project / "src/shop/domain/pricing").exists()  # nothing written
    # The overlay lasts one call: the project on disk is clean again.
    assert server.answer("check_files")["diagnostics"] == []


def test_max_diagnostics_limits_the_list_not_the_counts(server: Server) -> None:
    contents = {
        f"src/shop/domain/draft_{n}.py": "import shop.adapters.outbound.sql_orders\n"
        for n in range(3)
    }
    document = server.answer("check_files", {"contents": contents, "max_diagnostics": 1})
    assert len(document["diagnostics"]) == 1
    assert document["summary"]["violations"] >= 3


@pytest.mark.parametrize(("rule", "code"), [("layer-dependency", "INW001"), ("shop001", "SHOP001")])
def test_explain_rule_is_what_rule_and_rules_explain_print(
    server: Server, project: Path, rule: str, code: str
) -> None:
    document = server.answer("explain_rule", {"rule": rule})
    page = run_inwards("rule", code, "--json", "--full", cwd=project)
    origin = run_inwards("rules", "explain", code, "--json", cwd=project)
    assert page.code == 0 and origin.code == 0, page.stderr + origin.stderr
    assert document["page"] == json.loads(page.stdout)
    assert document["definition"] == json.loads(origin.stdout)
    assert document["definition"]["active"]["root"] == ("core" if code == "INW001" else "project")


def test_rules_status_is_what_status_and_rules_print(server: Server, project: Path) -> None:
    document = server.answer("rules_status")
    assert document["status"] == json.loads(run_inwards("status", "--json", cwd=project).stdout)
    assert document["rules"] == json.loads(run_inwards("rules", "--json", cwd=project).stdout)


@pytest.mark.parametrize(
    "arguments",
    [
        {"rule": "INW001", "path": "src/shop/domain"},
        {"rule": "layer-dependency"},
        {"rule": "SHOP001", "path": "src/shop/bootstrap.py"},
        {"rule": "INW003", "path": "src/shop/adapters/outbound/sql_orders.py"},
    ],
)
def test_why_is_what_rules_why_prints(
    server: Server, project: Path, arguments: dict[str, str]
) -> None:
    document = server.answer("why", arguments)
    paths = [arguments["path"]] if "path" in arguments else []
    printed = run_inwards("rules", "why", arguments["rule"], *paths, "--json", cwd=project)
    assert printed.code == 0, printed.stderr
    assert document == json.loads(printed.stdout)
    assert document["schema"] == "inwards/why@1"


def test_why_leaves_the_session_true_to_the_disk(server: Server, project: Path) -> None:
    """A traced check runs beside the warm state: what changes on disk after it is seen."""
    server.answer("why", {"rule": "INW001"})
    written = project / "src/shop/domain/after_why.py"
    written.write_text("import shop.adapters.outbound.sql_orders\n", encoding="utf-8")
    try:
        found = server.answer("check_files")["diagnostics"]
        assert "src/shop/domain/after_why.py" in {d["file"] for d in found}
        why = server.answer("why", {"rule": "INW001", "path": "src/shop/domain"})
        assert "src/shop/domain/after_why.py" in {f["file"] for f in why["findings"]}
    finally:
        written.unlink()
    assert server.answer("check_files")["diagnostics"] == []


def test_where_should_this_go_names_the_layers_that_accept_the_imports(server: Server) -> None:
    document = server.answer(
        "where_should_this_go",
        {
            "description": "stores orders in SQL",
            "imports": ["shop.adapters.outbound.sql_orders.SqlOrders"],
        },
    )
    by_package = {probe["package"]: probe for probe in document["probes"]}
    refused = {(r["code"], r["import"]) for r in by_package["shop.domain"]["refusals"]}
    adapter = "shop.adapters.outbound.sql_orders.SqlOrders"
    assert refused == {("INW001", adapter), ("SHOP001", adapter)}
    # SHOP001 keeps the outbound adapters to the composition root: a new module in
    # shop.adapters (the bootstrap layer's package) is refused, bootstrap.py itself is not.
    assert [(r["code"], r["import"]) for r in by_package["shop.adapters"]["refusals"]] == [
        ("SHOP001", adapter)
    ]
    assert document["fits"] == ["shop.adapters.outbound", "shop.bootstrap"]
    assert by_package["shop.bootstrap"]["existing"] is True
    assert by_package["shop.adapters.outbound"]["near"] == ["shop.adapters.outbound.sql_orders"]
    assert document["words"] == ["stores", "orders", "sql"]
    one = server.answer(
        "where_should_this_go",
        {"imports": ["shop.domain.order"], "module": "shop.application.billing"},
    )
    assert [(p["layer"], p["existing"], p["accepted"]) for p in one["probes"]] == [
        ("application", False, True)
    ]
    assert one["fits"] == ["shop.application"]


def test_resources_serve_the_brief_and_rule_pages(server: Server, project: Path) -> None:
    brief = server.portal.call(server.client.read_resource, "inwards://brief")
    printed = run_inwards("context", cwd=project)
    assert printed.code == 0, printed.stderr
    assert brief.contents[0].text == printed.stdout  # type: ignore[union-attr]
    assert "Architecture brief" in printed.stdout
    page = server.portal.call(server.client.read_resource, "inwards://rules/INW003")
    assert json.loads(page.contents[0].text)["code"] == "INW003"  # type: ignore[union-attr]
    with pytest.raises(MCPError, match="is not the code or name of any rule"):
        server.portal.call(server.client.read_resource, "inwards://rules/NOPE1")


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("check_files", {"paths": ["../elsewhere"]}, "outside the project"),
        ("check_files", {"paths": ["/etc/passwd"]}, "outside the project"),
        ("check_files", {"contents": {"../escape.py": "x = 1\n"}}, "outside the project"),
        ("check_files", {"contents": {"src/shop/big.py": "#" * (33 * 1024 * 1024)}}, "MiB"),
        ("check_files", {"max_diagnostics": -1}, "max_diagnostics"),
        ("explain_rule", {"rule": "INW999"}, "is not the code or name of any rule"),
        ("why", {"rule": "no-such-rule"}, "no-such-rule"),
        ("why", {"rule": "INW001", "path": "../.."}, "outside the project"),
        ("why", {"rule": "INW001", "path": "src/missing"}, "is not a file or directory"),
        ("where_should_this_go", {"imports": ["os; rm -rf /"]}, "not a dotted module name"),
    ],
)
def test_hostile_input_is_a_tool_error(
    server: Server, tool: str, arguments: dict[str, Any], expected: str
) -> None:
    assert expected in server.refusal(tool, arguments)


def test_without_the_sdk_it_names_the_extra_to_install(project: Path) -> None:
    blocked = "import sys; sys.modules['mcp'] = None; from inwards_cli.main import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", blocked, "mcp"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "inwards mcp needs the MCP SDK: pip install 'inwards-lint[mcp]'"


def test_the_warm_session_sees_what_changes_on_disk_between_calls(
    server: Server, project: Path
) -> None:
    written = project / "src/shop/domain/written.py"
    written.write_text("import shop.adapters.outbound.sql_orders\n", encoding="utf-8")
    try:
        found = server.answer("check_files")["diagnostics"]
        assert "src/shop/domain/written.py" in {d["file"] for d in found}
    finally:
        written.unlink()
    assert server.answer("check_files")["diagnostics"] == []


def test_a_broken_configuration_is_a_tool_error_until_it_is_fixed(
    server: Server, project: Path
) -> None:
    pyproject = project / "pyproject.toml"
    good = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(
        good.replace('root = "src"', 'root = "src"\nlayerz = []'), encoding="utf-8"
    )
    try:
        message = server.refusal("check_files", {})
        assert "layerz" in message and "pyproject.toml" in message
    finally:
        pyproject.write_text(good, encoding="utf-8")
    assert server.answer("check_files")["diagnostics"] == []


def test_stdout_carries_the_protocol_and_nothing_else(project: Path) -> None:
    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "rules_status"}},
    ]
    done = subprocess.run(
        [*inwards_executable(), "mcp"],
        cwd=project,
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "XDG_CONFIG_HOME": str(NO_USER_CONFIG), "INWARDS_DAEMON": "0"},
    )
    lines = done.stdout.splitlines()
    assert lines, done.stderr
    replies = [json.loads(line) for line in lines]  # every line a JSON-RPC message
    assert all(reply["jsonrpc"] == "2.0" for reply in replies)
    assert replies[0]["id"] == 1 and replies[0]["result"]["serverInfo"]["name"] == "inwards"


def test_a_directory_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    done = run_inwards("mcp", "--directory", str(tmp_path / "missing"), cwd=tmp_path)
    assert done.code == 2
    assert done.stdout == ""
    assert "is not a directory" in done.stderr


# Three layers across two contexts: orders may use billing (its invoice module is public),
# billing may not use orders.
LAYERED_CONTEXTS = {
    "pyproject.toml": """\
[project]
name = "lib"
version = "0"

[tool.inwards]
root = "src"
layers = [
  { name = "domain", modules = ["lib.orders.domain", "lib.billing.domain"] },
  { name = "application", modules = ["lib.orders.application", "lib.billing.application"] },
  { name = "adapters", modules = ["lib.orders.adapters", "lib.billing.adapters"] },
]

[[tool.inwards.contexts]]
name = "orders"
modules = ["lib.orders"]
public = ["lib.orders.domain.order"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["lib.billing"]
public = ["lib.billing.domain.invoice"]
""",
    "src/lib/orders/domain/order.py": "class Order:\n    pass\n",
    "src/lib/orders/adapters/sql.py": (
        "from lib.orders.domain.order import Order\n\n\nclass SqlOrders:\n"
        "    def save(self, order: Order) -> None:\n        pass\n"
    ),
    "src/lib/billing/domain/invoice.py": "class Invoice:\n    pass\n",
    "src/lib/billing/application/reminders.py": (
        "from lib.billing.domain.invoice import Invoice\n\n\n"
        "def remind(invoice: Invoice) -> None:\n    pass\n"
    ),
}


@pytest.fixture(scope="module")
def contexts_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    project = tmp_path_factory.mktemp("mcp-contexts")
    for path, text in LAYERED_CONTEXTS.items():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(text, encoding="utf-8")
    for context in ("orders", "billing"):
        for package in ("", "/domain", "/application", "/adapters"):
            init = project / f"src/lib/{context}{package}/__init__.py"
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text("", encoding="utf-8")
    (project / "src/lib/__init__.py").write_text("", encoding="utf-8")
    (project / "src/lib/orders/application/__init__.py").write_text(
        '# The use cases of orders.\n"""Checkout, refunds and late fees."""\n', encoding="utf-8"
    )
    assert run_inwards("check", cwd=project).code == 0
    with serving(project) as connected:
        yield connected


def _placed(document: dict[str, Any]) -> list[tuple[str, bool, list[tuple[str, str]]]]:
    return [
        (p["package"], p["accepted"], [(r["code"], r["import"]) for r in p["refusals"]])
        for p in document["probes"]
    ]


def test_where_should_this_go_probes_each_context_in_each_layer(
    contexts_server: Server,
) -> None:
    invoice = "lib.billing.domain.invoice.Invoice"
    order = "lib.orders.domain.order.Order"
    document = contexts_server.answer(
        "where_should_this_go",
        {"description": "charge an order's invoice", "imports": [invoice, order]},
    )
    # Every layer takes it in orders (which may use billing); none in billing.
    assert document["fits"] == [
        "lib.orders.domain",
        "lib.orders.application",
        "lib.orders.adapters",
    ]
    assert _placed(document) == [
        ("lib.orders.domain", True, []),
        ("lib.orders.application", True, []),
        ("lib.orders.adapters", True, []),
        ("lib.billing.domain", False, [("INW002", order)]),
        ("lib.billing.application", False, [("INW002", order)]),
        ("lib.billing.adapters", False, [("INW002", order)]),
    ]
    assert [p["context"] for p in document["probes"]][:3] == ["orders"] * 3
    assert document["skipped"] == []


def test_where_should_this_go_ranks_inner_layers_then_the_description(
    contexts_server: Server,
) -> None:
    document = contexts_server.answer(
        "where_should_this_go",
        {
            "description": "send reminders for an unpaid invoice",
            "imports": ["lib.billing.domain.invoice.Invoice"],
        },
    )
    # Both contexts may use the invoice in every layer: the innermost layer first, and in
    # each layer the package whose modules the description names.
    assert document["fits"] == [
        "lib.billing.domain",
        "lib.orders.domain",
        "lib.billing.application",
        "lib.orders.application",
        "lib.billing.adapters",
        "lib.orders.adapters",
    ]
    by_package = {p["package"]: p for p in document["probes"]}
    assert by_package["lib.billing.domain"]["matched"] == [
        {"word": "invoice", "name": "lib.billing.domain.invoice"}
    ]
    assert by_package["lib.billing.application"]["near"] == ["lib.billing.application.reminders"]
    assert by_package["lib.orders.domain"]["matched"] == []
    assert document["words"] == ["send", "reminders", "unpaid", "invoice"]


def test_where_should_this_go_names_the_rule_and_import_each_layer_refuses(
    contexts_server: Server,
) -> None:
    adapter = "lib.orders.adapters.sql.SqlOrders"
    document = contexts_server.answer(
        "where_should_this_go",
        {"description": "save orders in SQL", "imports": ["os.path", adapter]},
    )
    assert document["fits"] == ["lib.orders.adapters"]
    assert _placed(document) == [
        ("lib.orders.adapters", True, []),
        ("lib.billing.domain", False, [("INW001", adapter), ("INW002", adapter)]),
        ("lib.orders.domain", False, [("INW001", adapter)]),
        ("lib.billing.application", False, [("INW001", adapter), ("INW002", adapter)]),
        ("lib.orders.application", False, [("INW001", adapter)]),
        ("lib.billing.adapters", False, [("INW002", adapter)]),
    ]
    # Judged exactly: an existing module, with the import added after its own lines.
    one = contexts_server.answer(
        "where_should_this_go",
        {"imports": [adapter], "module": "lib.billing.application.reminders"},
    )
    (probe,) = one["probes"]
    assert (probe["layer"], probe["context"], probe["existing"]) == ("application", "billing", True)
    assert [(r["code"], r["import"]) for r in probe["refusals"]] == [
        ("INW001", adapter),
        ("INW002", adapter),
    ]
    assert one["fits"] == []


def test_where_should_this_go_reads_the_packages_docstrings(contexts_server: Server) -> None:
    document = contexts_server.answer(
        "where_should_this_go",
        {"description": "charge late fees", "imports": ["lib.billing.domain.invoice.Invoice"]},
    )
    by_package = {p["package"]: p for p in document["probes"]}
    assert by_package["lib.orders.application"]["matched"] == [
        {"word": "late", "name": 'lib.orders.application docstring: "late"'},
        {"word": "fees", "name": 'lib.orders.application docstring: "fees"'},
    ]
    # The docstring puts orders first among the application packages; the other layers,
    # where nothing matches, list theirs by name.
    assert document["fits"] == [
        "lib.billing.domain",
        "lib.orders.domain",
        "lib.orders.application",
        "lib.billing.application",
        "lib.billing.adapters",
        "lib.orders.adapters",
    ]
