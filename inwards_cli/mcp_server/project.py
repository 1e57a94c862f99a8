"""What `inwards mcp`'s tools answer, without the protocol: one project, its session kept
warm across calls (and true to the disk, as the daemon keeps the hooks'). Every answer
comes from that session through the function the matching command calls, so the documents
are the command's: `check --format json` (the session's check), `rule --json --full`
(`full_rule_page`), `rules explain --json` (`explanation_document`), `status --json` and
`rules --json` (`project_status`, `rules_document`), `rules why --json` (`explain_rule` on a
traced check), `context` (`architecture_brief`).

Every call is bounded as `inwards check` is: paths must stay inside the project, unsaved
`contents` are limited in number and size, and a rule no root defines is refused with the
message the command line prints. A refusal is a `Refused`, which the server turns into a
tool error the agent reads.
"""

from __future__ import annotations

import contextlib
import io
import keyword
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import attrs

from inwards_cli.commands.loading import plugin_host
from inwards_cli.config_file import find_config
from inwards_cli.daemon.warm import WarmProject
from inwards_cli.mcp_server.placement import Place
from inwards_core.config.values import ConfigError
from inwards_core.model.findings import Report
from inwards_core.plugins import PluginHost
from inwards_core.ports import RuleSources
from inwards_core.reporting.json import report_document
from inwards_core.rules.lookup import UnknownRuleError
from inwards_core.rules.rule_set import RuleSet
from inwards_core.rules.why import UnusableRuleError
from inwards_core.session import Session

# As many unsaved files, and as many bytes of them, as an agent's one proposed change
# could hold; the hooks' payload limit (`inwards_cli.agents.payload`) is the same size.
MAX_CONTENTS_FILES = 200
MAX_CONTENTS_BYTES = 32 * 1024 * 1024
MAX_PATHS = 1000
MAX_PROBE_IMPORTS = 100

T = TypeVar("T")


class Refused(Exception):
    """A call inwards won't answer (bad input, no project, an unknown rule): its message is
    for the agent."""


def open_check_session(directory: Path) -> Session:
    """A session that reads the project as `inwards check` does there (baseline, cache)."""
    return Session.open(directory)


