"""Django with its top-level packages as bounded contexts, none depending on another, and
both kinds of cycles (`-m corpus`; docs/benchmarks.md records the counts and a sample of
findings checked by hand against the code). Nothing of Django is imported or run."""

from __future__ import annotations

import collections
import os
from pathlib import Path

import pytest

from inwards_cli.adapters.local_files import LocalProjectFiles
from inwards_core import check, load_config_text

CORPORA = Path(os.environ.get("INWARDS_CORPORA", "/work/corpora"))
DJANGO = CORPORA / "big" / "django-6.1.3"

pytestmark = [
    pytest.mark.corpus,
    pytest.mark.skipif(not DJANGO.is_dir(), reason="corpora not available"),
]


def django_contexts() -> list[str]:
    top = DJANGO / "django"
    return sorted(p.name for p in top.iterdir() if (p / "__init__.py").is_file())


def django_config() -> str:
    lines = [
        "[tool.inwards]",
        'layers = [{ name = "django", modules = ["django"] }]',
        'cycles = ["modules", "contexts"]',
    ]
    for name in django_contexts():
        lines += [
            "",
            "[[tool.inwards.contexts]]",
            f'name = "{name}"',
            f'modules = ["django.{name}"]',
        ]
    return "\n".join(lines) + "\n"


def test_django_as_independent_contexts() -> None:
    report = check(load_config_text(django_config()), LocalProjectFiles(DJANGO))
    counts = collections.Counter(finding.code for finding in report.findings)
    if os.environ.get("INWARDS_CORPUS_REPORT"):
        with open(os.environ["INWARDS_CORPUS_REPORT"], "w", encoding="utf-8") as out:
            out.write(f"{report.files_checked} files\n{dict(sorted(counts.items()))}\n")
            for finding in report.findings:
                if finding.code in ("INW002", "INW003", "INW004"):
                    out.write(
                        f"{finding.file}:{finding.span.line}:{finding.span.column}: "
                        f"{finding.code} {finding.message}\n"
                    )
    # Every top-level package imports others (utils, conf, core everywhere): INW002 by the
    # thousand; INW003 only from the modules outside every context (django/__init__.py,
    # shortcuts.py, __main__.py); one INW004 per group of modules in a cycle, and one for
    # the group of contexts.
    assert report.files_checked > 850
    assert counts["INW002"] > 2_000
    assert 0 < counts["INW003"] < 50
    cycles = [f for f in report.findings if f.code == "INW004"]
    contexts = [f for f in cycles if f.message.startswith("The contexts ")]
    assert len(contexts) == 1
    assert len(cycles) > 10
    for finding in cycles:
        assert "(group " in finding.message
