"""INW007 on files no layer owns: judged on whole-project runs and with PATHS, from the file
listing alone (a named file that only INW007 judges is checked but never read)."""

from __future__ import annotations

import pytest

from inwards_core import ModuleIndex, Report
from inwards_core.adapters.in_memory import InMemoryProjectFiles
from inwards_core.api import check, load_config_text
from inwards_core.families.inw.layering.layer_relations import ScopedOptions
from inwards_core.families.inw.shapes.inw007_package_shape import judges_listed

PYPROJECT = """\
[tool.inwards]
layers = [{ name = "domain", modules = ["shop.domain"] }]

[[tool.inwards.shape]]
packages = ["tools", "shop.domain"]
allow = ["utils.py", "order.py"]
"""
FILES = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/order.py": "",
    "shop/scripts/__init__.py": "",
    "shop/scripts/run.py": "",
    "tools/__init__.py": "",
    "tools/utils.py": "",
    "tools/helpers.py": "",
    "tools/misc/__init__.py": "",
    "tools/misc/deep.py": "",
    "tools/space/first.py": "",  # a namespace package: `space/` is this file
}


class CountingFiles(InMemoryProjectFiles):
    """Remembers which files the run read."""

    def __init__(self, files: dict[str, str]) -> None:
        super().__init__(files)
        self.read: list[str] = []

    def read_bytes(self, path: str) -> bytes:
        self.read.append(path)
        return super().read_bytes(path)


def run(paths: list[str] | None, text: str = PYPROJECT) -> tuple[Report, list[str]]:
    files = CountingFiles(FILES)
    report = check(load_config_text(text), files, paths=paths)
    return report, files.read


def shaped(report: Report) -> list[str]:
    return sorted(finding.file for finding in report.findings if finding.code == "INW007")


def test_the_whole_project_judges_packages_no_layer_owns() -> None:
    report, _ = run(None)
    assert shaped(report) == ["tools/helpers.py", "tools/misc/__init__.py", "tools/space/first.py"]


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["tools/helpers.py"], ["tools/helpers.py"]),
        (["tools/misc/__init__.py"], ["tools/misc/__init__.py"]),
        (["tools/space/first.py"], ["tools/space/first.py"]),
        (["tools"], ["tools/helpers.py", "tools/misc/__init__.py", "tools/space/first.py"]),
    ],
)
def test_named_files_no_layer_owns_are_judged_without_being_read(
    paths: list[str], expected: list[str]
) -> None:
    report, read = run(paths)
    assert shaped(report) == expected
    assert read == []
    assert report.not_checked == ()
    # With the directory, the clean `tools/utils.py` too; not `misc/deep.py` (no shape).
    assert report.files_checked == len(expected) + (paths == ["tools"])


def test_a_clean_member_counts_as_checked_and_other_files_stay_not_checked() -> None:
    report, read = run(["tools/utils.py", "tools/misc/deep.py", "shop/scripts/run.py"])
    assert report.findings == ()
    assert report.files_checked == 1  # tools/utils.py; deep.py is a member of an unshaped package
    assert read == []
    assert [note.path for note in report.not_checked] == [
        "shop/scripts/run.py",
        "tools/misc/deep.py",
    ]


def test_a_layered_file_is_read_as_before() -> None:
    report, read = run(["shop/domain/order.py", "tools/helpers.py"])
    assert read == ["shop/domain/order.py"]
    assert shaped(report) == ["tools/helpers.py"]
    assert report.files_checked == 2


def test_a_names_rule_judges_members_of_every_package() -> None:
    text = PYPROJECT + '\n[[tool.inwards.names]]\npattern = "run*"\nonly-in = ["tools"]\n'
    report, read = run(["shop/scripts/run.py"], text)
    assert shaped(report) == ["shop/scripts/run.py"]
    assert read == []


def test_without_shapes_or_names_nothing_is_judged_from_the_listing() -> None:
    text = PYPROJECT.split("[[tool.inwards.shape]]")[0]
    config = load_config_text(text)
    index = ModuleIndex.build(config, InMemoryProjectFiles(FILES).listing(""))
    assert judges_listed(index, ScopedOptions()) is None
    report, _ = run(["tools/helpers.py"], text)
    assert report.files_checked == 0
    assert [note.path for note in report.not_checked] == ["tools/helpers.py"]


def test_the_rules_modules_scope_limits_what_is_judged() -> None:
    config = load_config_text(PYPROJECT)
    index = ModuleIndex.build(config, InMemoryProjectFiles(FILES).listing(""))
    judge = judges_listed(index, ScopedOptions(modules=("shop",)))
    assert judge is not None
    assert not judge(index.by_file["tools/helpers.py"])
    assert judge(index.by_file["shop/domain/order.py"])
