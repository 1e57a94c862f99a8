"""`inwards server`'s later features, driven by a real LSP client (pytest-lsp) over stdio:
workspace pull diagnostics with result ids, coalesced whole passes, hover on an import,
the "open the rule's page" command and the suppression as a snippet."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import LanguageClient

from inwards_cli.lsp.reports import PARTIAL_REPORTS
from tests.e2e.helpers import write_tree
from tests.lsp.test_server import (
    CONTEXTS,
    ORDER_FILE,
    PULL,
    VIOLATION,
    WAIT,
    Client,
    code_actions,
    open_document,
    published,
    served,
    shop,  # noqa: F401 (the fixture)
    until,
    utf16_column,
)

DOCS = "https://docs.example.org/inwards/rules/INW001.md"


async def pull_workspace(
    client: LanguageClient, previous: dict[str, str] | None = None, token: str | None = None
) -> list[types.WorkspaceDocumentDiagnosticReport]:
    report = await asyncio.wait_for(
        client.workspace_diagnostic_async(
            types.WorkspaceDiagnosticParams(
                previous_result_ids=[
                    types.PreviousResultId(uri=uri, value=value)
                    for uri, value in (previous or {}).items()
                ],
                partial_result_token=token,
            )
        ),
        WAIT,
    )
    return list(report.items)


def save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


@pytest.mark.asyncio
async def test_the_workspace_pull_reports_every_file_then_unchanged_then_cleared(
    shop: Path,  # noqa: F811
) -> None:
    order = shop / ORDER_FILE
    clean = order.read_text(encoding="utf-8")
    order.write_text(clean + VIOLATION, encoding="utf-8")
    place = shop / "src/shop/application/place_order.py"
    place.write_text(place.read_text("utf-8") + VIOLATION.split("; ")[1], encoding="utf-8")
    async with served(shop, PULL) as client:
        first = await pull_workspace(client)
        assert [item.uri for item in first] == sorted([order.as_uri(), place.as_uri()])
        for item in first:
            assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
            assert [d.code for d in item.items] == ["INW001"]
            assert item.result_id
        ids = {item.uri: str(item.result_id) for item in first}

        # The same ids answer a document pull `unchanged`.
        uri = open_document(client, order, clean + VIOLATION)
        document = await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    previous_result_id=ids[uri],
                )
            ),
            WAIT,
        )
        assert isinstance(
            document,
            types.UnchangedDocumentDiagnosticReport
            | types.RelatedUnchangedDocumentDiagnosticReport,
        )
        assert document.result_id == ids[uri]

        # A workspace pull with nothing new to say is held (long polling) ...
        held = asyncio.ensure_future(pull_workspace(client, ids))
        await asyncio.sleep(1.0)
        assert not held.done()

        # ... until a pass changes something: then the news, and `unchanged` for the rest.
        order.write_text(clean, encoding="utf-8")
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=clean)],
            )
        )
        save(client, uri)
        after = await asyncio.wait_for(held, WAIT)
        by_uri = {item.uri: item for item in after}
        assert list(by_uri) == sorted(by_uri)
        cleared = by_uri[order.as_uri()]
        assert isinstance(cleared, types.WorkspaceFullDocumentDiagnosticReport)
        assert list(cleared.items) == []  # the client drops what it held
        assert cleared.version == 2  # the open document's version
        unchanged = by_uri[place.as_uri()]
        assert isinstance(unchanged, types.WorkspaceUnchangedDocumentDiagnosticReport)
        assert unchanged.result_id == ids[place.as_uri()]


def passes_logged(client: LanguageClient) -> int:
    return sum(m.message.startswith("whole pass of ") for m in client.log_messages)


@pytest.mark.asyncio
async def test_a_burst_of_saves_runs_at_most_two_whole_passes_and_ends_up_current(
    shop: Path,  # noqa: F811
) -> None:
    path = shop / ORDER_FILE
    clean = path.read_text(encoding="utf-8")
    async with served(shop) as client:
        uri = open_document(client, path, clean)
        assert await published(client, uri) == []
        # The first pass is logged too, though the document's diagnostics may overtake it.
        await asyncio.wait_for(until(lambda: passes_logged(client) >= 1), WAIT)
        before = passes_logged(client)
        save(client, uri)
        path.write_text(clean + VIOLATION, encoding="utf-8")
        for _ in range(7):
            save(client, uri)
        # Every pass republishes the saved file: the last answer must be the last state.
        diagnostics = await published(client, uri)
        while [d.code for d in diagnostics] != ["INW001"]:
            diagnostics = await published(client, uri)
        await asyncio.sleep(0.5)  # longer than the window: a late pass would be logged
        assert 1 <= passes_logged(client) - before <= 2

        # After a quiet spell, a lone save runs at once again (the leading edge).
        path.write_text(clean, encoding="utf-8")
        save(client, uri)
        assert await published(client, uri) == []
        assert passes_logged(client) - before <= 3


@pytest.mark.asyncio
async def test_hover_on_an_imported_name_gives_both_layers_and_the_verdict(
    shop: Path,  # noqa: F811
) -> None:
    path = shop / ORDER_FILE
    text = path.read_text(encoding="utf-8") + VIOLATION  # unsaved
    lines = text.splitlines()
    async with served(shop) as client:
        uri = open_document(client, path, text)
        assert [d.code for d in await published(client, uri)] == ["INW001"]

        async def hover_on(row: int, name: str) -> str:
            found = await asyncio.wait_for(
                client.text_document_hover_async(
                    types.HoverParams(
                        text_document=types.TextDocumentIdentifier(uri=uri),
                        position=types.Position(
                            line=row, character=utf16_column(lines[row], name) + 1
                        ),
                    )
                ),
                WAIT,
            )
            assert found is not None
            assert isinstance(found.contents, types.MarkupContent)
            return found.contents.value

        reported = await hover_on(len(lines) - 1, "SqlOrders")
        assert "`shop.domain.pricing`, layer **domain**" in reported
        assert "`shop.adapters.outbound.sql_orders`, layer **outbound**" in reported
        assert "Reported by INW001" in reported
        assert "context" not in reported  # the shop has no contexts

        decimal_row = next(i for i, line in enumerate(lines) if line.startswith("from decimal"))
        allowed = await hover_on(decimal_row, "Decimal")
        assert "`decimal` (stdlib, not a module of this project)" in allowed
        assert "Allowed" in allowed
        # Anywhere on a statement that imports one name: its keywords, the module.
        assert await hover_on(decimal_row, "from") == allowed
        assert await hover_on(decimal_row, "decimal") == allowed

        nothing = await asyncio.wait_for(
            client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=types.Position(line=0, character=1),  # the docstring
                )
            ),
            WAIT,
        )
        assert nothing is None


@pytest.mark.asyncio
async def test_hover_names_the_contexts_when_the_project_has_some(tmp_path: Path) -> None:
    project = tmp_path / "contexts"
    files = {
        "pyproject.toml": CONTEXTS,
        "shop/__init__.py": "",
        "shop/orders/__init__.py": "",
        "shop/billing/__init__.py": "",
        "shop/billing/internal.py": "def charge(amount: int) -> int:\n    return amount\n",
        "shop/orders/checkout.py": "from shop.billing.internal import charge\n",
    }
    write_tree(project, files)
    path = project / "shop/orders/checkout.py"
    async with served(project) as client:
        uri = open_document(client, path, files["shop/orders/checkout.py"])
        assert [d.code for d in await published(client, uri)] == ["INW003"]
        found = await asyncio.wait_for(
            client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=types.Position(
                        line=0, character=len("from shop.billing.internal import c")
                    ),
                )
            ),
            WAIT,
        )
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        text = found.contents.value
        assert "`shop.orders.checkout`, layer **app**, context **orders** (internal)" in text
        assert "`shop.billing.internal`, layer **app**, context **billing** (internal)" in text
        assert "Reported by INW003" in text


EDITOR = types.ClientCapabilities(
    window=types.WindowClientCapabilities(
        show_document=types.ShowDocumentClientCapabilities(support=True)
    ),
    workspace=types.WorkspaceClientCapabilities(
        workspace_edit=types.WorkspaceEditClientCapabilities(
            document_changes=True, snippet_edit_support=True
        )
    ),
)


@pytest.mark.asyncio
async def test_the_rule_page_opens_in_the_browser_and_the_reason_is_a_snippet(
    shop: Path,  # noqa: F811
) -> None:
    path = shop / ORDER_FILE
    text = path.read_text(encoding="utf-8") + VIOLATION
    async with served(shop, EDITOR) as client:
        uri = open_document(client, path, text)
        diagnostics = await published(client, uri)
        assert [d.code for d in diagnostics] == ["INW001"]
        actions = await code_actions(client, uri, diagnostics)
        assert actions is not None
        by_title = {action.title: action for action in actions}
        assert list(by_title) == [
            "Suppress INW001 on this line (inwards: ignore with a reason)",
            "Open the page of INW001",
        ]

        suppress = by_title["Suppress INW001 on this line (inwards: ignore with a reason)"]
        assert isinstance(suppress, types.CodeAction) and suppress.edit is not None
        assert suppress.edit.changes is None
        (change,) = suppress.edit.document_changes or []
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == uri and change.text_document.version == 1
        (edit,) = change.edits
        assert isinstance(edit, types.SnippetTextEdit)
        assert edit.snippet.value == (
            '  # inwards: ignore[INW001] reason="${1:why this import is allowed}"'
        )
        assert edit.range.start.line == len(text.splitlines()) - 1

        page = by_title["Open the page of INW001"]
        assert isinstance(page, types.CodeAction) and page.command is not None
        assert page.edit is None
        await asyncio.wait_for(
            client.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command=page.command.command, arguments=page.command.arguments
                )
            ),
            WAIT,
        )
        assert client.shown_documents == [types.ShowDocumentParams(uri=DOCS, external=True)]


@pytest.mark.asyncio
async def test_without_snippet_edits_the_client_is_asked_to_select_the_reason(
    shop: Path,  # noqa: F811
) -> None:
    """VS Code's language client takes no snippet edits: the suppression is plain text,
    and the action's command has the client select the reason once the edit is in."""
    path = shop / ORDER_FILE
    text = path.read_text(encoding="utf-8") + VIOLATION
    capabilities = types.ClientCapabilities(
        window=types.WindowClientCapabilities(
            show_document=types.ShowDocumentClientCapabilities(support=True)
        )
    )
    async with served(shop, capabilities) as client:
        uri = open_document(client, path, text)
        diagnostics = await published(client, uri)
        actions = await code_actions(client, uri, diagnostics)
        suppress = next(a for a in actions or [] if a.title.startswith("Suppress INW001"))
        assert isinstance(suppress, types.CodeAction) and suppress.edit is not None
        (edit,) = (suppress.edit.changes or {})[uri]
        assert suppress.command is not None
        # The edit, applied as the client would.
        row = edit.range.start.line
        line = text.splitlines()[row]
        assert edit.range.start.character == len(line.rstrip().encode("utf-16-le")) // 2
        edited = line.rstrip() + edit.new_text
        await asyncio.wait_for(
            client.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command=suppress.command.command, arguments=suppress.command.arguments
                )
            ),
            WAIT,
        )
        (shown,) = client.shown_documents
        assert (shown.uri, shown.take_focus, shown.external) == (uri, True, None)
        assert shown.selection is not None and shown.selection.start.line == row
        utf16 = edited.encode("utf-16-le")
        start, end = shown.selection.start.character, shown.selection.end.character
        assert utf16[start * 2 : end * 2].decode("utf-16-le") == "say why this import is allowed"


