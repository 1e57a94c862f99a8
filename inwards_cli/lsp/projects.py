"""The language server's state: one warm `inwards_core.Session` per project, what the
last passes found, and the passes that fill it (a whole pass, a draft pass of one unsaved
document). `server.py` wires the protocol's messages to it."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from inwards_cli.config_file import find_config
from inwards_cli.lsp import convert
from inwards_cli.lsp.passes import CoalescedPasses
from inwards_core import (
    BaselineError,
    ConfigError,
    ConfigProblem,
    FamilyLoadError,
    Finding,
    Report,
    Session,
)
from inwards_core.plugins import PluginHost
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
        self.host: PluginHost | None = None  # the families, for hover (loaded on need)

    def relative(self, path: Path) -> str | None:
        try:
            return path.relative_to(self.directory).as_posix()
        except ValueError:
            return None


# What a session's setup raises when it is built again (a change of its inputs, or an
# install in the environment) and can't be used: the project is then opened again, which
# shows why.
_SETUP_ERRORS = (ConfigError, BaselineError, FamilyLoadError)


class InwardsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("inwards", VERSION)
        self.projects: dict[Path, Project] = {}
        # Each folder's project directory (None: none), until a pyproject.toml changes.
        self.config_dirs: dict[Path, Path | None] = {}
        self.links, self.links_warning = convert.docs_links()
        # Saves and watched-file changes: each burst runs at most two whole passes.
        self.passes = CoalescedPasses(self.files_changed)
        self.reported: set[str] = set()  # URIs the last workspace/diagnostic gave items
        # Held workspace/diagnostic requests wait on these until a pass changes something.
        self.change_waiters: list[asyncio.Future[None]] = []
        # The user root and INWARDS_ORG_RULES_DIR: a change there reloads every project.
        self.outside_roots = rule_roots_outside()

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

    @property
    def related_information(self) -> bool:
        """Whether the client shows `relatedInformation` (pushed, or pulled)."""
        capabilities = self.client_capabilities.text_document
        if capabilities is None:
            return False
        kind = capabilities.diagnostic if self.pulls else capabilities.publish_diagnostics
        return kind is not None and bool(kind.related_information)

    @property
    def shows_documents(self) -> bool:
        """Whether the client can be asked to open a page (`window/showDocument`)."""
        window = self.client_capabilities.window
        show = window.show_document if window is not None else None
        return show is not None and show.support

    @property
    def snippet_edits(self) -> bool:
        """Whether a workspace edit may hold snippets (LSP 3.18 `SnippetTextEdit`, which
        only a `TextDocumentEdit` holds: `documentChanges` too)."""
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        return edit is not None and bool(edit.snippet_edit_support) and bool(edit.document_changes)

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
            path = path_of(uri)
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
        started = time.perf_counter()
        if project.session is not None:
            drafts = self.drafts_of(project)
            report = self.checked(project, lambda session: session.check(contents=drafts or None))
            for finding in report.findings if report is not None else ():
                project.findings.setdefault(finding.file, []).append(finding)
            project.drafts = {file: project.findings.get(file, []) for file in drafts}
        elapsed = (time.perf_counter() - started) * 1000
        uris = {uri_of(project.directory / file) for file in project.findings}
        uris |= {uri_of(file) for file in project.problems}
        if self.pulls:
            self.changed()
            self.refresh_pulled()
        else:
            for uri in sorted(uris | project.published | set(also)):
                self.publish(uri)
        project.published = uris
        # One line per whole pass in the client's log (an editor's "inwards" output), after
        # what it published: a client that reads the line has every answer of the pass.
        found = sum(len(findings) for findings in project.findings.values())
        self.window_log_message(
            types.LogMessageParams(
                type=types.MessageType.Log,
                message=f"whole pass of {project.directory}: {found} findings in "
                f"{len(project.findings)} files, {elapsed:.0f} ms",
            )
        )

    def checked(self, project: Project, run: Callable[[Session], Report]) -> Report | None:
        """`run` on the project's session, or None when the session reloaded its setup (a
        distribution installed since) and can't use it now: the project is opened again,
        which shows why (as the problems' diagnostics, or a message)."""
        assert project.session is not None
        try:
            return run(project.session)
        except _SETUP_ERRORS:
            self.open_session(project)
            return None

    def draft_pass(self, project: Project, uri: str) -> None:
        """Check one open document's unsaved text alone."""
        path = path_of(uri)
        relative = project.relative(path) if path is not None else None
        if project.session is None or relative is None or not relative.endswith(".py"):
            return
        document = self.workspace.get_text_document(uri)
        contents = {relative: document.source}
        report = self.checked(project, lambda session: session.check([relative], contents))
        if report is None:
            return
        before = project.drafts.get(relative, project.findings.get(relative, []))
        project.drafts[relative] = [f for f in report.findings if f.file == relative]
        if project.drafts[relative] != before:  # most keystrokes change no finding
            self.changed()

    def changed(self) -> None:
        """A pass ran: wake the held workspace/diagnostic requests (cheap when none is)."""
        waiters, self.change_waiters = self.change_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def next_change(self) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.change_waiters.append(waiter)
        await waiter

    def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        path = path_of(uri)
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
            convert.diagnostic(
                finding, lines, self.encoding, rules, self.links, self.chain_of(project, finding)
            )
            for finding in findings
        ]

    def chain_of(
        self, project: Project, finding: Finding
    ) -> list[types.DiagnosticRelatedInformation]:
        """Each import of the finding's chain, for a client that shows related information."""
        if not finding.chain or not self.related_information:
            return []
        related = []
        for step in finding.chain:
            path = project.directory / step.file
            related.append(
                convert.chain_step(step, uri_of(path), self.lines_of(path), self.encoding)
            )
        return related

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
        pass (a configuration file opens the project's session again). Handlers go
        through `self.passes`, which calls this once per burst of changes."""
        also = tuple(also)
        paths = tuple(paths)
        if any(path.name == "pyproject.toml" for path in paths):
            self.config_dirs.clear()  # a [tool.inwards] table may have come or gone
        touched: dict[Path, Project] = {}
        outside = {path for path in paths if self.in_outside_root(path)}
        if outside:
            # A user or organisation definition: every project's rule set may change.
            for opened in self.projects.values():
                self.open_session(opened)
                touched[opened.directory] = opened
        for path in paths:
            if path in outside:
                continue
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
            path = path_of(folder.uri)
            if path is not None:
                self.project_for(path / "pyproject.toml")
                for member in self.workspace_members(path):
                    self.project_for(member)
        if progress:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message="checked"))

    def workspace_members(self, folder: Path) -> list[Path]:
        """The `pyproject.toml` of each member with a `[tool.inwards]` table of the uv
        workspace whose root is `folder` (none when it is not one): each is a project of
        its own, checked from the start as `inwards check` at the root checks them."""
        from inwards_cli.workspace import WorkspaceError, read_workspace

        config = folder / "pyproject.toml"
        if not config.is_file():
            return []
        try:
            workspace = read_workspace(config)
        except (WorkspaceError, OSError, ValueError) as error:
            self.window_log_message(
                types.LogMessageParams(type=types.MessageType.Warning, message=f"inwards: {error}")
            )
            return []
        if workspace is None:
            return []
        return [member.config for member in workspace.members if member.has_table]

    def in_outside_root(self, path: Path) -> bool:
        return any(path.is_relative_to(root) for root in self.outside_roots)

    def tell(self, project: Project, relative: str) -> None:
        """Tell the session a file changed; a change that reloads the setup and finds it
        broken (the baseline, a definition) leaves the problems as diagnostics instead."""
        if project.session is None:
            return
        try:
            project.session.changed([relative])
        except _SETUP_ERRORS:
            self.open_session(project)

    def close_all(self) -> None:
        self.passes.cancel()
        for project in self.projects.values():
            if project.session is not None:
                project.session.close()
                project.session = None


def rule_roots_outside(environ: Mapping[str, str] = os.environ) -> tuple[Path, ...]:
    """The rule roots that lie outside every project: the user root and the directory
    INWARDS_ORG_RULES_DIR names, as the rule roots' readers decide them. (No installed rule
    pack is looked up: an install is seen by each session itself, `SessionSetup.outdated`.)"""
    from inwards_cli.adapters.org_rules import org_root
    from inwards_cli.adapters.rule_roots import user_rules_directory

    roots = [user_rules_directory(environ)[0]]
    roots += [source.directory for source in org_root(environ, None, points=[]).sources]
    return tuple(dict.fromkeys(root.absolute() for root in roots))


def path_of(uri: str) -> Path | None:
    fs_path = to_fs_path(uri)
    return Path(fs_path) if fs_path else None


def differs(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8", errors="surrogateescape") != text
    except OSError:
        return True


def uri_of(path: Path) -> str:
    return from_fs_path(str(path)) or path.as_uri()
