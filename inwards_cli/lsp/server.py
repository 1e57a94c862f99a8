"""`inwards server`: the language server, over stdio (pygls 2 and lsprotocol).

One warm `inwards_core.Session` per project (a workspace folder, or the project holding an
opened file), kept between requests. What it does, and the parts of the LSP 3.17
specification it follows, is in docs/editors.md. In short, as ruff's server does:

- a client that declares `textDocument.diagnostic` pulls diagnostics; any other is pushed
  `textDocument/publishDiagnostics` on open, change and save, and `[]` on close;
- a change checks that document's unsaved text alone and keeps the other files' findings
  from the last whole pass; a save, or a watched `pyproject.toml` or project rule file,
  runs a whole pass (the open documents' unsaved texts laid over the disk) and republishes
  every file;
- a configuration that can't be used is one diagnostic per problem at its file and line,
  and the project is read again when that file changes.

The session is not thread-safe, so every handler runs on the server's one thread.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from inwards_cli.config_file import find_config
from inwards_cli.lsp import convert
from inwards_core import BaselineError, ConfigError, ConfigProblem, Finding, Session
from inwards_core.version import VERSION

_RULE_ROOT = ".inwards/rules/"  # the project root of rule definitions


class Project:
    """One project's warm session, or the problems that keep it from opening, and what the
    last passes found (per file, POSIX paths relative to the project directory)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.session: Session | None = None
        self.problems: dict[Path, list[types.Diagnostic]] = {}  # config problems per file
        self.findings: dict[str, list[Finding]] = {}  # the last whole pass, per file
        self.drafts: dict[str, list[Finding]] = {}  # unsaved texts' own checks
        self.published: set[str] = set()  # URIs last given diagnostics by a whole pass

    def relative(self, path: Path) -> str | None:
        try:
            return path.relative_to(self.directory).as_posix()
        except ValueError:
            return None


class InwardsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("inwards", VERSION)
        self.projects: dict[Path, Project] = {}
        # Each folder's project directory (None: none), until a pyproject.toml changes.
        self.config_dirs: dict[Path, Path | None] = {}
        self.links = convert.docs_links()

    # -- the client ---------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        chosen = self.server_capabilities.position_encoding
        return str(chosen) if chosen else types.PositionEncodingKind.Utf16

    @property
    def pulls(self) -> bool:
        """Whether the client pulls diagnostics (then nothing is pushed)."""
        capabilities = self.client_capabilities.text_document
        return capabilities is not None and capabilities.diagnostic is not None

    def refresh_pulled(self) -> None:
        """Ask a pulling client to pull again after a whole pass changed other files."""
        workspace = self.client_capabilities.workspace
        diagnostics = workspace.diagnostics if workspace is not None else None
        if diagnostics is not None and diagnostics.refresh_support:
            self.workspace_diagnostic_refresh(None)

    # -- projects -----------------------------------------------------------------------

    def project_for(self, path: Path) -> Project | None:
        """The project holding `path` (opened, and given a first pass, on first need)."""
        folder = path.parent
        if folder not in self.config_dirs:  # find_config reads TOML: once per folder
            config = find_config(folder)
            self.config_dirs[folder] = config.parent if config is not None else None
        directory = self.config_dirs[folder]
        if directory is None:
            return None
        project = self.projects.get(directory)
        if project is None:
            project = self.projects[directory] = Project(directory)
            self.open_session(project)
            self.whole_pass(project)
        return project

    def open_session(self, project: Project) -> None:
        if project.session is not None:
            project.session.close()
            project.session = None
        project.problems = {}
        try:
            project.session = Session.open(project.directory)
        except ConfigError as error:
            self.add_problems(project, error.problems)
        except BaselineError as error:
            problem = ConfigProblem(
                error.file, error.line, error.column, key=error.key, message=error.reason
            )
            self.add_problems(project, [problem])
        except Exception as error:
            # An editor's server stays up whatever the project holds (an installed family
            # that fails to load, an unreadable tree): it says so once.
            self.window_show_message(
                types.ShowMessageParams(
                    type=types.MessageType.Error,
                    message=f"inwards can't check {project.directory}: {error}",
                )
            )

    def add_problems(self, project: Project, problems: Iterable[ConfigProblem]) -> None:
        for problem in problems:
            # A problem names its file relative to the project (the configuration's
            # directory), or absolute (a rule definition in another root).
            file = project.directory / problem.file
            lines = self.lines_of(file)
            project.problems.setdefault(file, []).append(
                convert.config_diagnostic(problem, lines, self.encoding)
            )

    def lines_of(self, path: Path) -> list[str]:
        """The text of a file as the editor holds it (an open document) or as on disk."""
        document = self.workspace.text_documents.get(from_fs_path(str(path)) or "")
        if document is not None:
            source: str = document.source
            return source.splitlines()
        try:
            return path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
        except OSError:
            return []

    def drafts_of(self, project: Project) -> dict[str, str]:
        """The unsaved texts of the project's open documents that differ from the disk."""
        drafts: dict[str, str] = {}
        for uri, document in self.workspace.text_documents.items():
            path = _path(uri)
            relative = project.relative(path) if path is not None else None
            if relative is None or path is None or relative not in project.drafts:
                continue
            drafts[relative] = document.source
        return drafts

    # -- passes -------------------------------------------------------------------------

    def whole_pass(self, project: Project, also: Iterable[str] = ()) -> None:
        """Check the whole project and republish every file that had or has findings, and
        the documents `also` names (the one just saved)."""
        project.findings = {}
        if project.session is not None:
            drafts = self.drafts_of(project)
            report = project.session.check(contents=drafts or None)
            for finding in report.findings:
                project.findings.setdefault(finding.file, []).append(finding)
            project.drafts = {file: project.findings.get(file, []) for file in drafts}
        uris = {_uri(project.directory / file) for file in project.findings}
        uris |= {_uri(file) for file in project.problems}
        if self.pulls:
            self.refresh_pulled()
        else:
            for uri in sorted(uris | project.published | set(also)):
                self.publish(uri)
        project.published = uris

    def draft_pass(self, project: Project, uri: str) -> None:
        """Check one open document's unsaved text alone."""
        path = _path(uri)
        relative = project.relative(path) if path is not None else None
        if project.session is None or relative is None or not relative.endswith(".py"):
            return
        document = self.workspace.get_text_document(uri)
        report = project.session.check([relative], contents={relative: document.source})
        project.drafts[relative] = [f for f in report.findings if f.file == relative]

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        path = _path(uri)
        if path is None:
            return []
        project = self.project_for(path)
        if project is None:
            return []
        found = list(project.problems.get(path, []))
        relative = project.relative(path)
        if relative is None or project.session is None:
            return found
        findings = project.drafts.get(relative, project.findings.get(relative, []))
        if not findings:
            return found
        rules = {active.code: active for active in project.session.rules}
        lines = self.lines_of(path)
        return found + [
            convert.diagnostic(finding, lines, self.encoding, rules, self.links)
            for finding in findings
        ]

    def publish(self, uri: str, *, version: int | None = None) -> None:
        if self.pulls:
            return
        if version is None:
            document = self.workspace.text_documents.get(uri)
            version = document.version if document is not None else None
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri, version=version, diagnostics=self.diagnostics(uri)
            )
        )

    def files_changed(self, paths: Iterable[Path], also: Iterable[str] = ()) -> None:
        """Files changed on disk: the projects they belong to take note and run a whole
        pass (a configuration file opens the project's session again)."""
        also = tuple(also)
        paths = tuple(paths)
        if any(path.name == "pyproject.toml" for path in paths):
            self.config_dirs.clear()  # a [tool.inwards] table may have come or gone
        touched: dict[Path, Project] = {}
        for path in paths:
            project = self.project_for(path)
            if project is None:
                continue
            relative = project.relative(path)
            if relative is None:
                continue
            setup_file = relative == "pyproject.toml" or relative.startswith(_RULE_ROOT)
            if setup_file or project.session is None:
                self.open_session(project)
            else:
                self.tell(project, relative)
            touched[project.directory] = project
        for project in touched.values():
            self.whole_pass(project, also)

    async def first_passes(self) -> None:
        """Open each workspace folder's project and give it a first pass, under a
        `$/progress` the client shows when it supports server-initiated progress."""
        window = self.client_capabilities.window
        token = "inwards-first-pass"
        progress = window is not None and bool(window.work_done_progress)
        if progress:
            await self.work_done_progress.create_async(token)
            self.work_done_progress.begin(
                token, types.WorkDoneProgressBegin(title="inwards", message="checking the project")
            )
        for folder in self.workspace.folders.values():
            path = _path(folder.uri)
            if path is not None:
                self.project_for(path / "pyproject.toml")
        if progress:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message="checked"))

    def tell(self, project: Project, relative: str) -> None:
        """Tell the session a file changed; a change that reloads the setup and finds it
        broken (the baseline, a definition) leaves the problems as diagnostics instead."""
        if project.session is None:
            return
        try:
            project.session.changed([relative])
        except (ConfigError, BaselineError):
            self.open_session(project)

    def close_all(self) -> None:
        for project in self.projects.values():
            if project.session is not None:
                project.session.close()
                project.session = None