CYCLE = """[project]
name = "cycle"
version = "1"

[tool.inwards]
root = "."
layers = [{ name = "app", modules = ["shop"] }]
cycles = ["modules"]
"""


@pytest.mark.asyncio
async def test_a_cycle_points_at_each_of_its_imports_for_a_client_that_shows_them(
    tmp_path: Path,
) -> None:
    project = tmp_path / "cycle"
    files = {
        "pyproject.toml": CYCLE,
        "shop/__init__.py": "",
        "shop/a.py": '"""A."""\n\nfrom shop.b import bee\n',
        "shop/b.py": "import os\nfrom shop.c import sea\n\nbee = 1\n",
        "shop/c.py": "from shop.a import *  # noqa\nsea = 2\n",
    }
    write_tree(project, files)
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True)
        )
    )
    async with served(project, capabilities) as client:
        path = project / "shop/a.py"
        uri = open_document(client, path, files["shop/a.py"])
        (cycle,) = await published(client, uri)
        assert cycle.code == "INW004"
        assert cycle.related_information is not None
        steps = [(r.location.uri, r.location.range, r.message) for r in cycle.related_information]

        def at(name: str, row: int, start: int, end: int) -> tuple[str, types.Range]:
            return (project / name).as_uri(), types.Range(
                start=types.Position(line=row, character=start),
                end=types.Position(line=row, character=end),
            )

        assert steps == [
            (*at("shop/a.py", 2, 19, 22), "shop.a imports shop.b"),
            (*at("shop/b.py", 1, 19, 22), "shop.b imports shop.c"),
            (*at("shop/c.py", 0, 19, 20), "shop.c imports shop.a"),
        ]
        assert cycle.range == steps[0][1]


