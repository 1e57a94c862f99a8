"""Code actions on inwards' diagnostics (LSP 3.17 `textDocument/codeAction`): INW003's
public-module import, the suppression directive (as a snippet that selects the reason when
the client takes LSP 3.18 snippet edits; else plain text, then a command that has the
client select the reason), and "open the rule's page", a command the server runs by asking
the client to show the page (`window/showDocument`)."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import TextDocument

from inwards_cli.lsp import convert
from inwards_cli.lsp.projects import InwardsServer, path_of

# The command behind "Open the rule's page": arguments [rule code, document URI].
OPEN_RULE_PAGE = "inwards.openRulePage"
# The command run after a plain suppression edit: arguments [document URI, line, first
# and last column of the reason], which the client is asked to select.
SELECT_REASON = "inwards.selectReason"


def code_actions(ls: InwardsServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    lines = document.source.splitlines()
    actions: list[types.CodeAction] = []
    for found in params.context.diagnostics:
        data = found.data if isinstance(found.data, dict) else {}
        if found.source != convert.SOURCE or not isinstance(found.code, str):
            continue
        row = found.range.start.line
        if row >= len(lines):
            continue
        steps = data.get("fixSteps")
        public = (
            convert.public_import_edit(steps, lines[row], row, ls.encoding)
            if found.code == "INW003" and isinstance(steps, list)
            else None
        )
        if public is not None:
            statement, replacement = public
            actions.append(
                types.CodeAction(
                    title=f"Import from the public module: {statement}",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[found],
                    is_preferred=True,
                    edit=types.WorkspaceEdit(changes={uri: [replacement]}),
                )
            )
        # A configuration problem (code "config", no rule behind it) is fixed in the file,
        # never suppressed: a directive has no place in pyproject.toml.
        if "rule" in data and data.get("suppressible", True):
            actions.append(_suppression(ls, found, found.code, lines[row], row, document))
        if ls.shows_documents and found.code_description is not None:
            actions.append(
                types.CodeAction(
                    title=f"Open the page of {found.code}",
                    diagnostics=[found],
                    command=types.Command(
                        title=f"Open the page of {found.code}",
                        command=OPEN_RULE_PAGE,
                        arguments=[found.code, uri],
                    ),
                )
            )
    return actions


def _suppression(
    ls: InwardsServer,
    found: types.Diagnostic,
    code: str,
    line_text: str,
    row: int,
    document: TextDocument,
) -> types.CodeAction:
    """The directive as a snippet whose placeholder selects the reason (LSP 3.18
    `SnippetTextEdit`, in a `TextDocumentEdit`) when the client takes one; plain text
    with a reason to replace otherwise."""
    title = f"Suppress {code} on this line (inwards: ignore with a reason)"
    if ls.snippet_edits:
        snippet = convert.suppression_snippet(line_text, row, code, ls.encoding)
        edit = types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=document.uri, version=document.version
                    ),
                    edits=[snippet],
                )
            ]
        )
    else:
        plain = convert.suppression_edit(line_text, row, code, ls.encoding)
        edit = types.WorkspaceEdit(changes={document.uri: [plain]})
        reason = convert.reason_range(plain, ls.encoding)
        if reason is not None and ls.shows_documents:
            # A client applies a code action's edit before it runs its command: the command
            # asks it to select the reason in the edited line, so typing replaces it.
            select = types.Command(
                title="Select the reason",
                command=SELECT_REASON,
                arguments=[document.uri, row, reason.start.character, reason.end.character],
            )
            return types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[found],
                edit=edit,
                command=select,
            )
    return types.CodeAction(
        title=title, kind=types.CodeActionKind.QuickFix, diagnostics=[found], edit=edit
    )


async def select_reason(
    ls: InwardsServer, uri: str, row: int, start: int, end: int
) -> types.ShowDocumentResult:
    """Ask the client to show an open document with a range of one line selected (the
    reason a suppression edit just wrote)."""
    if uri not in ls.workspace.text_documents or not ls.shows_documents or start > end:
        return types.ShowDocumentResult(success=False)
    selection = types.Range(
        start=types.Position(line=row, character=start),
        end=types.Position(line=row, character=end),
    )
    return await ls.window_show_document_async(
        types.ShowDocumentParams(uri=uri, take_focus=True, selection=selection)
    )


async def open_rule_page(ls: InwardsServer, code: str, uri: str) -> types.ShowDocumentResult:
    """Ask the client to open the page of rule `code` (as the project of `uri` defines it)
    in the browser. Only a page this server links is opened, whatever the arguments say."""
    path = path_of(uri)
    project = ls.project_for(path) if path is not None else None
    session = project.session if project is not None else None
    active = {rule.code: rule for rule in session.rules}.get(code) if session else None
    page = ls.links.rule_page(active.rule) if active is not None else None
    if page is None or not ls.shows_documents:
        return types.ShowDocumentResult(success=False)
    return await ls.window_show_document_async(types.ShowDocumentParams(uri=page, external=True))
