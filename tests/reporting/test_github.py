"""The github reporter: workflow commands, escaping as the Actions toolkit does it."""

from __future__ import annotations

from pathlib import Path

from inwards_core.model.findings import (
    Finding,
    Fix,
    NotChecked,
    Report,
    Severity,
    Span,
    SuppressedFinding,
)
from inwards_core.reporting.github import (
    annotation,
    escape_data,
    escape_property,
    render_github,
    workflow_command,
)


def finding(
    line: int = 6,
    *,
    code: str = "INW001",
    severity: Severity = Severity.ERROR,
    file: str = "src/shop/domain/discounts.py",
    message: str = 'Layer "domain" imports "shop.adapters" from the outer layer "bootstrap".',
    span: Span | None = None,
) -> Finding:
    return Finding(
        code=code,
        rule="layer-dependency",
        severity=severity,
        file=file,
        module="shop.domain.discounts",
        span=span or Span(line, 1, line, 26),
        message=message,
        fix=Fix("Invert the dependency.", ("Delete `import shop.adapters`.", "Add a port.")),
        docs="docs/rules/INW001.md",
    )


def test_data_escaping_matches_the_actions_toolkit() -> None:
    # `%` first, so an escape sequence in the text is not decoded later.
    assert escape_data("50% done\r\nnext line %0A") == "50%25 done%0D%0Anext line %250A"
    assert escape_data("a: b, c") == "a: b, c"


def test_property_escaping_also_covers_colon_and_comma() -> None:
    assert escape_property("C:\\shop, v2%\n") == "C%3A\\shop%2C v2%25%0A"


def test_one_error_command_with_file_region_and_title() -> None:
    line = annotation(finding(), lambda path: path)
    assert line == (
        "::error file=src/shop/domain/discounts.py,line=6,endLine=6,col=1,endColumn=26,"
        "title=INW001 layer-dependency::"
        'Layer "domain" imports "shop.adapters" from the outer layer "bootstrap".'
        "%0AFix: Invert the dependency.%0A1. Delete `import shop.adapters`.%0A2. Add a port."
        "%0ADocs: docs/rules/INW001.md"
    )


def test_warnings_use_the_warning_command() -> None:
    assert annotation(finding(severity=Severity.WARNING), str).startswith("::warning file=")


def test_a_region_over_several_lines_has_no_columns() -> None:
    line = annotation(finding(span=Span(3, 5, 7, 2)), str)
    assert "line=3,endLine=7,title=" in line
    assert "col=" not in line and "endColumn=" not in line


def test_messages_and_properties_with_percent_newlines_colons_and_commas() -> None:
    tricky = finding(
        message="100% of imports: shop.a, shop.b\nare wrong\r",
        file="src/we:ird,name%.py",
    )
    line = annotation(tricky, str)
    command, _, message = line.partition("::")[2].partition("::")
    assert command.startswith("error file=src/we%3Aird%2Cname%25.py,line=6,")
    # A line break in project text is shown as `\n` (it is not one of the message's own
    # lines); the message's own line breaks are the toolkit's `%0A`.
    assert message.startswith("100%25 of imports: shop.a, shop.b\\nare wrong\\r%0AFix: ")
    # The whole command stays on one line, and unescaping gives the shown text back.
    assert "\n" not in line and "\r" not in line
    decoded = message.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
    shown = "100% of imports: shop.a, shop.b\\nare wrong\\r"
    assert decoded.startswith(shown + "\nFix: Invert the dependency.")


def test_a_command_without_properties() -> None:
    assert workflow_command("warning", {}, "50%") == "::warning::50%25"


def test_report_annotates_findings_not_suppressed_or_baselined_ones() -> None:
    report = Report(
        findings=(finding(6), finding(9, code="INW006", severity=Severity.WARNING)),
        files_checked=4,
        suppressed=(SuppressedFinding(finding(12), "why"),),
        baselined=(finding(15),),
        not_checked=(
            NotChecked("vendor", "vendor holds no Python module, so it was not checked."),
        ),
        notes=("A note.",),
    )
    out = render_github(report, display=lambda path: f"backend/{path}").splitlines()
    commands = [line for line in out if line.startswith("::")]
    assert [line.split(" ", 1)[0] for line in commands] == ["::error", "::warning", "::warning"]
    assert commands[0].startswith("::error file=backend/src/shop/domain/discounts.py,line=6,")
    assert commands[2] == (
        "::warning title=inwards::vendor holds no Python module, so it was not checked."
    )
    assert not any("line=12" in line or "line=15" in line for line in out)
    assert out[2].startswith("Found 1 error and 1 warning in 4 files (")
    assert any("inline suppressions" in line for line in out)
    assert "note: A note." in out
    # The not-checked path is a command, not also a plain warning line.
    assert not any(line.startswith("warning: ") for line in out)


def test_max_diagnostics_keeps_errors_and_says_what_it_left_out() -> None:
    report = Report(
        findings=(finding(6), finding(9, severity=Severity.WARNING), finding(11)),
        files_checked=1,
    )
    out = render_github(report, max_diagnostics=2).splitlines()
    assert [line.split(" ", 1)[0] for line in out if line.startswith("::")] == [
        "::error",
        "::error",
    ]
    assert "Not shown: 0 errors, 1 warning (--max-diagnostics)." in out


def test_clean_report_is_the_summary_only() -> None:
    out = render_github(Report(findings=(), files_checked=2))
    assert out.startswith("All clear: no problems in 2 files (") and out.count("\n") == 1


def test_paths_under_github_actions(tmp_path: Path) -> None:
    from inwards_cli.commands.check.output import github_paths, sarif_source_root

    project = tmp_path / "repo" / "backend"
    project.mkdir(parents=True)
    workspace = {"GITHUB_WORKSPACE": str(tmp_path / "repo")}
    paths = github_paths(project, lambda path: f"shown/{path}", workspace)
    assert paths("src/app.py") == "backend/src/app.py"
    assert paths(str(tmp_path / "repo" / "rules" / "X001.toml")) == "rules/X001.toml"
    # Outside the workspace (a user-root definition): as the other formats show it.
    assert paths("/etc/inwards/X001.toml") == "shown//etc/inwards/X001.toml"
    # No workspace, or one the project is not in: the display paths.
    assert github_paths(project, lambda path: f"shown/{path}", {})("a.py") == "shown/a.py"
    elsewhere = {"GITHUB_WORKSPACE": str(tmp_path / "other")}
    assert github_paths(project, lambda path: f"shown/{path}", elsewhere)("a.py") == "shown/a.py"
    root = (tmp_path / "repo").resolve()
    assert sarif_source_root(project, workspace) == (root, "backend/")
    assert sarif_source_root(project, {}) == (project.resolve(), "")
    assert sarif_source_root(root, workspace) == (root, "")