@pytest.mark.asyncio
async def test_no_related_information_for_a_client_that_does_not_show_it(
    tmp_path: Path,
) -> None:
    project = tmp_path / "cycle"
    files = {
        "pyproject.toml": CYCLE,
        "shop/__init__.py": "",
        "shop/a.py": "from shop.b import bee\n",
        "shop/b.py": "from shop.a import *  # noqa\nbee = 1\n",
    }
    write_tree(project, files)
    async with served(project) as client:
        uri = open_document(client, project / "shop/a.py", files["shop/a.py"])
        (cycle,) = await published(client, uri)
        assert cycle.code == "INW004"
        assert cycle.related_information is None


@pytest.mark.asyncio
async def test_a_pulling_client_that_shows_related_information_gets_the_chain(
    tmp_path: Path,
) -> None:
    project = tmp_path / "cycle"
    files = {
        "pyproject.toml": CYCLE,
        "shop/__init__.py": "",
        "shop/a.py": "from shop.b import bee\n",
        "shop/b.py": "from shop.a import *  # noqa\nbee = 1\n",
    }
    write_tree(project, files)
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(related_information=True)
        )
    )
    async with served(project, capabilities) as client:
        # A small answer comes whole, though the client would take it in parts.
        reports = {item.uri: item for item in await pull_workspace(client, token="small")}
        assert isinstance(client, Client) and "small" not in client.partial_results
        report = reports[(project / "shop/a.py").as_uri()]
        assert isinstance(report, types.WorkspaceFullDocumentDiagnosticReport)
        (cycle,) = report.items
        assert [r.message for r in cycle.related_information or []] == [
            "shop.a imports shop.b",
            "shop.b imports shop.a",
        ]

        # A pull held for news ends with the session: shutting down does not wait for it.
        ids = {uri: str(item.result_id) for uri, item in reports.items()}
        held = asyncio.ensure_future(pull_workspace(client, ids))
        await asyncio.sleep(0.5)
        assert not held.done()
    with pytest.raises(JsonRpcRequestCancelled):
        await held


