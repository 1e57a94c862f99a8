"""Frames under findings: cut from the bytes a one-file run read (no second read), read
once more per file with findings in a whole-project run, and drawn in terminal columns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inwards_core.adapters.caches import NullExtractionCache
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import load_config_text, load_rules, prepare
from inwards_core.engine import Ports, RunOptions, check_project
from inwards_core.model.findings import Span
from inwards_core.model.source_lines import source_line
from inwards_core.reporting import frames
from inwards_core.reporting.frames import MAX_WIDTH, frame_parts

CONFIG = """\
[tool.inwards]
layers = [
  { name = "domain", modules = ["shop.domain"] },
  { name = "infra", modules = ["shop.infra"] },
]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/infra/__init__.py": "",
    "shop/infra/db.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/a.py": "import shop.infra.db\n",
    "shop/domain/b.py": "x = 1\n",
}


class CountingFiles(InMemoryProjectFiles):
    def __init__(self) -> None:
        super().__init__(FILES)
        self.reads: list[str] = []

    def read_bytes(self, path: str) -> bytes:
        self.reads.append(path)
        return super().read_bytes(path)


def _check(files: CountingFiles, paths: list[str] | None) -> tuple[str, ...]:
    prepared = prepare(load_config_text(CONFIG), load_rules())
    report = check_project(
        prepared.config,
        prepared.rules,
        Ports(files, NullExtractionCache(), StandardGrammars()),
        RunOptions(paths, source_lines=True),
    )
    return tuple(line.text for line in report.source_lines)


def test_a_one_file_run_reads_each_file_once() -> None:
    files = CountingFiles()
    assert _check(files, ["shop/domain/a.py"]) == ("import shop.infra.db",)
    assert files.reads.count("shop/domain/a.py") == 1


def test_a_whole_project_run_reads_again_only_the_files_with_findings() -> None:
    files = CountingFiles()
    assert _check(files, None) == ("import shop.infra.db",)
    assert files.reads.count("shop/domain/a.py") == 2
    assert files.reads.count("shop/domain/b.py") == 1


def test_no_source_lines_unless_asked() -> None:
    prepared = prepare(load_config_text(CONFIG), load_rules())
    report = check_project(
        prepared.config,
        prepared.rules,
        Ports(InMemoryProjectFiles(FILES), NullExtractionCache(), StandardGrammars()),
    )
    assert report.findings and report.source_lines == ()


def test_carets_count_terminal_columns() -> None:
    line = "a\u0301 = '日本'; import x"  # a combining accent, two wide characters
    column = line.index("import x") + 1 + len("import ")
    text, at, width = frame_parts(
        source_line("f.py", 1, column, line), Span(1, column, 1, column + 1)
    ) or ("", 0, 0)
    assert text == line and (at, width) == (len("a = '日本'; import ") + 2, 1)


def test_a_long_line_is_cut_around_the_finding() -> None:
    line = "y" * 5000 + " import x " + "z" * 5000
    column = 5000 + len(" import ") + 1
    source = source_line("f.py", 1, column, line)
    assert len(source.text) < 300 and source.cut_before and source.cut_after
    text, at, width = frame_parts(source, Span(1, column, 1, column + 1)) or ("", 0, 0)
    assert len(text) <= MAX_WIDTH and text.startswith("…") and text.endswith("…")
    assert text[at : at + width] == "x"


def test_a_span_past_the_line_has_no_frame() -> None:
    assert frame_parts(source_line("f.py", 1, 1, "abc"), Span(1, 9, 1, 10)) is None


_ASCII = st.characters(min_codepoint=32, max_codepoint=126)
_SIZES = st.integers(min_value=0, max_value=600)


@settings(max_examples=400, deadline=None)
@given(
    line=st.one_of(
        st.text(alphabet=_ASCII, max_size=600),
        # Long lines too (cut on one side or both), which plain text() seldom draws.
        st.builds(lambda unit, size: (unit * size)[:size], st.text(_ASCII, min_size=1), _SIZES),
    ),
    column=st.integers(min_value=1, max_value=620),
    length=st.integers(min_value=0, max_value=200),
    multiline=st.booleans(),
)
def test_printable_ascii_lines_take_the_shortcut_to_the_same_frame(
    line: str, column: int, length: int, multiline: bool
) -> None:
    """Lines of printable ASCII (most lines) skip the per-character pieces: the frame is
    the one the general drawing gives, cut or not, wherever the span falls."""
    source = source_line("f.py", 1, column, line)
    span = Span(1, column, 2 if multiline else 1, column + length)
    start = span.column - 1 - source.offset
    if start < 0 or start > len(source.text):
        assert frame_parts(source, span) is None
        return
    end = span.end_column - 1 - source.offset if not multiline else len(source.text)
    end = min(max(end, start + 1), len(source.text))
    assert frame_parts(source, span) == frames._drawn_parts(source, start, end)
