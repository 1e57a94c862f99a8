"""`inwards server` driven by a real LSP client (pytest-lsp) over stdio, on a copy of
examples/shop: push and pull diagnostics, unsaved buffers, a configuration broken and
fixed while open, the suppression quick fix and hover on a rule code."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from cattrs import Converter
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from tests.e2e.helpers import EXAMPLES, NO_USER_CONFIG, inwards_executable

WAIT = 30.0  # seconds for the server to answer (it lists and reads the project first)
ORDER_FILE = "src/shop/domain/pricing.py"
# A domain module reaching out to an adapter: INW001 on the imported name. The string
# before it holds characters outside ASCII, one beyond the Basic Multilingual Plane (two
# UTF-16 code units), so the range is right only if columns are converted as LSP counts.
VIOLATION = 'label = "prix é 😀"; from shop.adapters.outbound.sql_orders import SqlOrders\n'
PUSH = types.ClientCapabilities()
PULL = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False)
    )
)


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    project = tmp_path / "shop"
    shutil.copytree(EXAMPLES / "shop", project, ignore=shutil.ignore_patterns(".inwards"))
    return project


def _converter() -> Converter:
    """pygls's converter, reading `(Command | CodeAction)[]` as LSP tells them apart: a
    Command's `command` is a string, a CodeAction's a Command (lsprotocol 2025.0.0 takes
    any CodeAction that carries a command for a Command)."""
    converter = default_converter()

    def command_or_action(value: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(value.get("command"), str):
            return converter.structure(value, types.Command)
        return converter.structure(value, types.CodeAction)

    converter.register_structure_hook(
        types.Command | types.CodeAction,  # type: ignore[arg-type]
        command_or_action,
    )
    return converter


class Client(LanguageClient):
    """pytest-lsp's client, keeping the partial results of requests (`$/progress` on a
    `partialResultToken` the client gave), which its own handler takes for work done
    progress."""

    def __init__(self) -> None:
        super().__init__(converter_factory=_converter)
        self.partial_results: dict[types.ProgressToken, list[dict[str, Any]]] = {}
        # Every publishDiagnostics in order: pytest-lsp's one waiter per method misses a
        # notification read in the same chunk as the one that woke it.
        self.publications: list[types.PublishDiagnosticsParams] = []


def _publish(client: Client, params: types.PublishDiagnosticsParams) -> None:
    client.publications.append(params)
    DEFAULT_CLIENT_FEATURES[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS](client, params)


def _progress(client: Client, params: types.ProgressParams) -> None:
    if isinstance(params.value, dict) and "kind" not in params.value:
        client.partial_results.setdefault(params.token, []).append(params.value)
        return
    DEFAULT_CLIENT_FEATURES[types.PROGRESS](client, params)


def _client() -> LanguageClient:
    client = Client()
    features = {
        **DEFAULT_CLIENT_FEATURES,
        types.PROGRESS: _progress,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish,
    }
    register_lsp_features(client, features)
    return client


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


async def until(condition: Callable[[], bool]) -> None:
    """Wait for what the server sends in its own order (a log line, a notification)."""
    while not condition():
        await asyncio.sleep(0.005)


@asynccontextmanager
async def served(
    project: Path,
    capabilities: types.ClientCapabilities = PUSH,
    *more_folders: Path,
    config_home: Path = NO_USER_CONFIG,
    docs_url: str = "https://docs.example.org/inwards/",
    env: dict[str, str] | None = None,
) -> AsyncIterator[LanguageClient]:
    environment = {**os.environ, "XDG_CONFIG_HOME": str(config_home)}
    environment["INWARDS_DOCS_URL"] = docs_url
    environment.update(env or {})
    config = ClientServerConfig(
        server_command=[*inwards_executable(), "server"],
        server_env=environment,
        client_factory=_client,
    )
    client = await config.start()
    assert isinstance(client, LanguageClient)
    try:
        await asyncio.wait_for(
            client.initialize_session(
                types.InitializeParams(
                    capabilities=capabilities,
                    workspace_folders=[
                        types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name)
                        for folder in (project, *more_folders)
                    ],
                )
            ),
            WAIT,
        )
        # The server checks each folder's project once the client says it is initialized;
        # a test opens documents after that, so what they publish follows the first pass
        # (a document opened sooner would be published twice, and its first answer taken
        # for the answer to what the test does next).
        projects = [
            str(folder)
            for folder in (project, *more_folders)
            if "[tool.inwards" in _text(folder / "pyproject.toml")
        ]

        def first_passes_done() -> bool:
            logged = [m.message for m in client.log_messages]
            return all(
                any(line.startswith(f"whole pass of {folder}:") for line in logged)
                for folder in projects
            )

        await asyncio.wait_for(until(first_passes_done), WAIT)
        yield client
        await asyncio.wait_for(client.shutdown_session(), WAIT)
    except BaseException:
        # A server that stopped answering would keep `stop` waiting for it to exit.
        process = getattr(client, "_server", None)
        if process is not None and process.returncode is None:
            process.kill()
        raise
    finally:
        await client.stop()


async def published(client: LanguageClient, uri: str) -> Sequence[types.Diagnostic]:
    """The next diagnostics pushed for `uri` after this call (call it right after the
    message that causes them)."""
    assert isinstance(client, Client)
    start = len(client.publications)

    def first() -> types.PublishDiagnosticsParams | None:
        return next((p for p in client.publications[start:] if p.uri == uri), None)

    await asyncio.wait_for(until(lambda: first() is not None), WAIT)
    found = first()
    assert found is not None
    return list(found.diagnostics)


async def code_actions(
    client: LanguageClient, uri: str, diagnostics: Sequence[types.Diagnostic]
) -> Sequence[types.Command | types.CodeAction] | None:
    """The code actions offered for the first of `diagnostics`, asked as an editor asks."""
    return await asyncio.wait_for(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diagnostics[0].range,
                context=types.CodeActionContext(diagnostics=list(diagnostics)),
            )
        ),
        WAIT,
    )


def open_document(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=version, text=text
            )
        )
    )
    return uri


def change_document(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def utf16_column(line: str, text: str) -> int:
    """The UTF-16 column where `text` starts in `line`."""
    return len(line[: line.index(text)].encode("utf-16-le")) // 2


def utf16_slice(line: str, start: int, end: int) -> str:
    encoded = line.encode("utf-16-le")
    return encoded[start * 2 : end * 2].decode("utf-16-le")


@pytest.mark.asyncio
async def test_an_unsaved_violation_is_pushed_with_its_range_code_and_link_then_cleared(
    shop: Path,
) -> None:
    path = shop / ORDER_FILE
    on_disk = path.read_text(encoding="utf-8")
    async with served(shop) as client:
        uri = open_document(client, path, on_disk)
        assert await published(client, uri) == []

        change_document(client, uri, on_disk + VIOLATION, version=2)
        diagnostics = await published(client, uri)
        assert [d.code for d in diagnostics] == ["INW001"]
        found = diagnostics[0]
        row = len(on_disk.splitlines())
        assert found.range.start.line == found.range.end.line == row
        assert utf16_slice(VIOLATION, found.range.start.character, found.range.end.character) == (
            "SqlOrders"
        )
        assert found.source == "inwards"
        assert found.severity == types.DiagnosticSeverity.Error
        assert found.code_description is not None
        assert found.code_description.href == "https://docs.example.org/inwards/rules/INW001.md"
        assert "\nFix: " in found.message
        assert found.data["origin"] == "core"
        assert path.read_text(encoding="utf-8") == on_disk  # nothing written

        change_document(client, uri, on_disk, version=3)
        assert await published(client, uri) == []

        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert await published(client, uri) == []


@pytest.mark.asyncio
async def test_a_save_runs_a_whole_pass_that_republishes_other_files(shop: Path) -> None:
    path = shop / ORDER_FILE
    async with served(shop) as client:
        uri = open_document(client, path, path.read_text(encoding="utf-8"))
        assert await published(client, uri) == []
        with path.open("a", encoding="utf-8") as handle:
            handle.write(VIOLATION)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert [d.code for d in await published(client, uri)] == ["INW001"]


@pytest.mark.asyncio
async def test_a_pulling_client_gets_a_full_report_and_no_pushes(shop: Path) -> None:
    path = shop / ORDER_FILE
    path.write_text(path.read_text(encoding="utf-8") + VIOLATION, encoding="utf-8")
    async with served(shop, PULL) as client:
        uri = open_document(client, path, path.read_text(encoding="utf-8"))
        report = await asyncio.wait_for(
            client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
            ),
            WAIT,
        )
        assert isinstance(
            report, types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport
        )
        assert [d.code for d in report.items] == ["INW001"]
        assert uri not in client.diagnostics  # pulled, never pushed


@pytest.mark.asyncio
async def test_a_broken_configuration_is_one_diagnostic_at_its_line_until_fixed(
    shop: Path,
) -> None:
    pyproject = shop / "pyproject.toml"
    good = pyproject.read_text(encoding="utf-8")
    lines = good.splitlines(keepends=True)
    row = next(i for i, line in enumerate(lines) if line.startswith("root ="))
    broken = "".join([*lines[:row], "root = 12\n", *lines[row + 1 :]])
    async with served(shop) as client:
        uri = open_document(client, pyproject, good)
        assert await published(client, uri) == []

        pyproject.write_text(broken, encoding="utf-8")
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        diagnostics = await published(client, uri)
        assert len(diagnostics) == 1
        assert diagnostics[0].range.start.line == row
        assert "root" in diagnostics[0].message
        # Fixed in the file, never suppressed: no directive is offered for pyproject.toml.
        assert not await code_actions(client, uri, diagnostics)

        pyproject.write_text(good, encoding="utf-8")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=uri, type=types.FileChangeType.Changed)]
            )
        )
        assert await published(client, uri) == []


@pytest.mark.asyncio
async def test_the_quick_fix_suppresses_the_finding_and_hover_names_the_rule(shop: Path) -> None:
    path = shop / ORDER_FILE
    text = path.read_text(encoding="utf-8") + VIOLATION
    async with served(shop) as client:
        uri = open_document(client, path, text)
        diagnostics = await published(client, uri)
        assert [d.code for d in diagnostics] == ["INW001"]
        actions = await code_actions(client, uri, diagnostics)
        assert actions is not None and len(actions) == 1
        action = actions[0]
        assert isinstance(action, types.CodeAction)
        assert action.edit is not None and action.edit.changes is not None
        (edit,) = action.edit.changes[uri]
        row = len(text.splitlines()) - 1
        assert edit.range.start.line == row
        fixed_line = VIOLATION.rstrip("\n") + edit.new_text
        assert fixed_line.endswith(
            '  # inwards: ignore[INW001] reason="say why this import is allowed"'
        )

        fixed = text.rstrip("\n").rsplit("\n", 1)[0] + "\n" + fixed_line + "\n"
        change_document(client, uri, fixed, version=2)
        assert await published(client, uri) == []

        hover = await asyncio.wait_for(
            client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    position=types.Position(line=row, character=utf16_column(fixed_line, "W001]")),
                )
            ),
            WAIT,
        )
        assert hover is not None
        assert isinstance(hover.contents, types.MarkupContent)
        assert hover.contents.value.startswith("**INW001**")
        assert "rules/INW001.md" in hover.contents.value
        # The fix summary is the definition's template: said to be one, as `inwards rule` says.
        assert (
            'Fix (`{...}` are filled in from each finding): Invert the dependency: let "{layer}"'
            in hover.contents.value
        )


@pytest.mark.asyncio
async def test_each_workspace_folder_is_its_own_project(shop: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(shop, other)
    pyproject = other / "pyproject.toml"
    # The second project turns the layer rule off: the same import is reported in one only.
    text = pyproject.read_text(encoding="utf-8")
    assert "[tool.inwards.rules]" not in text
    pyproject.write_text(f'{text}\n[tool.inwards.rules]\nignore = ["INW001"]\n', "utf-8")
    async with served(shop, PUSH, other) as client:
        first = open_document(
            client, shop / ORDER_FILE, (shop / ORDER_FILE).read_text("utf-8") + VIOLATION
        )
        assert [d.code for d in await published(client, first)] == ["INW001"]
        path = other / ORDER_FILE
        second = open_document(client, path, path.read_text("utf-8") + VIOLATION)
        assert await published(client, second) == []


@pytest.mark.asyncio
async def test_the_first_pass_reports_progress_to_a_client_that_shows_it(shop: Path) -> None:
    capabilities = types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True)
    )
    async with served(shop, capabilities) as client:
        path = shop / ORDER_FILE
        uri = open_document(client, path, path.read_text(encoding="utf-8"))
        assert await published(client, uri) == []
        # The progress may end after the document's answer (the two are handled as they
        # come): wait for its end.
        deadline = asyncio.get_running_loop().time() + WAIT
        while not any(
            isinstance(report, types.WorkDoneProgressEnd)
            for reports in client.progress_reports.values()
            for report in reports
        ):
            assert asyncio.get_running_loop().time() < deadline, client.progress_reports
            await asyncio.sleep(0.02)
        (reports,) = client.progress_reports.values()
        assert [type(report) for report in reports] == [
            types.WorkDoneProgressBegin,
            types.WorkDoneProgressEnd,
        ]


@pytest.mark.asyncio
async def test_a_broken_baseline_is_a_diagnostic_on_it_not_a_crash(shop: Path) -> None:
    baseline = shop / "inwards-baseline.json"
    uri = baseline.as_uri()
    async with served(shop) as client:
        path = shop / ORDER_FILE
        opened = open_document(client, path, path.read_text(encoding="utf-8"))
        assert await published(client, opened) == []  # the project is open and clean

        baseline.write_text('{"schema": "inwards/baseline@1",\n  "entries": [1, 2\n', "utf-8")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=uri, type=types.FileChangeType.Created)]
            )
        )
        diagnostics = await published(client, uri)
        assert len(diagnostics) == 1
        assert diagnostics[0].source == "inwards"
        assert diagnostics[0].severity == types.DiagnosticSeverity.Error

        baseline.unlink()
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=uri, type=types.FileChangeType.Deleted)]
            )
        )
        assert await published(client, uri) == []


CONTEXTS = """[project]
name = "contexts"
version = "1"