def _path(uri: str) -> Path | None:
    fs_path = to_fs_path(uri)
    return Path(fs_path) if fs_path else None


def _differs(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8", errors="surrogateescape") != text
    except OSError:
        return True


def _uri(path: Path) -> str:
    return from_fs_path(str(path)) or path.as_uri()


def build_server() -> InwardsServer:
    server = InwardsServer()

    @server.feature(types.INITIALIZED)
    async def initialized(ls: InwardsServer, params: types.InitializedParams) -> None:
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
                                ]
                            ),
                        )
                    ]
                )
            )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: InwardsServer, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = _path(uri)
        project = ls.project_for(path) if path is not None else None
        if project is not None and path is not None and _differs(path, params.text_document.text):
            ls.draft_pass(project, uri)  # opened with text that is not what the disk holds
        ls.publish(uri, version=params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: InwardsServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = _path(uri)
        project = ls.project_for(path) if path is not None else None
        if project is None:
            return
        ls.draft_pass(project, uri)
        ls.publish(uri, version=params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: InwardsServer, params: types.DidSaveTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is None:
            return
        project = ls.project_for(path)
        if project is not None:
            relative = project.relative(path)
            if relative is not None:
                project.drafts.pop(relative, None)
        ls.files_changed([path], also=[params.text_document.uri])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: InwardsServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        path = _path(uri)
        project = ls.project_for(path) if path is not None else None
        if project is not None and path is not None:
            relative = project.relative(path)
            # The closed buffer's unsaved text is gone: the file counts as on disk again.
            dropped = project.drafts.pop(relative, None) if relative is not None else None
            if dropped is not None and relative is not None and project.session is not None:
                ls.tell(project, relative)
        if not ls.pulls:
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: InwardsServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths = [_path(change.uri) for change in params.changes]
        ls.files_changed(path for path in paths if path is not None)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="inwards",
            # Architecture rules are cross-file: an edit can change another file's findings.
            inter_file_dependencies=True,
            workspace_diagnostics=False,
        ),
    )
    def pull(
        ls: InwardsServer, params: types.DocumentDiagnosticParams
    ) -> types.FullDocumentDiagnosticReport:
        return types.FullDocumentDiagnosticReport(items=ls.diagnostics(params.text_document.uri))

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: InwardsServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return _code_actions(ls, params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: InwardsServer, params: types.HoverParams) -> types.Hover | None:
        return _hover(ls, params)

    return server


def _code_actions(ls: InwardsServer, params: types.CodeActionParams) -> list[types.CodeAction]:
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
        if not data.get("suppressible", True):
            continue
        edit = convert.suppression_edit(lines[row], row, found.code, ls.encoding)
        actions.append(
            types.CodeAction(
                title=f"Suppress {found.code} on this line (inwards: ignore with a reason)",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[found],
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return actions


def _hover(ls: InwardsServer, params: types.HoverParams) -> types.Hover | None:
    path = _path(params.text_document.uri)
    project = ls.project_for(path) if path is not None else None
    if project is None or project.session is None:
        return None
    document = ls.workspace.get_text_document(params.text_document.uri)
    lines = document.source.splitlines()
    row = params.position.line
    if row >= len(lines):
        return None
    column = convert.code_points(lines[row], params.position.character, ls.encoding)
    code = convert.code_at(lines[row], column)
    if code is None:
        return None
    rules = {active.code: active for active in project.session.rules}
    active = rules.get(code)
    if active is None:
        text = f"**{code}**: no rule with this code is defined for this project."
    else:
        text = convert.hover_text(active, ls.links)
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def serve() -> None:
    """Serve on stdin and stdout until the client exits; logs go to stderr."""
    logging.basicConfig(level=logging.WARNING)
    server = build_server()
    try:
        server.start_io()
    finally:
        server.close_all()
