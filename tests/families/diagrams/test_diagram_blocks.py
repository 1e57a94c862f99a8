"""Finding the marked diagram blocks of a file: formats, fences, markers, first lines."""

from __future__ import annotations

import pytest

from inwards_core.diagrams.blocks import Block, find_blocks, marker_kind


def test_a_whole_mermaid_file() -> None:
    (block,) = find_blocks("docs/layers.mmd", "graph LR\n%% inwards: layers\na --> b\n")
    assert block == Block("mermaid", "layers", ("graph LR", "%% inwards: layers", "a --> b"), 1, 2)
    assert find_blocks("docs/layers.MERMAID", "%%inwards:contexts\n")[0].kind == "contexts"


def test_unmarked_and_unknown_files_give_nothing() -> None:
    assert find_blocks("a.mmd", "graph LR\na --> b\n") == ()
    assert find_blocks("a.txt", "%% inwards: layers\n") == ()
    assert find_blocks("a.mmd", "%% inwards: everything\n") == ()
    assert find_blocks("a.mmd", "a %% inwards: layers\n") == ()


@pytest.mark.parametrize("suffix", [".puml", ".plantuml", ".pu", ".iuml"])
def test_plantuml_files_hold_several_blocks(suffix: str) -> None:
    text = (
        "' header\n@startuml one\n' inwards: layers\n[a] --> [b]\n@enduml\n"
        "@startuml\nA -> B\n@enduml\n@startuml\n' inwards: contexts\nx --> y\n"
    )
    blocks = find_blocks("uml/c" + suffix, text)
    assert [(b.kind, b.first_line, b.marker_line, b.lines) for b in blocks] == [
        ("layers", 3, 3, ("' inwards: layers", "[a] --> [b]")),
        ("contexts", 10, 10, ("' inwards: contexts", "x --> y")),
    ]
    assert {b.notation for b in blocks} == {"plantuml"}


def test_markdown_fences() -> None:
    text = (
        "# Title\n\n```mermaid\n%% inwards: layers\ngraph LR\n```\n"
        "   ~~~~ mermaid\nflowchart TB\n~~~\n  %% inwards: contexts\n~~~~\n"
        "```plantuml\n' inwards: layers\n````\n```puml\n' inwards: contexts\n```\n"
        "    ```mermaid\n    %% inwards: layers\n    ```\n"
        "```python\n%% inwards: layers\n```\n"
    )
    blocks = find_blocks("README.md", text)
    assert [(b.notation, b.kind, b.first_line, b.marker_line) for b in blocks] == [
        ("mermaid", "layers", 4, 4),
        ("mermaid", "contexts", 8, 10),
        ("plantuml", "layers", 13, 13),
        ("plantuml", "contexts", 16, 16),
    ]
    assert blocks[1].lines == ("flowchart TB", "~~~", "  %% inwards: contexts")


def test_fence_rules() -> None:
    # A closing fence is the same character, at least as long, with nothing after it.
    assert find_blocks("a.md", "````mermaid\n%% inwards: layers\n```\n") != ()
    assert find_blocks("a.markdown", "```mermaid\n```js\n%% inwards: layers\n```\n") != ()
    # An unclosed fence runs to the end of the file.
    (block,) = find_blocks("a.md", "```mermaid\ngraph LR\n%% inwards: layers\n")
    assert block.lines == ("graph LR", "%% inwards: layers")
    # A fence inside another fence is text of the outer one.
    assert find_blocks("a.md", "````md\n```mermaid\n%% inwards: layers\n```\n````\n") == ()
    assert find_blocks("a.md", "``mermaid\n%% inwards: layers\n``\n") == ()
    assert find_blocks("a.md", "```mermaid `x`\n%% inwards: layers\n```\n") == ()


@pytest.mark.parametrize(
    ("notation", "line", "kind"),
    [
        ("mermaid", "%% inwards: layers", "layers"),
        ("mermaid", "  %%inwards :  contexts  ", "contexts"),
        ("mermaid", "' inwards: layers", None),
        ("plantuml", "' inwards: layers", "layers"),
        ("plantuml", "'inwards:contexts", "contexts"),
        ("plantuml", "%% inwards: layers", None),
        ("plantuml", "' inwards: Layers", None),
        ("mermaid", "%% inward: layers", None),
    ],
)
def test_markers(notation: str, line: str, kind: str | None) -> None:
    assert marker_kind(notation, line) == kind  # type: ignore[arg-type]


def test_the_first_marker_decides() -> None:
    (block,) = find_blocks("a.mmd", "%% inwards: contexts\n%% inwards: layers\n")
    assert block.kind == "contexts"


def test_hostile_markdown_is_linear() -> None:
    text = "```mermaid\n" * 50_000 + "~" * 1_000_000
    assert len(find_blocks("a.md", text)) == 0
