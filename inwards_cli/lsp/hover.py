"""Hover (LSP 3.17 `textDocument/hover`): on a rule code in a suppression directive, the
rule; on the imported name of an import statement, where the import comes from and goes to
(layer, and context when the project has contexts) and whether a rule reports it.

The import is read from the document's text as the editor holds it (saved or not) with the
extractor `inwards check` uses, its target resolved by the project's module index, each
module explained by the family that explains modules (`inwards explain-module`'s answer),
and the verdict is the findings of the last pass on that name: nothing is decided twice."""

from __future__ import annotations

from lsprotocol import types

from inwards_cli.composition import installed_plugin_host
from inwards_cli.lsp import convert
from inwards_cli.lsp.projects import InwardsServer, Project, path_of
from inwards_core import Finding, ModuleIndex, Session
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.extraction import extract
from inwards_core.model.facts import ImportFact
from inwards_core.plugins import FamilyLoadError, PluginHost


def hover(ls: InwardsServer, params: types.HoverParams) -> types.Hover | None:
    path = path_of(params.text_document.uri)
    project = ls.project_for(path) if path is not None else None
    if project is None or project.session is None or path is None:
        return None
    document = ls.workspace.get_text_document(params.text_document.uri)
    lines = document.source.splitlines()
    row = params.position.line
    if row >= len(lines):
        return None
    column = convert.code_points(lines[row], params.position.character, ls.encoding)
    code = convert.code_at(lines[row], column)
    if code is not None:
        text = _rule_text(ls, project.session, code)
    else:
        relative = project.relative(path)
        if relative is None:
            return None
        found = _import_text(project, project.session, relative, document.source, row, column)
        if found is None:
            return None
        text = found
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def _rule_text(ls: InwardsServer, session: Session, code: str) -> str:
    active = {rule.code: rule for rule in session.rules}.get(code)
    if active is None:
        return f"**{code}**: no rule with this code is defined for this project."
    return convert.hover_text(active, ls.links)


def _import_text(
    project: Project, session: Session, relative: str, source: str, row: int, column: int
) -> str | None:
    """What the import whose name stands at (row, column), 0-based, is about; None when no
    imported name stands there or the file is no module of the project."""
    index = session.tree().index
    info = index.by_file.get(relative)
    if info is None:
        return None
    facts = extract(
        source.encode("utf-8", "surrogatepass"),
        module=info.name,
        is_package=info.is_package,
        grammars=StandardGrammars(),
    )
    fact = _fact_at(facts.imports, row + 1, column + 1)
    if fact is None:
        return None
    target = index.resolve_target(fact)
    host = _plugin_host(project)
    importing = _module_line(session, index, host, info.name)
    if target is None:
        imported = "a module above the top-level package (the relative import climbs too high)"
    else:
        imported = _module_line(session, index, host, target)
    findings = project.drafts.get(relative, project.findings.get(relative, []))
    verdict = _verdict([f for f in findings if _same_place(f, fact)])
    return "\n\n".join(
        [
            f"**Import** `{fact.statement}`",
            f"- from: {importing}\n- to: {imported}",
            verdict,
        ]
    )


def _fact_at(facts: tuple[ImportFact, ...], line: int, column: int) -> ImportFact | None:
    """The import whose name stands at (line, column), 1-based; elsewhere on a statement's
    first line (its keywords, the module it imports from), the statement's one import, when
    it imports one name only (of several, the one meant is the one hovered)."""
    for fact in facts:
        span = fact.span
        if span.line <= line <= span.end_line:
            after_start = line > span.line or column >= span.column
            before_end = line < span.end_line or column <= span.end_column
            if after_start and before_end:
                return fact
    on_line = [fact for fact in facts if (fact.statement_line or fact.span.line) == line]
    statements = {fact.statement for fact in on_line}
    return on_line[0] if len(on_line) == 1 and len(statements) == 1 else None


def _same_place(finding: Finding, fact: ImportFact) -> bool:
    return (finding.span.line, finding.span.column) == (fact.span.line, fact.span.column)


def _module_line(session: Session, index: ModuleIndex, host: PluginHost | None, name: str) -> str:
    if name not in index.modules:
        return f"`{name}` ({index.classify(name).value}, not a module of this project)"
    explanation = host.explain_module(session.config, index, name) if host is not None else None
    if explanation is None:
        return f"`{name}`"
    # The `--json` document of `inwards explain-module` (its keys are documented there).
    facts = explanation.to_json()
    layer, context = facts.get("layer"), facts.get("context")
    parts = [f"`{name}`"]
    parts.append(f"layer **{layer['name']}**" if isinstance(layer, dict) else "in no layer")
    if session.config.contexts:
        if isinstance(context, dict):
            public = "public" if context.get("public") else "internal"
            parts.append(f"context **{context['name']}** ({public})")
        else:
            parts.append("in no context")
    return ", ".join(parts)


def _verdict(findings: list[Finding]) -> str:
    if not findings:
        return "Allowed: no enabled rule reports this import."
    reported = "; ".join(
        f"{finding.code} ({finding.rule}): {finding.message.splitlines()[0]}"
        for finding in sorted(findings, key=Finding.sort_key)
    )
    return f"Reported by {reported}"


def _plugin_host(project: Project) -> PluginHost | None:
    """The families' host, as `inwards explain-module` loads it (once per project)."""
    if project.host is None:
        try:
            project.host = installed_plugin_host(project.directory)[0]
        except FamilyLoadError:
            return None
    return project.host
