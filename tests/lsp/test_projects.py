"""`inwards server` on what a project is made of beyond its Python files: a project rule
root changed while the server runs, and a uv workspace whose members are projects of
their own (each sees the others' packages as `inwards check` run there does)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from inwards_core.families.inw import definitions
from inwards_core.reporting.docs_links import DEFAULT_INFORMATION_URI
from tests.e2e.helpers import NO_USER_CONFIG, inwards_executable, write_tree
from tests.e2e.test_org_root import PROJECT as ORG_PROJECT
from tests.e2e.test_org_root import make_pack, new_rule, on_path
from tests.lsp.test_features import save
from tests.lsp.test_server import (
    ORDER_FILE,
    PUSH,
    VIOLATION,
    WAIT,
    open_document,
    published,
    served,
    shop,
    until,
)

__all__ = ["shop"]  # the fixture, shared with test_server.py

CORE_INW001 = Path(definitions.__file__).parent / "INW001.toml"


@pytest.mark.asyncio
async def test_a_project_rule_written_while_open_changes_the_findings(shop: Path) -> None:
    async with served(shop, PUSH) as client:
        path = shop / ORDER_FILE
        uri = open_document(client, path, path.read_text("utf-8") + VIOLATION)
        (found,) = await published(client, uri)
        assert (found.code, found.severity) == ("INW001", types.DiagnosticSeverity.Error)

        # The team shadows the shipped rule, lowering it to a warning (as the file
        # `inwards rules shadow INW001` writes would, once edited).
        shadow = shop / ".inwards" / "rules" / "INW001.toml"
        shadow.parent.mkdir(parents=True, exist_ok=True)
        text = CORE_INW001.read_text("utf-8")
        assert 'severity = "error"' in text
        shadow.write_text(text.replace('severity = "error"', 'severity = "warning"'), "utf-8")
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=shadow.as_uri(), type=types.FileChangeType.Created)]
            )
        )
        (shadowed,) = await published(client, uri)
        assert (shadowed.code, shadowed.severity) == ("INW001", types.DiagnosticSeverity.Warning)
        assert shadowed.data is not None and shadowed.data["origin"] == "project"

        shadow.unlink()  # gone again: the core definition is back
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=shadow.as_uri(), type=types.FileChangeType.Deleted)]
            )
        )
        (restored,) = await published(client, uri)
        assert restored.severity == types.DiagnosticSeverity.Error


@pytest.mark.asyncio
async def test_an_unusable_docs_url_is_logged_and_the_links_fall_back(shop: Path) -> None:
    async with served(shop, PUSH, docs_url="ftp://docs.example.org/inwards") as client:
        path = shop / ORDER_FILE
        uri = open_document(client, path, path.read_text("utf-8") + VIOLATION)
        (found,) = await published(client, uri)
        assert found.code_description is not None
        assert found.code_description.href == DEFAULT_INFORMATION_URI

        # The warning is logged when the client says it is initialized; the document's
        # diagnostics may overtake it.
        def warnings() -> list[str]:
            return [
                message.message
                for message in client.log_messages
                if message.type == types.MessageType.Warning
            ]

        await asyncio.wait_for(until(lambda: bool(warnings())), WAIT)
        assert any("INWARDS_DOCS_URL=" in message for message in warnings()), warnings()


@pytest.mark.asyncio
async def test_a_rule_pack_installed_while_open_is_read_at_the_next_save(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "project", ORG_PROJECT)
    site = tmp_path / "site"
    site.mkdir()
    env = {"PYTHONPATH": on_path(site), "INWARDS_ORG_RULES_DIR": ""}
    async with served(project, PUSH, env=env) as client:
        path = project / "shop/domain/order.py"
        uri = open_document(client, path, path.read_text("utf-8"))
        assert "ACME003" not in [found.code for found in await published(client, uri)]

        make_pack(site, {"ACME003.toml": new_rule("ACME003", "From the pack")})  # pip install
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        # Every pass publishes the file: the first pass's answer may still be on its way.
        packed: list[types.Diagnostic] = []
        while not packed:
            packed = [found for found in await published(client, uri) if found.code == "ACME003"]
        assert packed[0].message.endswith("\nFix: From the pack: keep sqlalchemy out.")
        assert packed[0].data is not None and packed[0].data["origin"] == "org"


@pytest.mark.asyncio
async def test_a_family_that_fails_to_load_once_installed_is_said_and_the_server_stays(
    tmp_path: Path, shop: Path
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    env = {"PYTHONPATH": on_path(site)}
    path = shop / ORDER_FILE
    path.write_text(path.read_text("utf-8") + VIOLATION, "utf-8")  # saved: what saves keep
    async with served(shop, PUSH, env=env) as client:
        uri = open_document(client, path, path.read_text("utf-8"))
        assert [found.code for found in await published(client, uri)] == ["INW001"]

        broken = site / "broken_family-0.1.dist-info"  # pip install of a broken family
        write_tree(broken, {"entry_points.txt": "[inwards]\nbroken = no_such_module_here\n"})
        save(client, uri)

        def errors() -> list[str]:
            return [m.message for m in client.messages if m.type == types.MessageType.Error]

        await asyncio.wait_for(until(lambda: bool(errors())), WAIT)
        assert "no_such_module_here" in errors()[0], errors()

        shutil.rmtree(broken)  # uninstalled: the next save checks again
        save(client, uri)
        found: list[types.Diagnostic] = []
        while [d.code for d in found] != ["INW001"]:
            found = list(await published(client, uri))


TABLE = (
    '[tool.inwards]\nroot = "src"\n'
    'layers = [{ name = "domain", modules = ["acme.{member}.domain"] },\n'
    '          { name = "app", modules = ["acme.{member}.app"] }]\n'
)
# In the api member, an import of the core member's package: another member's code, which
# `inwards check` there neither takes for a missing module of its own (INW010) nor reports.
API_SERVICE = "from acme.core.domain.money import Money\nfrom acme.api.domain.nothing import x\n"


@pytest.fixture
def uv_workspace(tmp_path: Path) -> Path:
    root = tmp_path / "mono"
    write_tree(
        root,
        {
            "pyproject.toml": '[tool.uv.workspace]\nmembers = ["packages/*"]\n',
            "packages/core/pyproject.toml": TABLE.replace("{member}", "core"),
            "packages/core/src/acme/core/__init__.py": "",
            "packages/core/src/acme/core/domain/__init__.py": "",
            "packages/core/src/acme/core/domain/money.py": "class Money: ...\n",
            "packages/core/src/acme/core/app/__init__.py": "",
            "packages/api/pyproject.toml": TABLE.replace("{member}", "api"),
            "packages/api/src/acme/api/__init__.py": "",
            "packages/api/src/acme/api/domain/__init__.py": "",
            "packages/api/src/acme/api/app/__init__.py": "",
            "packages/api/src/acme/api/app/service.py": API_SERVICE,
        },
    )
    return root


def check_json(directory: Path) -> list[dict[str, object]]:
    done = subprocess.run(
        [*inwards_executable(), "check", "--format", "json", "--no-cache"],
        cwd=directory,
        capture_output=True,
        text=True,
        env={**os.environ, "XDG_CONFIG_HOME": str(NO_USER_CONFIG)},
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    diagnostics: list[dict[str, object]] = json.loads(done.stdout)["diagnostics"]
    return diagnostics


async def latest(
    client: LanguageClient,
    uri: str,
    wanted: Callable[[Sequence[types.Diagnostic]], bool],
) -> Sequence[types.Diagnostic]:
    """The diagnostics the client holds for `uri` once they are `wanted` (non-empty)."""
    async with asyncio.timeout(WAIT):
        while True:
            held = client.diagnostics.get(uri)
            if held and wanted(held):
                return held
            await asyncio.sleep(0.02)


@pytest.mark.asyncio
async def test_a_user_rule_saved_in_the_editor_reloads_every_project(
    shop: Path, tmp_path: Path
) -> None:
    config_home = tmp_path / "config"
    user_root = config_home / "inwards" / "rules"
    user_root.mkdir(parents=True)
    async with served(shop, PUSH, config_home=config_home) as client:
        path = shop / ORDER_FILE
        uri = open_document(client, path, path.read_text("utf-8") + VIOLATION)
        (found,) = await published(client, uri)
        assert found.severity == types.DiagnosticSeverity.Error
        # The developer's own shadow, written and saved in the editor: it lies outside
        # every project, yet changes the rule set of each.
        shadow = user_root / "INW001.toml"
        text = CORE_INW001.read_text("utf-8")
        shadow.write_text(text.replace('severity = "error"', 'severity = "warning"'), "utf-8")
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=shadow.as_uri())
            )
        )
        # The pass republishes the saved definition's URI first, then the document's: the
        # client keeps the last diagnostics of each.
        (shadowed,) = await latest(client, uri, lambda d: d[0].severity != found.severity)
        assert shadowed.severity == types.DiagnosticSeverity.Warning
        assert shadowed.data is not None and shadowed.data["origin"] == "user"


@pytest.mark.asyncio
async def test_a_uv_workspace_member_is_checked_as_inwards_check_there_checks_it(
    uv_workspace: Path,
) -> None:
    member = uv_workspace / "packages" / "api"
    expected = check_json(member)
    # The member's own missing module is reported; the other member's package is not.
    assert [(d["code"], d["line"]) for d in expected] == [("INW010", 2)]
    async with served(uv_workspace, PUSH) as client:
        # The folder is the workspace root, which has no [tool.inwards]: the first pass
        # checks each member that has one, before any of its files is opened.
        path = member / "src" / "acme" / "api" / "app" / "service.py"
        uri = path.as_uri()
        found = client.diagnostics.get(uri)
        if found is None:
            found = await published(client, uri)
        assert [(d.code, d.range.start.line + 1) for d in found] == [("INW010", 2)]
