"""Content facts through the engine (issue 13): a kind that asks for them
(`ReadScope.content`) gets them for the modules it narrows to by imports, through the cache
under their own entries; a run without such a kind reads none and its cache entries are
what they were."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import attrs

from inwards_core import (
    CheckKind,
    ContentFacts,
    Family,
    NoOptions,
    ProjectModel,
    ReadScope,
    Violation,
)
from inwards_core.adapters.caches import DictExtractionCache
from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.adapters.in_memory import InMemoryProjectFiles, InMemoryRuleSources
from inwards_core.api import check, installed_families, load_config_text, load_rules
from inwards_core.families.inw.content.content_names import Names, is_test_module
from inwards_core.model.facts import ModuleFacts
from inwards_core.model.facts_data import facts_from_data, facts_to_data
from inwards_core.model.findings import Span

PYPROJECT = """\
[tool.inwards]
layers = [
  { name = "app", modules = ["shop.app"] },
  { name = "domain", modules = ["shop.domain"] },
]
"""
PROBE = """\
code = "ACME001"
name = "probe-functions"
check = "probe.functions"
"""
FILES = {
    "shop/__init__.py": "",
    "shop/app/__init__.py": "",
    "shop/app/api.py": (
        "from fastapi import APIRouter as Router\n"
        "import sqlalchemy.orm as orm\n"
        "from shop.domain import model\n"
        "router = Router()\n"
        "@router.get('/')\n"
        "async def index(db: orm.Session):\n"
        "    return model.Order()\n"
    ),
    "shop/app/cli.py": "import sys\n\ndef main():\n    return sys.argv\n",
    "shop/domain/__init__.py": "",
    "shop/domain/model.py": "class Order:\n    pass\n",
}
seen: list[str] = []


def _functions(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
    for info in model.checked:
        content = model.content(info)
        assert content is None or isinstance(content, ContentFacts)
        seen.append(f"{info.name}:{content is not None and content.parsed}")
        for function in content.functions if content is not None else ():
            yield Violation(info.file, info.name, function.span, f"function {function.qualname}")


def _family(imports: tuple[str, ...]) -> Family:
    kind = CheckKind(
        "probe.functions",
        "Reports every function.",
        NoOptions,
        _functions,
        reads=lambda options: ReadScope(content=True, content_imports=imports),
    )
    return Family("PROBE", (kind,), "inwards_core.adapters", "probe", "1")


def _run(imports: tuple[str, ...], cache: DictExtractionCache) -> list[str]:
    families = (*installed_families(), _family(imports))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    assert rules.problems == ()
    report = check(
        load_config_text(PYPROJECT),
        InMemoryProjectFiles(FILES),
        rule_set=rules,
        cache=cache,
        grammars=StandardGrammars(),
    )
    return [f.message for f in report.findings if f.code == "ACME001"]


def test_a_content_kind_reads_the_modules_that_import_its_packages_first() -> None:
    seen.clear()
    cache = DictExtractionCache()
    assert _run(("fastapi",), cache) == ["function index"]
    # The module importing fastapi was read in the first batch; the others on demand.
    assert "shop.app.api:True" in seen
    # cli.py holds no trigger (no decorator, class or async def): read, not parsed.
    assert "shop.app.cli:False" in seen
    contents = {key.module for key in cache.entries if "content/" in key.extractor}
    assert {"shop.app.api", "shop.app.cli", "shop.domain.model"} <= contents


def test_content_facts_are_cached_under_their_own_entries_and_read_back() -> None:
    cache = DictExtractionCache()
    first = _run((), cache)
    puts = len(cache.entries)
    assert _run((), cache) == first
    assert len(cache.entries) == puts
    assert any("content/" in key.extractor for key in cache.entries)


def test_a_run_without_content_kinds_asks_for_no_content_entry() -> None:
    cache = DictExtractionCache()
    check(
        load_config_text(PYPROJECT),
        InMemoryProjectFiles(FILES),
        cache=cache,
        grammars=StandardGrammars(),
    )
    assert cache.entries
    assert not any("content/" in key.extractor for key in cache.entries)


def test_the_content_key_is_written_only_when_there_is_content() -> None:
    plain = ModuleFacts(line_count=3)
    assert "content" not in facts_to_data(plain)
    with_content = ModuleFacts(content=ContentFacts(parsed=False), line_count=3)
    data = facts_to_data(with_content)
    assert data["content"]["parsed"] is False
    assert facts_from_data(data) == with_content
    assert facts_from_data(facts_to_data(plain)) == plain


def test_names_qualify_through_imports_aliases_and_own_definitions() -> None:
    captured: dict[str, Names] = {}

    def capture(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
        for info in model.checked:
            if info.name == "shop.app.api":
                captured["api"] = Names.of(model, info)
        return iter(())

    kind = CheckKind(
        "probe.functions",
        "x",
        NoOptions,
        capture,
        reads=lambda options: ReadScope(content=True),
    )
    families = (*installed_families(), Family("PROBE", (kind,), "inwards_core.adapters", "p", "1"))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    check(load_config_text(PYPROJECT), InMemoryProjectFiles(FILES), rule_set=rules)
    names = captured["api"]
    assert names.qualify("orm.Session") == "sqlalchemy.orm.Session"
    assert names.qualify("Router") == "fastapi.APIRouter"
    assert names.qualify("model.Order") == "shop.domain.model.Order"
    assert names.qualify("router.get") == "shop.app.api.router.get"
    assert names.qualify("index") == "shop.app.api.index"
    assert names.qualify("len") == "len"
    assert names.qualify("db.add") == "db.add"


def test_test_modules() -> None:
    assert is_test_module("tests.unit.test_x")
    assert is_test_module("pkg.test_api")
    assert is_test_module("pkg.api_test")
    assert is_test_module("conftest")
    assert is_test_module("pkg.test")
    assert not is_test_module("pkg.testing")
    assert not is_test_module("pkg.contest")


def test_only_the_modules_importing_the_packages_are_read_in_the_first_batch() -> None:
    cache = DictExtractionCache()
    families = (*installed_families(), _family(("fastapi",)))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    batches: list[list[str]] = []

    def counting(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
        batches.append(sorted(f for f, c in model.memo.content.items() if c is not None))
        return iter(())

    kind = attrs.evolve(families[-1].kinds[0], check=counting)
    families = (*families[:-1], attrs.evolve(families[-1], kinds=(kind,)))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    check(
        load_config_text(PYPROJECT),
        InMemoryProjectFiles(FILES),
        rule_set=rules,
        cache=cache,
        grammars=StandardGrammars(),
    )
    assert batches == [["shop/app/api.py"]]


def test_the_record_keeps_the_def_names_span() -> None:
    seen.clear()
    cache = DictExtractionCache()
    _run(("fastapi",), cache)
    (facts,) = (
        f
        for k, f in cache.entries.items()
        if "content/" in k.extractor and k.module == "shop.app.api"
    )
    assert facts.content is not None
    (index,) = facts.content.functions
    assert index.span.line == 6 and index.is_async
    assert facts.imports == ()
    assert Span(1, 1, 1, 1).line == 1


def test_a_content_read_stopped_by_a_limit_is_said_and_not_cached() -> None:
    from inwards_core.extraction.facts_reading import ParseJob, parse_serially
    from inwards_core.model.facts import FileProblem, FileProblemKind
    from inwards_core.ports import GrammarBinaries

    def limited(jobs: Sequence[ParseJob], grammars: GrammarBinaries) -> list[ModuleFacts]:
        limit = FileProblem(FileProblemKind.LIMIT, "too slow", Span.start_of_file())
        return [
            ModuleFacts(problem=limit) if job.content else facts
            for job, facts in zip(jobs, parse_serially(jobs, grammars), strict=True)
        ]

    families = (*installed_families(), _family(("fastapi",)))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    cache = DictExtractionCache()
    report = check(
        load_config_text(PYPROJECT),
        InMemoryProjectFiles(FILES),
        rule_set=rules,
        cache=cache,
        grammars=StandardGrammars(),
        parse_many=limited,
    )
    assert [f for f in report.findings if f.code == "ACME001"] == []
    gaps = [n for n in report.not_checked if "content rules did not judge it" in n.message]
    # The probe asks for every checked module's content: each one parsed is said once
    # (the others hold no trigger: they are read without a parse, which no limit stops).
    assert [n.path for n in gaps] == ["shop/app/api.py", "shop/domain/model.py"]
    assert not any(
        "content/" in key.extractor for key in cache.entries if key.module == "shop.app.api"
    )


def test_a_file_without_a_trigger_in_its_bytes_needs_no_job() -> None:
    from inwards_core.extraction.content import NO_CONTENT
    from inwards_core.extraction.facts_reading import ParseJob, parse_job, parse_serially
    from inwards_core.ports import GrammarBinaries

    plain = b"import os\n\ndef main():\n    return os.getcwd()\n"
    # The worker's path gives what the reader gives without one, byte for byte.
    job = ParseJob("shop/app/cli.py", plain, "shop.app.cli", False, content=True)
    assert parse_job(job, StandardGrammars()) == NO_CONTENT
    # An undecodable file without a trigger is no content either (INW000 says the rest).
    latin = ParseJob("shop/x.py", b"# caf\xe9\nx = 1\n", "shop.x", False, content=True)
    assert parse_job(latin, StandardGrammars()) == NO_CONTENT
    jobs: list[str] = []

    def counting(batch: Sequence[ParseJob], grammars: GrammarBinaries) -> list[ModuleFacts]:
        jobs.extend(job.file for job in batch if job.content)
        return parse_serially(batch, grammars)

    families = (*installed_families(), _family(()))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    check(
        load_config_text(PYPROJECT),
        InMemoryProjectFiles(FILES),
        rule_set=rules,
        grammars=StandardGrammars(),
        parse_many=counting,
    )
    # Only the two files with a decorator or a class went to a parse.
    assert sorted(jobs) == ["shop/app/api.py", "shop/domain/model.py"]


def test_import_bindings_with_and_without_aliases() -> None:
    from inwards_core import ImportFact, ImportStyle

    def fact(style: ImportStyle, module: str, name: str | None, statement: str) -> ImportFact:
        return ImportFact(style, module, name, None, 0, Span(1, 1, 1, 2), statement)

    assert fact(ImportStyle.IMPORT, "a.b", None, "import a.b").binding() == ("a", "a")
    assert fact(ImportStyle.IMPORT, "a.b", None, "import a.b as c").binding() == ("c", "a.b")
    assert fact(ImportStyle.FROM, "a", "b", "from a import b as c, d").binding() == ("c", "a.b")
    assert fact(ImportStyle.FROM, "a", "d", "from a import b as c, d").binding() == ("d", "a.d")
    # `b` inside `ab as x` or `a.b as y` is not this import's name.
    assert fact(ImportStyle.FROM, "m", "b", "from m import ab as x, b").binding() == ("b", "m.b")
    assert fact(ImportStyle.STAR, "m", None, "from m import *").binding() is None


def test_a_kind_that_reads_its_own_batch_gets_no_first_batch() -> None:
    batches: list[list[str]] = []

    def own(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
        batches.append(sorted(f for f, c in model.memo.content.items() if c is not None))
        api = model.index.module("shop.app.api")
        assert api is not None
        model.read_content_of([api])
        content = model.content(api)
        assert content is not None and content.parsed
        return iter(())

    kind = CheckKind(
        "probe.functions",
        "x",
        NoOptions,
        own,
        reads=lambda options: ReadScope(content=True, content_batch=False),
    )
    families = (*installed_families(), Family("PROBE", (kind,), "inwards_core.adapters", "p", "1"))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    check(load_config_text(PYPROJECT), InMemoryProjectFiles(FILES), rule_set=rules)
    assert batches == [[]]


def test_content_words_narrow_the_first_batch_by_the_text() -> None:
    held: list[list[str]] = []

    def words(model: ProjectModel, options: NoOptions) -> Iterator[Violation]:
        held.append([i.file for i in model.checked if model.content_held(i) is not None])
        return iter(())

    kind = CheckKind(
        "probe.functions",
        "x",
        NoOptions,
        words,
        reads=lambda options: ReadScope(content=True, content_words=("async ",)),
    )
    families = (*installed_families(), Family("PROBE", (kind,), "inwards_core.adapters", "p", "1"))
    rules = load_rules(families, InMemoryRuleSources(families, project={"ACME001.toml": PROBE}))
    check(load_config_text(PYPROJECT), InMemoryProjectFiles(FILES), rule_set=rules)
    # Only api.py holds `async `: model.py (a class) and cli.py were neither read nor parsed.
    assert held == [["shop/app/api.py"]]