class McpProject:
    """The project holding `directory`, served to one MCP client."""

    def __init__(self, directory: Path, environ: Mapping[str, str] | None = None) -> None:
        self.directory = directory.resolve()
        self._warm = WarmProject(
            str(self.directory), os.environ if environ is None else environ, open_check_session
        )
        self._lock = threading.Lock()  # a session serves one call at a time
        # The core rules alone, for the rule set they were read for (`_shipped`).
        self._shipped_for: tuple[RuleSet, RuleSet] | None = None
        # The plugin host the brief names contributions from, for the rule set it was made
        # with (`brief`).
        self._plugins_for: tuple[RuleSet, PluginHost] | None = None

    def close(self) -> None:
        with self._lock:
            self._warm.close()

    # -- the tools ------------------------------------------------------------------------

    def check_files(
        self,
        paths: Sequence[str] | None = None,
        contents: Mapping[str, str] | None = None,
        max_diagnostics: int | None = None,
    ) -> dict[str, Any]:
        """The inwards/diagnostics@1 document for `paths` (all the project without them),
        with `contents` standing for what is on disk for this call."""
        if max_diagnostics is not None and max_diagnostics < 0:
            raise Refused("max_diagnostics must be 0 or more.")
        with self._lock:
            session, project_dir = self._session()
            wanted = None if paths is None else self._inside(paths, project_dir, what="paths")
            overlay = self._contents(contents, project_dir)
            report = self._checked(lambda: session.check(wanted, contents=overlay))
            return report_document(report, max_diagnostics=max_diagnostics)

    def explain_rule(self, rule: str) -> dict[str, Any]:
        """The rule's page (`inwards rule RULE --json --full`) and where its definition in
        force comes from, what it shadows and overlays (`inwards rules explain RULE
        --json`), from the warm session's rules."""
        from inwards_cli.commands.rules_explain import explanation_document

        rule = _rule_name(rule)
        with self._lock:
            session, _ = self._session()
            page = self._page(session, rule)
            documents = self._rule_sources(session).documents()
            with _unknown_rule():
                origin = explanation_document(session.rule_set, session.rules, documents, rule)
        return {"page": page, "definition": origin}

    def rule_page(self, rule: str) -> dict[str, Any]:
        rule = _rule_name(rule)
        with self._lock:
            session, _ = self._session()
            return self._page(session, rule)

    def rules_status(self) -> dict[str, Any]:
        """The rule roots, shadows, overlays and conflicts (`inwards status --json`) and
        every rule's state and origin (`inwards rules --json`), from the warm session."""
        from inwards_core.rules.listing import rules_document
        from inwards_core.rules.status import project_status, status_json
        from inwards_core.version import inwards_version

        with self._lock:
            session, _ = self._session()
            status, problems = project_status(
                session.rule_set,
                self._rule_sources(session),
                session.rules,
                session.config,
                previous_digests=session.recorded_digests(),
                inwards_version=inwards_version(),
            )
            rules = rules_document(session.rule_set, session.rules)
        return {"status": status_json(status, problems), "rules": rules}

    def why(self, rule: str, path: str | None = None) -> dict[str, Any]:
        """Why `rule` reported what it did, or nothing, in `path` or the whole project
        (`inwards rules why RULE [PATH] --json`): the warm session's rules, and a check
        that traces the rule."""
        from inwards_core.rules.why import WhyContext, explain_rule, explained_code

        rule = _rule_name(rule)
        with self._lock:
            session, project_dir = self._session()
            named = None if path is None else self._inside([path], project_dir, what="path")
            with _unknown_rule():
                code = explained_code(session.rule_set, rule)
            report = self._checked(lambda: session.check(named, trace_rule=code))
            context = WhyContext(paths=None if named is None else tuple(named))
            explanation = explain_rule(
                code, session.rule_set, session.rules, report, session.config, context
            )
        document: dict[str, Any] = explanation.to_json()
        return document

    def where_should_this_go(
        self,
        description: str | None = None,
        imports: Sequence[str] | None = None,
        module: str | None = None,
    ) -> dict[str, Any]:
        """Where a new module holding `imports` may live: a probe is checked in each place
        (`placement.Places`: each layer's packages, each context's package in a layer; or
        exactly `module`) through unsaved contents, so nothing is written; the places that
        accept it ranked (`placement.RANKING`), and for the others what refuses it."""
        from inwards_cli.mcp_server import placement

        wanted = [_dotted(each, what="import") for each in imports or ()]
        if len(wanted) > MAX_PROBE_IMPORTS:
            raise Refused(f"At most {MAX_PROBE_IMPORTS} imports can be probed at once.")
        exact = None if module is None else _dotted(module, what="module")
        words = placement.description_words(description)
        with self._lock:
            session, project_dir = self._session()
            places = placement.Places(session.config, session.tree().index, project_dir)
            skipped: list[str] = []
            if exact is not None:
                chosen = [places.one(exact, words)]
            else:
                chosen, skipped = places.all(words)
            probes = [self._probe(place, description, wanted, project_dir) for place in chosen]
            # The new modules are checked together, in one run: none imports another, and
            # each is judged on its own lines. An existing module with the imports added is
            # checked alone, since the names it then holds are other modules' to import.
            new = {place.path: text for place, text in probes if not place.existing}
            together = self._checked(partial(session.check, list(new), new)) if new else None
            verdicts = []
            for place, text in probes:
                report = together
                if place.existing or report is None:
                    report = self._checked(partial(session.check, [place.path], {place.path: text}))
                verdicts.append(placement.verdict(place, report, wanted))
        order = placement.ranked(chosen, verdicts)
        answers = [verdicts[position] for position in order]
        return {
            "description": description or "",
            "words": list(words),
            "imports": wanted,
            "module": exact,
            "fits": [
                a["module"] if a["existing"] else a["package"] for a in answers if a["accepted"]
            ],
            "ranking": placement.RANKING,
            "probes": answers,
            "skipped": skipped,
        }

    @staticmethod
    def _probe(
        place: Place, description: str | None, imports: Sequence[str], project_dir: Path
    ) -> tuple[Place, str]:
        """The probe's text: a new module holding the imports, or an existing module's text
        with them added at its end (`place.base` its lines before them)."""
        from inwards_cli.adapters.reading import read_regular_file
        from inwards_cli.mcp_server.placement import import_lines, probe_text

        if not place.existing:
            text, base = probe_text(description, imports)
            return attrs.evolve(place, base=base), text
        try:
            data = read_regular_file(project_dir / place.path, max_bytes=MAX_CONTENTS_BYTES)
        except OSError as error:
            raise Refused(f"{place.path} can't be read: {error.strerror or error}.") from None
        text = data.decode("utf-8", "surrogateescape")
        if text and not text.endswith("\n"):
            text += "\n"
        base = text.count("\n")
        return attrs.evolve(place, base=base), text + "\n".join(import_lines(imports)) + "\n"

    def brief(self) -> str:
        """The architecture brief `inwards context` prints, from the warm session."""
        from inwards_core.diagrams.brief import architecture_brief

        with self._lock:
            session, project_dir = self._session()
            kept = self._plugins_for
            if kept is None or kept[0] is not session.rule_set:
                # The plugins the session's rules came from (installed when it opened).
                host = _as_command(lambda: plugin_host(project_dir))
                kept = self._plugins_for = (session.rule_set, host)
            return architecture_brief(session.config, session.rules, kept[1])

    # -- helpers --------------------------------------------------------------------------

    def _config_file(self) -> Path:
        found = find_config(self.directory)
        if found is None:
            raise Refused(
                f"No pyproject.toml with a [tool.inwards] table at or above {self.directory}: "
                "start `inwards mcp` inside a project (or run `inwards init` there)."
            )
        return found

    def _session(self) -> tuple[Session, Path]:
        project_dir = self._config_file().parent.resolve()
        session = self._warm.session()
        if session is None:  # it could not be opened: say why, as `inwards check` would
            opened = _as_command(lambda: open_check_session(self.directory))
            opened.close()
            self._warm.forget()
            session = self._warm.session()
            if session is None:
                raise Refused("The project's session could not be opened; run `inwards check`.")
        return session, project_dir

    def _checked(self, run: Callable[[], Report]) -> Report:
        try:
            return run()
        except ConfigError as error:  # the configuration against the tree (a src layout)
            self._warm.forget()  # the next call opens the project afresh
            raise Refused("\n".join(p.render() for p in error.problems) or str(error)) from None
        except OSError as error:  # a named path that isn't there
            raise Refused(f"{error.filename or error} is not a file or directory.") from None
        except ValueError as error:  # a probe outside the project (a root outside it)
            raise Refused(str(error)) from None

    def _page(self, session: Session, rule: str) -> dict[str, Any]:
        from inwards_core.authoring.rule_pages import full_rule_page

        try:
            return full_rule_page(session.rule_set, rule, self._shipped)
        except UnknownRuleError as unknown:
            raise Refused(f"{unknown} `inwards rules` lists the rules.") from None

    def _shipped(self, rule_set: RuleSet) -> RuleSet:
        """The core rules alone (a shipped rule's examples run with them), read once for
        each rule set the session holds."""
        from inwards_core.authoring.rule_pages import shipped_rules

        kept = self._shipped_for
        if kept is None or kept[0] is not rule_set:
            kept = self._shipped_for = (rule_set, shipped_rules(rule_set))
        return kept[1]

    @staticmethod
    def _rule_sources(session: Session) -> RuleSources:
        sources = session.rule_sources
        if sources is None:  # a session opened on a directory always knows its roots
            raise Refused("The project's rule roots are not known; run `inwards status`.")
        return sources

    def _inside(self, paths: Sequence[str], project_dir: Path, *, what: str) -> list[str]:
        if len(paths) > MAX_PATHS:
            raise Refused(f"At most {MAX_PATHS} {what} per call.")
        return [_relative_inside(each, project_dir, what=what) for each in paths]

    def _contents(self, contents: Mapping[str, str] | None, project_dir: Path) -> dict[str, str]:
        if not contents:
            return {}
        if len(contents) > MAX_CONTENTS_FILES:
            raise Refused(f"At most {MAX_CONTENTS_FILES} files in contents per call.")
        size = sum(len(text.encode("utf-8", "surrogatepass")) for text in contents.values())
        if size > MAX_CONTENTS_BYTES:
            raise Refused(
                f"contents holds {size} bytes, more than the {MAX_CONTENTS_BYTES // (1024 * 1024)} "
                "MiB one call accepts: check fewer files at a time."
            )
        return {
            _relative_inside(path, project_dir, what="contents"): text
            for path, text in contents.items()
        }


