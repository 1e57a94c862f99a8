"""The top-level names pass (`top_names`) is imported on first need: a fast read of plain
imports without names, the fast path's common case, never loads it."""

from __future__ import annotations

import subprocess
import sys


def test_top_names_is_imported_only_when_names_or_a_full_parse_need_it() -> None:
    script = (
        "import sys\n"
        "from inwards_core.adapters.grammars import StandardGrammars\n"
        "from inwards_core.extraction import extract\n"
        "def read(data, names):\n"
        "    return extract(data, module='pkg.mod', is_package=False,\n"
        "                   grammars=StandardGrammars(), fast=True, names=names)\n"
        "facts = read(b'import os\\nfrom pkg import other\\n', names=False)\n"
        "assert len(facts.imports) == 2, facts\n"
        "print('inwards_core.extraction.top_names' in sys.modules)\n"
        "facts = read(b'import os\\nVALUE = 1\\n', names=True)\n"
        "print('inwards_core.extraction.top_names' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False", "True"]