@pytest.mark.asyncio
async def test_a_large_workspace_answer_comes_in_parts_to_a_client_that_asks(
    tmp_path: Path,
) -> None:
    project = tmp_path / "wide"
    files = {
        "pyproject.toml": WIDE,
        "shop/__init__.py": "",
        "shop/domain/__init__.py": "",
        "shop/adapters/__init__.py": "",
        "shop/adapters/db.py": "value = 1\n",
    }
    many = PARTIAL_REPORTS * 2 + 17  # three parts
    for number in range(many):
        files[f"shop/domain/m{number:03}.py"] = "from shop.adapters.db import value\n"
    write_tree(project, files)
    async with served(project, PULL) as client:
        assert isinstance(client, Client)
        whole = await pull_workspace(client)  # no token: one answer
        assert len(whole) == many
        answer = await asyncio.wait_for(
            client.workspace_diagnostic_async(
                types.WorkspaceDiagnosticParams(previous_result_ids=[], partial_result_token="p1")
            ),
            WAIT,
        )
        assert list(answer.items) == []  # the parts carry it all
        parts = client.partial_results["p1"]
        assert [len(part["items"]) for part in parts] == [PARTIAL_REPORTS, PARTIAL_REPORTS, 17]
        first = client.protocol._converter.structure(parts[0], types.WorkspaceDiagnosticReport)
        later = [
            client.protocol._converter.structure(part, types.WorkspaceDiagnosticReportPartialResult)
            for part in parts[1:]
        ]
        streamed = [*first.items, *(item for part in later for item in part.items)]
        assert streamed == whole
        assert all(
            isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
            and [d.code for d in item.items] == ["INW001"]
            for item in streamed
        )


WIDE = """[project]
name = "wide"
version = "1"

[tool.inwards]
root = "."
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "adapters", modules = ["shop.adapters"] },
]
"""
