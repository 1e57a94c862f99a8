"""`import-config` and `init`, as hard as `check`: project text with a line break can't
forge an output line; huge or deep configurations end within their budget with exit 2 and
one line; nothing is read outside the project nor half-written."""

from __future__ import annotations

import os
import resource
import tomllib
from pathlib import Path

import pytest

from tests.e2e.helpers import write_tree
from tests.hostile.harness import Budget, LimitedRun, run_limited

QUICK = Budget(seconds=15, memory_mb=2048)
FORGED = "FORGED: a line of its own"

CONTRACT = """
[[tool.importlinter.contracts]]
name = "one"
type = "forbidden"
source_modules = ["shop.a"]
forbidden_modules = ["shop.b"]
"""


def _shop(root: Path, pyproject: str, **files: str) -> Path:
    tree = {
        "pyproject.toml": pyproject,
        "shop/__init__.py": "",
        "shop/a/__init__.py": "",
        "shop/b/__init__.py": "",
        **files,
    }
    return write_tree(root, tree)


def _no_forged_line(output: str) -> None:
    assert not any(line.startswith(FORGED) for line in output.splitlines()), output


def test_a_line_break_in_an_import_config_note_is_escaped(tmp_path: Path) -> None:
    _shop(tmp_path, f'[tool.importlinter]\nroot_package = "shop"\n"x\\n{FORGED}" = 1\n{CONTRACT}')
    run = run_limited("import-config", "--dry-run", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert f"session option x\\n{FORGED} has no inwards counterpart" in run.stdout
    _no_forged_line(run.output)


def test_a_line_break_in_the_file_name_is_escaped(tmp_path: Path) -> None:
    name = f"x\n{FORGED}.importlinter"
    _shop(tmp_path, "", **{name: "[importlinter]\nroot_package = shop\n"})
    run = run_limited("import-config", "--dry-run", name, cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert f"import-linter contracts in x\\n{FORGED}.importlinter:" in run.stdout
    _no_forged_line(run.output)


def test_a_line_break_in_a_package_directory_is_escaped_by_init_auto(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "shop"\n',
            "src/shop/__init__.py": "",
            "src/shop/domain/__init__.py": "",
            "src/shop/api/__init__.py": "",
            f"src/shop/x\n{FORGED}/m.py": "",
        },
    )
    run = run_limited("init", "--style", "auto", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output
    assert f"shop.x\\n{FORGED}" in run.stdout
    _no_forged_line(run.output)


DEEP = "x = " + "[" * 5_000 + "]" * 5_000 + "\n"
DOTTED = ".".join(["a"] * 50_000) + " = 1\n"
IMPORTLINTER_TOML = '[tool.importlinter]\nroot_package = "shop"\n'


def _one_error_line(run: LimitedRun, *needles: str) -> None:
    assert run.code == 2, run.output[-2000:]
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 1, run.stderr[-2000:]
    assert "internal error" not in run.stderr
    for needle in needles:
        assert needle in run.stderr, run.stderr


@pytest.mark.parametrize("name", ["setup.cfg", ".importlinter", "pyproject.toml"])
def test_a_huge_sparse_import_linter_file_is_not_read_whole(tmp_path: Path, name: str) -> None:
    _shop(tmp_path, "")
    with (tmp_path / name).open("wb") as sparse:
        sparse.truncate(20 * 1024**3)
    run = run_limited("import-config", name, cwd=tmp_path, budget=Budget(15, memory_mb=512))
    _one_error_line(run, name, "larger than 10 MiB")


def test_a_huge_sparse_pyproject_beside_the_config_is_not_read_whole(tmp_path: Path) -> None:
    _shop(tmp_path, "", **{".importlinter": "[importlinter]\nroot_package = shop\n"})
    with (tmp_path / "pyproject.toml").open("wb") as sparse:
        sparse.truncate(20 * 1024**3)
    run = run_limited("import-config", cwd=tmp_path, budget=Budget(15, memory_mb=512))
    _one_error_line(run, "pyproject.toml", "larger than 10 MiB")


@pytest.mark.parametrize(
    ("text", "says"),
    [(DEEP, "more than 100 levels deep"), (DOTTED, "dotted key of 50000 parts")],
    ids=["deep-array", "dotted-key"],
)
def test_a_deep_toml_file_is_refused_by_import_config(tmp_path: Path, text: str, says: str) -> None:
    _shop(tmp_path, IMPORTLINTER_TOML + text)
    run = run_limited("import-config", "--dry-run", cwd=tmp_path, budget=QUICK)
    _one_error_line(run, "pyproject.toml", says)


@pytest.mark.parametrize(
    ("text", "says"),
    [(DEEP, "more than 100 levels deep"), (DOTTED, "dotted key of 50000 parts")],
    ids=["deep-array", "dotted-key"],
)
@pytest.mark.parametrize(
    "args",
    [("--style", "hexagonal"), ("--style", "hexagonal", "--package", "shop")],
    ids=["project-name", "package-option"],
)
def test_a_deep_pyproject_is_refused_by_init(
    tmp_path: Path, text: str, says: str, args: tuple[str, ...]
) -> None:
    _shop(tmp_path, '[project]\nname = "shop"\n' + text)
    before = (tmp_path / "pyproject.toml").read_bytes()
    run = run_limited("init", *args, cwd=tmp_path, budget=QUICK)
    _one_error_line(run, "pyproject.toml", says)
    assert (tmp_path / "pyproject.toml").read_bytes() == before


def test_an_import_linter_file_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    write_tree(outside, {".importlinter": "[importlinter]\nroot_package = shop\n"})
    project = _shop(tmp_path / "project", "")
    (project / ".importlinter").symlink_to(outside / ".importlinter")
    run = run_limited("import-config", "--dry-run", cwd=project, budget=QUICK)
    _one_error_line(run, ".importlinter", "outside the project")


def test_a_control_character_in_the_file_name_stays_out_of_the_comments(tmp_path: Path) -> None:
    name = "a\x1bb\n[tool.inwards]"
    ini = (
        "[importlinter]\nroot_package = shop\n[importlinter:contract:one]\nname = one\n"
        "type = forbidden\nsource_modules = shop.a\nforbidden_modules = shop.b\n"
    )
    _shop(tmp_path, "", **{name: ini})
    run = run_limited("import-config", name, cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output[-2000:]
    assert "\x1b" not in run.output
    rule = (tmp_path / ".inwards/rules/IL001.toml").read_text(encoding="utf-8")
    assert "in a\\x1bb\\n[tool.inwards]." in rule
    tomllib.loads(rule)
    tomllib.loads((tmp_path / "pyproject.toml").read_text(encoding="utf-8"))
    assert run_limited("check", "--no-cache", cwd=tmp_path, budget=QUICK).code == 0


def _ini(contracts: int, source: str = "shop.a", name: str = "one") -> str:
    return "[importlinter]\nroot_package = shop\n" + "".join(
        f"[importlinter:contract:c{index}]\nname = {name}\ntype = forbidden\n"
        f"source_modules = {source}\nforbidden_modules = shop.b\n"
        for index in range(contracts)
    )


def _nothing_written(project: Path) -> None:
    assert not (project / ".inwards").exists()
    assert (project / "pyproject.toml").read_text(encoding="utf-8") == "[project]\n"


@pytest.mark.parametrize(
    ("file_size", "failing"),
    [(600, "pyproject.toml"), (100, "IL001.toml")],
    ids=["the-pyproject-fails", "a-rule-file-fails"],
)
def test_import_config_writes_all_or_nothing(tmp_path: Path, file_size: int, failing: str) -> None:
    _shop(tmp_path, "[project]\n", **{".importlinter": _ini(2)})
    run = run_limited(
        "import-config",
        cwd=tmp_path,
        budget=QUICK,
        limits={resource.RLIMIT_FSIZE: (file_size, file_size)},
    )
    _one_error_line(run, failing)
    _nothing_written(tmp_path)
    rerun = run_limited("import-config", cwd=tmp_path, budget=QUICK)
    assert rerun.code == 0, rerun.output[-2000:]


def test_a_read_only_pyproject_leaves_no_rule_files(tmp_path: Path) -> None:
    _shop(tmp_path, "[project]\n", **{".importlinter": _ini(2)})
    (tmp_path / "pyproject.toml").chmod(0o444)
    run = run_limited("import-config", cwd=tmp_path, budget=QUICK)
    _one_error_line(run, "pyproject.toml", "read-only")
    _nothing_written(tmp_path)


def test_a_thousand_contracts_are_refused_not_written_as_il1000(tmp_path: Path) -> None:
    _shop(tmp_path, "[project]\n", **{".importlinter": _ini(1_000)})
    run = run_limited("import-config", cwd=tmp_path, budget=QUICK)
    _one_error_line(run, ".importlinter", "more than 999 contracts")
    _nothing_written(tmp_path)


def test_twenty_thousand_contracts_of_one_name_are_read_in_linear_time(tmp_path: Path) -> None:
    _shop(tmp_path, "[project]\n", **{".importlinter": _ini(20_000)})
    run = run_limited("import-config", "--dry-run", cwd=tmp_path, budget=Budget(seconds=20))
    _one_error_line(run, "more than 999 contracts")


def test_a_module_name_inwards_refuses_is_not_converted(tmp_path: Path) -> None:
    ini = _ini(1, source="shop.a-b", name="bad") + _ini(1, name="good").replace(
        "[importlinter]\nroot_package = shop\n[importlinter:contract:c0]",
        "[importlinter:contract:c1]",
    )
    _shop(tmp_path, "[project]\n", **{".importlinter": ini})
    run = run_limited("import-config", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output[-2000:]
    assert "  - 'bad' (.importlinter:3): not converted" in run.stdout
    assert "option source_modules: shop.a-b: 'a-b' is not a Python name" in run.stdout
    assert "  IL001 'good' (.importlinter:8): converted exactly" in run.stdout
    assert not (tmp_path / ".inwards/rules/IL002.toml").exists()
    check = run_limited("check", "--no-cache", cwd=tmp_path, budget=QUICK)
    assert check.code == 0, check.output[-2000:]


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_a_rule_file_differing_only_in_case_is_refused(
    tmp_path: Path, force: tuple[str, ...]
) -> None:
    _shop(tmp_path, "[project]\n", **{".importlinter": _ini(1), ".inwards/rules/il001.toml": ""})
    run = run_limited("import-config", *force, cwd=tmp_path, budget=QUICK)
    _one_error_line(run, "il001.toml", "only in case")
    assert sorted(p.name for p in (tmp_path / ".inwards/rules").iterdir()) == ["il001.toml"]


@pytest.mark.parametrize(
    ("pyproject", "args"),
    [
        (f'[project]\nname = "{"a" * 300}"\n', ("--style", "hexagonal")),
        (f'[project]\nname = "{"a" * 300}"\n', ("--style", "auto")),
        ("[project]\n", ("--style", "hexagonal", "--scaffold", "--package", "b" * 256)),
    ],
    ids=["project-name", "auto", "package-option"],
)
def test_init_with_a_package_name_too_long_for_a_folder(
    tmp_path: Path, pyproject: str, args: tuple[str, ...]
) -> None:
    write_tree(tmp_path, {"pyproject.toml": pyproject})
    run = run_limited("init", *args, cwd=tmp_path, budget=QUICK)
    _one_error_line(run, "characters long", "at most 255 bytes")
    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8") == pyproject


def _many_layers(count: int) -> str:
    layers = "".join(f'  {{ name = "layer{i}", modules = ["shop.l{i}"] }},\n' for i in range(count))
    return f'[tool.inwards]\nroot = "src"\nlayers = [\n{layers}]\n'


@pytest.mark.parametrize("args", [(), ("--write",)], ids=["printed", "written"])
def test_the_brief_of_ten_thousand_layers_is_bounded(tmp_path: Path, args: tuple[str, ...]) -> None:
    write_tree(tmp_path, {"pyproject.toml": _many_layers(10_000), "src/shop/__init__.py": ""})
    run = run_limited("context", *args, cwd=tmp_path, budget=Budget(15, memory_mb=768))
    assert run.code == 0, run.output[-2000:]
    brief = (tmp_path / "AGENTS.md").read_text(encoding="utf-8") if args else run.stdout
    assert len(brief) < 101_000
    assert "(The brief stops here, at 100,000 characters: " in brief
    assert "more lines are left out. `[tool.inwards]` of `pyproject.toml` has them all.)" in brief
    assert "layer owns a module and what it may import.\n" in brief[-300:]


def test_a_layer_past_fifty_inner_ones_counts_them(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": _many_layers(60), "src/shop/__init__.py": ""})
    run = run_limited("context", cwd=tmp_path, budget=QUICK)
    assert run.code == 0, run.output[-2000:]
    names = ", ".join(f"layer{i}" for i in range(50))
    assert f"51. **layer50** (`shop.l50`): may import {names}.\n" in run.stdout
    assert (
        "52. **layer51** (`shop.l51`): may import the 51 layers listed before it.\n" in run.stdout
    )
    assert "stops here" not in run.stdout


def _shop_with_layers(root: Path) -> Path:
    return write_tree(root, {"pyproject.toml": _many_layers(2), "src/shop/__init__.py": ""})


@pytest.mark.parametrize("kind", ["fifo", "link", "sparse"])
def test_context_write_reads_agents_md_as_check_reads_its_configuration(
    tmp_path: Path, kind: str
) -> None:
    """AGENTS.md that is a FIFO (nothing writes it: reading would block), a link to a file
    elsewhere, or a sparse file claiming a terabyte: one line, exit 2, nothing written."""
    _shop_with_layers(tmp_path)
    agents = tmp_path / "AGENTS.md"
    outside = tmp_path.parent / f"{tmp_path.name}-elsewhere.md"
    if kind == "fifo":
        os.mkfifo(agents)
    elif kind == "link":
        outside.write_text("someone else's file\n")
        agents.symlink_to(outside)
    else:
        with agents.open("wb") as sparse:
            sparse.truncate(1 << 40)
    run = run_limited("context", "--write", cwd=tmp_path, budget=QUICK)
    expected = {
        "fifo": "is a FIFO, not a regular file",
        "link": "is a symbolic link; the brief is written only into the file itself",
        "sparse": "can't be read: is larger than 10 MiB.",
    }[kind]
    _one_error_line(run, "AGENTS.md", expected)
    if kind == "link":
        assert outside.read_text() == "someone else's file\n"


MARKED_DIAGRAM = '%% inwards: layers\nflowchart TB\n  a["shop.a"] --> b["shop.b"]\n'
ELSEWHERE = "someone else's file\n"


def _hostile_place(place: Path, kind: str, outside: Path) -> None:
    if kind == "fifo":
        os.mkfifo(place)  # nothing writes it: a read would wait for ever
    elif kind == "sparse":
        with place.open("wb") as sparse:
            sparse.truncate(1 << 40)  # claims a terabyte
    elif kind == "link":
        outside.write_text(ELSEWHERE)
        place.symlink_to(outside)
    else:
        place.write_bytes(b'%% inwards: layers\nflowchart TB\n  a["shop.\xff"]\n')


@pytest.mark.parametrize(
    ("where", "kind", "expected"),
    [
        ("diagram", "fifo", "docs/a.mmd is a FIFO, not a regular file"),
        ("diagram", "sparse", "docs/a.mmd: can't be read: is larger than 4 MiB."),
        ("diagram", "link", "(a symbolic link to "),
        ("diagram", "undecodable", "docs/a.mmd:3: is not UTF-8 text (byte 43 of the file)"),
        ("pyproject", "fifo", "pyproject.toml is a FIFO, not a regular file"),
        ("pyproject", "sparse", "pyproject.toml: can't be read: is larger than 10 MiB."),
        ("pyproject", "link", "pyproject.toml is a symbolic link; the table is written only"),
        ("pyproject", "undecodable", "pyproject.toml:3: is not UTF-8 text"),
    ],
)
def test_import_diagram_reads_as_check_reads_its_configuration(
    tmp_path: Path, where: str, kind: str, expected: str
) -> None:
    """The diagram FILE, or the pyproject.toml import-diagram would change, is a FIFO, a
    sparse file claiming a terabyte, a link to a file outside the project, or not UTF-8:
    one line, exit 2, within a budget a whole read would blow, and nothing written."""
    project = tmp_path / "project"
    write_tree(project, {"src/shop/__init__.py": "", "docs/a.mmd": MARKED_DIAGRAM})
    outside = tmp_path / "elsewhere.txt"
    place = project / ("docs/a.mmd" if where == "diagram" else "pyproject.toml")
    place.unlink(missing_ok=True)
    _hostile_place(place, kind, outside)
    run = run_limited("import-diagram", "docs/a.mmd", cwd=project, budget=Budget(15, memory_mb=512))
    _one_error_line(run, "import-diagram: ", expected)
    if where == "diagram":
        assert not (project / "pyproject.toml").exists()
    if kind == "link":
        assert outside.read_text() == ELSEWHERE
    assert not list(project.rglob("*.tmp"))
