"""Reading the files the `diagrams` key names."""

from __future__ import annotations

import pytest

from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.extraction import documents
from inwards_core.extraction.documents import Documents, read_documents
from inwards_core.model.findings import NotChecked
from inwards_core.ports import ProjectListing


def test_globs_match_outside_root_and_texts_are_decoded() -> None:
    files = InMemoryProjectFiles(
        {
            "src/shop/__init__.py": "",
            "docs/architecture.md": "\ufeff# Architecture\n",
            "docs/c4/context.puml": "@startuml\n@enduml\n",
            "docs/notes.txt": "no",
            "README.md": "readme",
        }
    )
    found = read_documents(["docs/*.md", "docs/**/*.puml", "missing/*.md"], files)
    assert found.matches == {
        "docs/*.md": ("docs/architecture.md",),
        "docs/**/*.puml": ("docs/c4/context.puml",),
        "missing/*.md": (),
    }
    assert found.texts == {
        "docs/architecture.md": "# Architecture\n",
        "docs/c4/context.puml": "@startuml\n@enduml\n",
    }
    assert found.unreadable == ()


def test_no_patterns_lists_nothing() -> None:
    class Refusing(InMemoryProjectFiles):
        def listing(self, under: str) -> ProjectListing:
            raise AssertionError("listed")

    assert read_documents([], Refusing({"a.md": ""})) == Documents()


def test_the_project_is_listed_once() -> None:
    listed: list[str] = []

    class Counting(InMemoryProjectFiles):
        def listing(self, under: str) -> ProjectListing:
            listed.append(under)
            return super().listing(under)

    read_documents(["*.md", "docs/*.md", "*.md"], Counting({"a.md": "", "docs/b.md": ""}))
    assert listed == [""]


def test_undecodable_and_unreadable_files_are_not_checked() -> None:
    class Failing(InMemoryProjectFiles):
        def read_bytes(self, path: str) -> bytes:
            if path == "b.md":
                raise PermissionError(13, "Permission denied")
            return super().read_bytes(path)

    files = Failing({"a.md": b"caf\xe9", "b.md": "x", "c.md": "fine"})
    found = read_documents(["*.md"], files)
    assert found.texts == {"c.md": "fine"}
    assert found.matches == {"*.md": ("a.md", "b.md", "c.md")}
    assert found.unreadable == (
        NotChecked(
            "a.md",
            "a.md is not UTF-8 text (byte 4 cannot be decoded), so its diagrams were not checked.",
        ),
        NotChecked(
            "b.md", "b.md could not be read (Permission denied), so its diagrams were not checked."
        ),
    )


def test_a_huge_file_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents, "MAX_DOCUMENT_BYTES", 10)
    found = read_documents(["*.md"], InMemoryProjectFiles({"a.md": "x" * 11, "b.md": "short"}))
    assert found.texts == {"b.md": "short"}
    assert [n.path for n in found.unreadable] == ["a.md"]


def test_the_digest_follows_texts_and_matches() -> None:
    first = read_documents(["*.md"], InMemoryProjectFiles({"a.md": "one"}))
    same = read_documents(["*.md"], InMemoryProjectFiles({"a.md": "one"}))
    edited = read_documents(["*.md"], InMemoryProjectFiles({"a.md": "two"}))
    added = read_documents(["*.md"], InMemoryProjectFiles({"a.md": "one", "b.md": ""}))
    assert first.digest() == same.digest()
    assert len({first.digest(), edited.digest(), added.digest()}) == 3
