"""Pulled diagnostics: `textDocument/diagnostic` for one document and `workspace/diagnostic`
for every file of every open project (LSP 3.17, "Pull Diagnostics").

A report's `resultId` is a digest of its diagnostics, so the same diagnostics always get
the same id and a client that sends back the id of what it holds is answered `unchanged`
when nothing changed, with no state kept per client.

A workspace pull that would say nothing new (every report unchanged) is held until a pass
changes something, as the specification intends the request to be used (long polling):
editors such as VS Code pull again as soon as they have an answer, and an idle server then
answers nothing at all. The client's `$/cancelRequest`, or `shutdown`, ends a held pull.

A client that gives a `partialResultToken` gets a large answer in parts through
`$/progress`, `PARTIAL_REPORTS` files a part: first a `WorkspaceDiagnosticReport`, then
`WorkspaceDiagnosticReportPartialResult`s, and an empty response (the specification's
partial results carry the whole answer), so the editor takes in one part at a time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence

from lsprotocol import types
from lsprotocol.converters import get_converter

from inwards_cli.lsp.projects import InwardsServer, Project, path_of, uri_of

_CONVERTER = get_converter()


def result_id(diagnostics: Sequence[types.Diagnostic]) -> str:
    """The id of a report holding `diagnostics`: the same for the same diagnostics."""
    document = json.dumps(_CONVERTER.unstructure(list(diagnostics)), sort_keys=True)
    return hashlib.sha256(document.encode("utf-8")).hexdigest()[:20]


def document_report(
    ls: InwardsServer, params: types.DocumentDiagnosticParams
) -> types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport:
    diagnostics = ls.diagnostics(params.text_document.uri)
    current = result_id(diagnostics)
    if params.previous_result_id == current:
        return types.UnchangedDocumentDiagnosticReport(result_id=current)
    return types.FullDocumentDiagnosticReport(items=diagnostics, result_id=current)


async def workspace_report(
    ls: InwardsServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """`workspace_items`, once one of them is news to the client (held until then)."""
    while True:
        items, reported = workspace_items(ls, params)
        if any(isinstance(item, types.WorkspaceFullDocumentDiagnosticReport) for item in items):
            ls.reported = reported
            token = params.partial_result_token
            if token is None or len(items) <= PARTIAL_REPORTS:
                return types.WorkspaceDiagnosticReport(items=items)
            return _in_parts(ls, token, items)
        await ls.next_change()


PARTIAL_REPORTS = 100
"""Files a part of a workspace answer sent in parts holds."""


def _in_parts(
    ls: InwardsServer,
    token: types.ProgressToken,
    items: Sequence[types.WorkspaceDocumentDiagnosticReport],
) -> types.WorkspaceDiagnosticReport:
    for start in range(0, len(items), PARTIAL_REPORTS):
        part = list(items[start : start + PARTIAL_REPORTS])
        value: types.WorkspaceDiagnosticReport | types.WorkspaceDiagnosticReportPartialResult
        if start == 0:
            value = types.WorkspaceDiagnosticReport(items=part)
        else:
            value = types.WorkspaceDiagnosticReportPartialResult(items=part)
        ls.progress(types.ProgressParams(token=token, value=value))
    return types.WorkspaceDiagnosticReport(items=[])


def workspace_items(
    ls: InwardsServer, params: types.WorkspaceDiagnosticParams
) -> tuple[list[types.WorkspaceDocumentDiagnosticReport], set[str]]:
    """A report for every file with findings or configuration problems in every open
    project, and for every file the client holds diagnostics of (from this server's last
    answer or its `previousResultIds`), empty when they are gone; sorted by URI. And the
    URIs given diagnostics."""
    for folder in ls.workspace.folders.values():
        path = path_of(folder.uri)
        if path is not None:
            ls.project_for(path / "pyproject.toml")  # each folder its own project
    previous = {entry.uri: entry.value for entry in params.previous_result_ids}
    uris = set(ls.reported) | set(previous)
    for project in ls.projects.values():
        uris.update(_files_with_diagnostics(project))
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    reported: set[str] = set()
    for uri in sorted(uris):
        diagnostics = ls.diagnostics(uri)
        if diagnostics:
            reported.add(uri)
        document = ls.workspace.text_documents.get(uri)
        version = document.version if document is not None else None
        current = result_id(diagnostics)
        if previous.get(uri) == current:
            items.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(
                    uri=uri, result_id=current, version=version
                )
            )
        else:
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, items=diagnostics, result_id=current, version=version
                )
            )
    return items, reported


def _files_with_diagnostics(project: Project) -> Iterable[str]:
    for relative, findings in (*project.findings.items(), *project.drafts.items()):
        if findings:
            yield uri_of(project.directory / relative)
    for file in project.problems:
        yield uri_of(file)