[tool.inwards]
root = "."
layers = [{ name = "app", modules = ["shop"] }]

[[tool.inwards.contexts]]
name = "orders"
modules = ["shop.orders"]
depends-on = ["billing"]

[[tool.inwards.contexts]]
name = "billing"
modules = ["shop.billing"]
public = ["shop.billing.api"]
"""


@pytest.mark.asyncio
async def test_an_import_of_a_private_module_is_replaced_with_the_public_one(
    tmp_path: Path,
) -> None:
    project = tmp_path / "contexts"
    files = {
        "pyproject.toml": CONTEXTS,
        "shop/__init__.py": "",
        "shop/orders/__init__.py": "",
        "shop/billing/__init__.py": "",
        "shop/billing/internal.py": "def charge(amount: int) -> int:\n    return amount\n",
        "shop/billing/api.py": 'from shop.billing.internal import charge\n\n__all__ = ["charge"]\n',
        "shop/orders/checkout.py": "from shop.billing.internal import charge\n\n\n"
        "def pay() -> int:\n    return charge(1)\n",
    }
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    path = project / "shop/orders/checkout.py"
    async with served(project) as client:
        uri = open_document(client, path, files["shop/orders/checkout.py"])
        diagnostics = await published(client, uri)
        assert [d.code for d in diagnostics] == ["INW003"]
        actions = await code_actions(client, uri, diagnostics)
        assert actions is not None
        replace = actions[0]
        assert isinstance(replace, types.CodeAction) and replace.is_preferred
        assert replace.edit is not None and replace.edit.changes is not None
        (edit,) = replace.edit.changes[uri]
        assert edit.new_text == "from shop.billing.api import charge"
        assert (edit.range.start, edit.range.end) == (
            types.Position(line=0, character=0),
            types.Position(line=0, character=len("from shop.billing.internal import charge")),
        )
        fixed = files["shop/orders/checkout.py"].replace("billing.internal", "billing.api", 1)
        change_document(client, uri, fixed, version=2)
        assert await published(client, uri) == []


def test_without_pygls_the_command_names_the_extra_and_exits_2() -> None:
    hidden = (
        "import sys; sys.modules['pygls'] = None; sys.argv = ['inwards', 'server'];"
        " from inwards_cli.main import main; main()"
    )
    run = subprocess.run(
        [sys.executable, "-c", hidden], capture_output=True, text=True, timeout=WAIT, check=False
    )
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        "inwards server needs pygls and lsprotocol: pip install 'inwards-lint[lsp]'"
    ]
