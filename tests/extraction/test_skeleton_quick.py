"""The skeleton reads `from [.]a.b import c [as d], ...` and `import a.b [as c], ...`, alone
on their line at column 0, with one match; every other spelling takes the general path. Both give the facts of the full parse
(tests/corpus/test_differential.py runs tests/fixtures/extraction/one_line_from.py)."""

from __future__ import annotations

import pytest

from inwards_core.extraction.skeleton_blocks import Refused
from inwards_core.extraction.skeleton_scan import Skeleton


def quick_lines(text: str) -> list[bool]:
    """Per statement, whether it was read quickly; none when the skeleton refuses the text
    (the full parse reads it then)."""
    skeleton = Skeleton(text, strict=True)
    skeleton.scan()
    try:
        return [statement.quick is not None for statement in skeleton.statements()]
    except Refused:
        return []


@pytest.mark.parametrize(
    "line",
    [
        "from a.b import c\n",
        "from a.b.c import d as e\n",
        "from a  import  b   \n",
        "from a import b\t\n",
        "from a import b",
        "from import_utils import importer\n",
        "from a import b, c\n",
        "from a import b as c,d  ,  e as f\n",
        "from . import b\n",
        "from .a import b\n",
        "from ...a.b import c as d, e\n",
        "import a\n",
        "import a.b as c  \n",
        "import a.b, c as d,e\n",
        "import\ta",
    ],
)
def test_the_quick_spelling(line: str) -> None:
    assert quick_lines("x = 1\n" + line) == [True]


@pytest.mark.parametrize(
    "line",
    [
        "from a import b  # a comment\n",
        "from a import b; import c\n",
        "from a import (b)\n",
        "from a import b,\n",
        "from a import *\n",
        "from .import b\n",
        "from .. a import b\n",
        "from a. b import c\n",
        "from a\timport b\n",
        "from a \\\n    import b\n",
        "if x:\n    from a import b\n",
        "import a  # a comment\n",
        "import a.b .c\n",
        "import (a)\n",
        "import a,\n",
        "import a; import b\n",
        "lazy import a\n",
        "if x:\n    import a\n",
    ],
)
def test_other_spellings_take_the_general_path(line: str) -> None:
    assert not any(quick_lines("x = 1\n" + line))


def test_quick_statements_keep_their_lines() -> None:
    text = "'''\nimport not_one\n'''\nfrom a import b\n\nfrom c import d as e\n"
    skeleton = Skeleton(text, strict=True)
    skeleton.scan()
    statements = skeleton.statements()
    assert [(s.line, s.start, s.end, s.quick is not None) for s in statements] == [
        (4, 23, 38, True),
        (6, 40, 60, True),
    ]
