"""`inwards server`: the language server, over stdio (pygls 2 and lsprotocol).

One warm `inwards_core.Session` per project (a workspace folder, or the project holding an
opened file), kept between requests. What it does, and the parts of the LSP 3.17
specification it follows, is in docs/editors.md. In short, as ruff's server does:

- a client that declares `textDocument.diagnostic` pulls diagnostics; any other is pushed
  `textDocument/publishDiagnostics` on open, change and save, and `[]` on close;
- a change checks that document's unsaved text alone and keeps the other files' findings
  from the last whole pass; a save, or a watched `pyproject.toml` or project rule file,
  runs a whole pass (the open documents' unsaved texts laid over the disk) and republishes
  every file, a burst of them two passes at most (`passes.py`);
- a pulling client may also pull the whole workspace (`reports.py`);
- code actions and their command are in `actions.py`, hover in `hover.py`.
- a configuration that can't be used is one diagnostic per problem at its file and line,
  and the project is read again when that file changes.

The session is not thread-safe, so every handler runs on the server's one thread (its
asyncio loop; the coalesced passes run there too). The state and the passes themselves are
in `projects.py`.
"""

from __future__ import annotations

import logging

from lsprotocol import types

from inwards_cli.lsp import actions, hover, reports, stdio
from inwards_cli.lsp.projects import InwardsServer, differs, path_of


def build_server() -> InwardsServer:
    server = InwardsServer()

    @server.feature(types.INITIALIZED)
    async def initialized(ls: InwardsServer, params: types.InitializedParams) -> None:
        if ls.links_warning:
            ls.window_log_message(
                types.LogMessageParams(type=types.MessageType.Warning, message=ls.links_warning)
            )
        await ls.first_passes()
        watched = ls.client_capabilities.workspace
        changes = watched.did_change_watched_files if watched is not None else None
        if changes is not None and changes.dynamic_registration:
            ls.client_register_capability(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="inwards-watched-files",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=[
                                    types.FileSystemWatcher(glob_pattern="**/pyproject.toml"),
                                    types.FileSystemWatcher(
                                        glob_pattern="**/.inwards/rules/*.toml"
                                    ),
                                    types.FileSystemWatcher(
                                        glob_pattern="**/inwards-baseline.json"
                                    ),
                                    *_outside_watchers(ls, changes),
                                ]
                            ),
                        )
                    ]
                )
            )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: InwardsServer, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = path_of(uri)
        project = ls.project_for(path) if path is not None else None
        if project is not None and path is not None and differs(path, params.text_document.text):
            ls.draft_pass(project, uri)  # opened with text that is not what the disk holds
        ls.publish(uri, version=params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: InwardsServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = path_of(uri)
        project = ls.project_for(path) if path is not None else None
        if project is None:
            return
        ls.draft_pass(project, uri)
        ls.publish(uri, version=params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: InwardsServer, params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        project = ls.project_for(path)
        if project is not None:
            relative = project.relative(path)
            if relative is not None:
                project.drafts.pop(relative, None)
        ls.passes.add([path], also=[params.text_document.uri])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: InwardsServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = path_of(uri)
        project = ls.project_for(path) if path is not None else None
        if project is not None and path is not None:
            relative = project.relative(path)
            # The closed buffer's unsaved text is gone: the file counts as on disk again.
            dropped = project.drafts.pop(relative, None) if relative is not None else None
            if dropped is not None and relative is not None and project.session is not None:
                ls.tell(project, relative)
                ls.changed()  # its diagnostics are the last whole pass's again
        if not ls.pulls:
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: InwardsServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = [path_of(change.uri) for change in params.changes]
        ls.passes.add(path for path in paths if path is not None)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="inwards",
            # Architecture rules are cross-file: an edit can change another file's findings.
            inter_file_dependencies=True,
            workspace_diagnostics=True,
        ),
    )
    def pull(
        ls: InwardsServer, params: types.DocumentDiagnosticParams
    ) -> types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport:
        return reports.document_report(ls, params)

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def pull_workspace(
        ls: InwardsServer, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        return await reports.workspace_report(ls, params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: InwardsServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return actions.code_actions(ls, params)

    @server.command(actions.OPEN_RULE_PAGE)
    async def open_rule_page(ls: InwardsServer, code: str, uri: str) -> types.ShowDocumentResult:
        return await actions.open_rule_page(ls, code, uri)

    @server.command(actions.SELECT_REASON)
    async def select_reason(
        ls: InwardsServer, uri: str, row: int, start: int, end: int
    ) -> types.ShowDocumentResult:
        return await actions.select_reason(ls, uri, row, start, end)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover_at(ls: InwardsServer, params: types.HoverParams) -> types.Hover | None:
        return hover.hover(ls, params)

    return server


def _outside_watchers(
    ls: InwardsServer, changes: types.DidChangeWatchedFilesClientCapabilities
) -> list[types.FileSystemWatcher]:
    """The user and organisation rule roots, for a client that watches folders outside the
    workspace (`RelativePattern`, LSP 3.17); any other client still tells of a definition
    saved in the editor (`didSave`)."""
    if not changes.relative_pattern_support:
        return []
    return [
        types.FileSystemWatcher(
            glob_pattern=types.RelativePattern(base_uri=root.as_uri(), pattern="**/*.toml")
        )
        for root in ls.outside_roots
    ]


def serve() -> None:
    """Serve on stdin and stdout until the client exits; logs go to stderr."""
    logging.basicConfig(level=logging.WARNING)
    server = build_server()
    try:
        if not stdio.serve_in_loop(server):
            server.start_io()  # stdin the event loop can't wait on (a regular file)
    finally:
        server.close_all()