@contextlib.contextmanager
def _unknown_rule() -> Iterator[None]:
    """A rule no root defines (usably) is refused with the words the command line uses."""
    try:
        yield
    except UnusableRuleError as unusable:
        raise Refused(str(unusable)) from None
    except UnknownRuleError as unknown:
        raise Refused(f"{unknown} `inwards rules` lists them.") from None


def _relative_inside(path: str, project_dir: Path, *, what: str) -> str:
    """`path` (relative to the project directory, or absolute) as a POSIX path relative to
    it; a path that leads outside the project (`..`, a link) is refused."""
    if not path or "\x00" in path:
        raise Refused(f"{what}: an empty path or one with a NUL character.")
    given = Path(path)
    full = given if given.is_absolute() else project_dir / given
    real = Path(os.path.realpath(full))
    if real != project_dir and project_dir not in real.parents:
        raise Refused(f"{what}: {path} is outside the project ({project_dir}).")
    relative = real.relative_to(project_dir).as_posix()
    return "." if relative == "" else relative


def _rule_name(rule: str) -> str:
    text = rule.strip()
    if not text or len(text) > 200 or not text.isprintable():
        raise Refused("rule: give a rule code or name, such as INW001 or layer-dependency.")
    return text


def _dotted(name: str, *, what: str) -> str:
    parts = name.strip().split(".")
    if len(name) > 500 or not all(p.isidentifier() and not keyword.iskeyword(p) for p in parts):
        raise Refused(f'{what}: "{name}" is not a dotted module name (such as shop.domain).')
    return ".".join(parts)


def _as_command(run: Callable[[], T]) -> T:
    """Run code shared with a command: what it would print goes to stderr (stdout is the
    protocol's), and the exit 2 it takes on bad input becomes a `Refused` with its
    message."""
    with _captured() as captured:
        try:
            return run()
        except SystemExit as stop:
            message = captured.getvalue().strip() or f"inwards stopped with status {stop.code}."
            raise Refused(message) from None
        except ConfigError as error:
            text = "\n".join(problem.render() for problem in error.problems)
            raise Refused(text or str(error)) from None


@contextlib.contextmanager
def _captured() -> Iterator[io.StringIO]:
    captured = io.StringIO()
    try:
        with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            yield captured
    finally:
        for line in captured.getvalue().splitlines():
            if line.startswith("warning:"):
                sys.stderr.write(line + "\n")
