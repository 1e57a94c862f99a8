"""Static imports: one test per odd spelling, each through every path, exact spans."""

from __future__ import annotations

import textwrap

from inwards_core.model.facts import FileProblemKind, ImportFact, ImportStyle

from .helpers import only, read, read_everywhere, span


def dedent(source: str) -> str:
    return textwrap.dedent(source).lstrip("\n")


def test_module_level_import_is_read_by_the_skeleton() -> None:
    facts = read_everywhere("import os\n")
    assert facts.grammar == "skeleton"
    assert facts.line_count == 1
    assert facts.imports == (
        ImportFact(
            style=ImportStyle.IMPORT,
            module="os",
            name=None,
            target="os",
            level=0,
            span=span(1, 8, 1, 10),
            statement="import os",
            raw_module="os",
        ),
    )


def test_import_in_a_function_is_deferred() -> None:
    fact = only(read_everywhere("def f():\n    import os\n"))
    assert fact.in_function
    assert not fact.type_checking
    assert fact.span == span(2, 12, 2, 14)


def test_import_in_an_async_function_is_deferred() -> None:
    assert only(read_everywhere("async def f():\n    import os\n")).in_function


def test_import_in_a_class_body_is_not_in_a_function() -> None:
    fact = only(read_everywhere("class A:\n    import os\n"))
    assert not fact.in_function
    assert fact.span == span(2, 12, 2, 14)


def test_class_inside_a_function_keeps_in_function() -> None:
    source = "def f():\n    class A:\n        import os\n"
    fact = only(read_everywhere(source))
    assert fact.in_function
    assert fact.span == span(3, 16, 3, 18)


def test_type_checking_body_counts_and_else_branch_does_not() -> None:
    source = dedent(
        """
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            import a
        else:
            import b
        if typing.TYPE_CHECKING:
            import c
        if t.TYPE_CHECKING:
            import d
        if not TYPE_CHECKING:
            import e
        if TYPE_CHECKING and x:
            import f
        elif TYPE_CHECKING:
            import g
        """
    )
    facts = read_everywhere(source)
    assert facts.grammar == "skeleton"
    flags = {fact.module: fact.type_checking for fact in facts.imports}
    assert flags == {
        "typing": False,
        "a": True,
        "b": False,
        "c": True,
        "d": True,
        "e": False,
        "f": False,
        "g": True,
    }
    assert facts.imports[1].span == span(3, 12, 3, 13)


def test_type_checking_reaches_nested_blocks_and_functions() -> None:
    source = dedent(
        """
        def f():
            if TYPE_CHECKING:
                try:
                    import a
                except ImportError:
                    pass
        """
    )
    fact = only(read_everywhere(source))
    assert fact.type_checking and fact.in_function
    assert fact.span == span(4, 20, 4, 21)


def test_one_line_type_checking_block() -> None:
    facts = read_everywhere("if TYPE_CHECKING: import a\n")
    assert facts.grammar == "ast"  # the skeleton refuses `x: import y`
    assert only(facts).type_checking
    assert only(facts).span == span(1, 26, 1, 27)


def test_try_except_and_conditionals() -> None:
    source = dedent(
        """
        try:
            import json
        except ImportError:
            import simplejson as json
        if sys.version_info >= (3, 11):
            import tomllib
        else:
            import tomli
        for x in y:
            import a
        while z:
            import b
        with ctx:
            import c
        """
    )
    facts = read_everywhere(source)
    assert facts.grammar == "skeleton"
    assert [(f.module, f.span.line, f.span.column) for f in facts.imports] == [
        ("json", 2, 12),
        ("simplejson", 4, 12),
        ("tomllib", 6, 12),
        ("tomli", 8, 12),
        ("a", 10, 12),
        ("b", 12, 12),
        ("c", 14, 12),
    ]
    assert not any(f.type_checking or f.in_function for f in facts.imports)


def test_import_dotted_as_alias() -> None:
    fact = only(read_everywhere("import a.b as c\n"))
    assert (fact.style, fact.module, fact.name, fact.target) == (
        ImportStyle.IMPORT,
        "a.b",
        None,
        "a.b",
    )
    assert fact.span == span(1, 8, 1, 11)
    assert fact.statement == "import a.b as c"


def test_import_dotted_with_spaces_around_the_dot() -> None:
    fact = only(read_everywhere("import a . b\n"))
    assert fact.module == "a.b"
    assert fact.span == span(1, 8, 1, 13)
    assert fact.statement == "import a . b"


def test_several_names_in_one_import() -> None:
    facts = read_everywhere("import a, b.c as d\n")
    assert [(f.target, f.span) for f in facts.imports] == [
        ("a", span(1, 8, 1, 9)),
        ("b.c", span(1, 11, 1, 14)),
    ]


def test_from_import_with_alias_gives_one_fact_per_name() -> None:
    facts = read_everywhere("from a import b as c, d\n")
    assert [(f.style, f.module, f.name, f.target, f.span) for f in facts.imports] == [
        (ImportStyle.FROM, "a", "b", "a.b", span(1, 15, 1, 16)),
        (ImportStyle.FROM, "a", "d", "a.d", span(1, 23, 1, 24)),
    ]
    assert {f.statement for f in facts.imports} == {"from a import b as c, d"}


def test_relative_import_in_a_package() -> None:
    fact = only(read_everywhere("from . import x\n", module="a.b", is_package=True))
    assert (fact.module, fact.target, fact.level, fact.raw_module) == ("a.b", "a.b.x", 1, ".")
    assert fact.span == span(1, 15, 1, 16)


def test_relative_import_in_a_plain_module() -> None:
    fact = only(read_everywhere("from . import x\n", module="a.b.c"))
    assert (fact.module, fact.target) == ("a.b", "a.b.x")


def test_relative_import_two_levels_up() -> None:
    plain = only(read_everywhere("from ..pkg import y\n", module="a.b.c"))
    assert (plain.module, plain.target, plain.level, plain.raw_module) == (
        "a.pkg",
        "a.pkg.y",
        2,
        "..pkg",
    )
    assert plain.span == span(1, 19, 1, 20)
    package = only(read_everywhere("from ..pkg import y\n", module="a.b", is_package=True))
    assert package.target == "a.pkg.y"


def test_relative_import_above_the_top_level_package() -> None:
    fact = only(read_everywhere("from ... import z\n", module="a.b.c"))
    assert (fact.module, fact.target, fact.raw_module) == (None, None, "...")


def test_star_import() -> None:
    fact = only(read_everywhere("from a import *\n"))
    assert (fact.style, fact.module, fact.name, fact.target) == (ImportStyle.STAR, "a", None, "a")
    assert fact.span == span(1, 15, 1, 16)


def test_parenthesized_multi_line_import_with_comments() -> None:
    source = dedent(
        """
        from a import (
            b,  # a comment (with parentheses)
            c as d,
        )
        """
    )
    facts = read_everywhere(source)
    assert facts.grammar == "skeleton"
    assert [(f.name, f.span) for f in facts.imports] == [
        ("b", span(2, 5, 2, 6)),
        ("c", span(3, 5, 3, 6)),
    ]
    assert facts.imports[0].statement == "from a import (b, c as d,)"


def test_backslash_continuation() -> None:
    facts = read_everywhere("from a import b, \\\n    c\n")
    assert facts.grammar == "skeleton"
    assert [(f.name, f.span) for f in facts.imports] == [
        ("b", span(1, 15, 1, 16)),
        ("c", span(2, 5, 2, 6)),
    ]
    assert facts.imports[0].statement == "from a import b, c"


def test_backslash_inside_a_dotted_name() -> None:
    fact = only(read_everywhere("import a.\\\n    b\n"))
    assert fact.module == "a.b"
    assert fact.span == span(1, 8, 2, 6)


def test_semicolons() -> None:
    facts = read_everywhere("import a; import b\n")
    assert facts.grammar == "ast"  # the skeleton refuses `;`
    assert [(f.module, f.span, f.statement) for f in facts.imports] == [
        ("a", span(1, 8, 1, 9), "import a"),
        ("b", span(1, 18, 1, 19), "import b"),
    ]


def test_crlf_line_breaks() -> None:
    facts = read_everywhere("import a\r\n\r\nimport b\r\n")
    assert [f.span for f in facts.imports] == [span(1, 8, 1, 9), span(3, 8, 3, 9)]
    assert facts.line_count == 3


def test_cr_only_line_breaks() -> None:
    facts = read_everywhere("import a\rdef f():\r    import b\r")
    assert [(f.span, f.in_function) for f in facts.imports] == [
        (span(1, 8, 1, 9), False),
        (span(3, 12, 3, 13), True),
    ]
    assert facts.line_count == 3


def test_form_feed_and_unicode_line_separator_are_not_line_breaks() -> None:
    facts = read_everywhere("x = 1\x0c\nimport a  # \u2028 not a break\nimport b\n")
    assert [f.span for f in facts.imports] == [span(2, 8, 2, 9), span(3, 8, 3, 9)]
    assert facts.line_count == 3


def test_form_feed_opening_a_line() -> None:
    facts = read_everywhere("\x0cimport a\n")
    assert only(facts).span == span(1, 9, 1, 10)


def test_utf8_byte_order_mark() -> None:
    facts = read_everywhere(b"\xef\xbb\xbfimport a\n")
    assert only(facts).span == span(1, 8, 1, 9)


def test_latin1_declaration_with_non_ascii_before_an_import_on_the_same_line() -> None:
    source = b'# -*- coding: latin-1 -*-\nx = "\xe9\xe9"; import a\n'
    fact = only(read_everywhere(source))
    # Character columns: the two e-acute count one column each (two bytes each in UTF-8).
    assert fact.span == span(2, 18, 2, 19)


def test_declaration_on_line_two_after_a_comment_line() -> None:
    source = b"#!/usr/bin/env python\n# coding: latin-1\nimport a  # \xe9t\xe9\n"
    facts = read_everywhere(source)
    assert facts.problem is None
    assert only(facts).span == span(3, 8, 3, 9)


def test_declaration_after_code_is_ignored() -> None:
    facts = read_everywhere(b"import a\n# coding: unicode_escape\n")
    assert facts.problem is None
    assert only(facts).module == "a"


def test_tab_indentation() -> None:
    facts = read_everywhere("if x:\n\timport a\n")
    assert facts.grammar == "ast"  # the skeleton refuses tabs in indentation
    assert only(facts).span == span(2, 9, 2, 10)


def test_match_statement() -> None:
    source = dedent(
        """
        match command:
            case "load":
                import loader
            case _:
                pass
        """
    )
    facts = read_everywhere(source)
    assert facts.grammar == "skeleton"
    fact = only(facts)
    assert (fact.module, fact.in_function, fact.span) == ("loader", False, span(3, 16, 3, 22))


def test_black_style_multi_line_signature() -> None:
    source = dedent(
        """
        @decorator(
            "x",
        )
        def f(
            a: int,
            b: str = "(",
        ) -> None:
            import os
        """
    )
    facts = read_everywhere(source)
    assert facts.grammar == "skeleton"
    assert only(facts).in_function
    assert only(facts).span == span(8, 12, 8, 14)


def test_import_text_in_strings_and_comments_is_not_an_import() -> None:
    source = dedent(
        '''
        x = "import os"
        """
        import sys
        from a import b
        """
        # import json
        def f():
            """
        from fake import thing
            """
            import real
        '''
    )
    facts = read_everywhere(source)
    assert facts.grammar == "skeleton"
    fact = only(facts)
    assert (fact.module, fact.in_function, fact.span) == ("real", True, span(11, 12, 11, 16))


def test_names_ending_in_import_are_not_keywords() -> None:
    facts = read_everywhere("reimport = do_import(x)\nimport a\n")
    assert facts.grammar == "skeleton"
    assert only(facts).span == span(2, 8, 2, 9)


def test_pep_695_type_alias() -> None:
    source = "type Pair = tuple[int, int]\nimport a\n"
    assert read(source, check_syntax=False).grammar == "skeleton"
    assert read(source).grammar == "libcst"
    full = read(source, fast=False)
    assert full.grammar == "libcst"
    assert full.problem is None
    assert read_everywhere(source).imports == full.imports
    assert only(full).span == span(2, 8, 2, 9)


def test_pep_695_generic_function() -> None:
    source = "def first[T](items: list[T]) -> T:\n    import a\n"
    facts = read_everywhere(source)
    assert facts.grammar == "libcst"
    assert only(facts).in_function
    assert only(facts).span == span(2, 12, 2, 13)


def test_pep_701_f_string_with_nested_quotes() -> None:
    source = 'x = f"{d["key"]}"\nimport a\n'
    facts = read_everywhere(source)
    assert facts.grammar == "libcst"
    assert only(facts).span == span(2, 8, 2, 9)


def test_t_string() -> None:
    source = 'x = t"{a}"\nimport b\n'
    full = read(source, fast=False)
    assert full.grammar == "libcst"
    assert only(read_everywhere(source)).span == span(2, 8, 2, 9)


def test_pep_758_except_without_parentheses() -> None:
    source = "try:\n    import a\nexcept A, B:\n    pass\n"
    full = read(source, fast=False)
    assert full.grammar == "libcst"
    assert only(read_everywhere(source)).span == span(2, 12, 2, 13)


def test_lazy_imports() -> None:
    source = "lazy import a\nlazy from b import c\ndef f():\n    lazy import d\n"
    facts = read_everywhere(source)
    assert facts.grammar == "ast"  # CPython 3.11 reads it once `lazy` is cut out
    assert read(source, check_syntax=False).grammar == "skeleton"
    assert [(f.target, f.lazy, f.in_function, f.span, f.statement) for f in facts.imports] == [
        ("a", True, False, span(1, 13, 1, 14), "lazy import a"),
        ("b.c", True, False, span(2, 20, 2, 21), "lazy from b import c"),
        ("d", True, True, span(4, 17, 4, 18), "lazy import d"),
    ]
    assert read(source, fast=False).imports == facts.imports


def test_lazy_as_a_plain_name_is_not_a_keyword() -> None:
    facts = read_everywhere("lazy = 1\nlazy(x)\nimport a\n")
    assert not only(facts).lazy


def test_non_ascii_identifiers() -> None:
    facts = read_everywhere("from café import thé, ﬁle\nimport 数学\n")
    assert [(f.target, f.span) for f in facts.imports] == [
        ("café.thé", span(1, 18, 1, 21)),
        # Python reads identifiers in NFKC form: the ligature is "fi".
        ("café.file", span(1, 23, 1, 26)),
        ("数学", span(2, 8, 2, 10)),
    ]


def test_syntax_error_keeps_the_imports_that_still_read() -> None:
    source = dedent(
        """
        import a
        def f(:
            pass
        import b
        def g():
            import c
        if TYPE_CHECKING:
            from d import e
        """
    )
    facts = read(source, fast=False)
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.SYNTAX
    assert facts.problem.span == span(2, 7, 2, 8)
    assert facts.problem.message == "invalid syntax"
    assert facts.grammar == ""
    assert [(f.target, f.in_function, f.type_checking, f.span) for f in facts.imports] == [
        ("a", False, False, span(1, 8, 1, 9)),
        ("b", False, False, span(4, 8, 4, 9)),
        ("c", True, False, span(6, 12, 6, 13)),
        ("d.e", False, True, span(8, 19, 8, 20)),
    ]


def test_the_fast_path_still_reports_syntax_errors_outside_imports() -> None:
    source = "import a\ndef f(:\n    pass\n"
    quick = read(source)
    assert quick.problem is not None
    assert quick.problem.kind is FileProblemKind.SYNTAX
    assert quick.problem.span == span(2, 7, 2, 8)
    assert quick.problem == read(source, fast=False).problem


def test_without_the_syntax_check_the_skeleton_does_not_look_outside_imports() -> None:
    # Documented trade-off of check_syntax=False: a broken file's imports are read
    # without noticing the error elsewhere.
    source = "import a\ndef f(:\n    pass\n"
    unchecked = read(source, check_syntax=False)
    assert unchecked.grammar == "skeleton"
    assert unchecked.problem is None
    assert unchecked.imports == read(source, fast=False).imports


def test_errors_found_right_after_parsing_do_not_change_the_facts() -> None:
    # CPython's check finds `nonlocal` at module level; its parser alone does not.
    facts = read_everywhere("import a\nnonlocal x\n")
    assert facts.grammar == "ast"
    assert facts.problem is None
    assert only(facts).span == span(1, 8, 1, 9)


def test_unclosed_string_still_reports_a_syntax_problem() -> None:
    facts = read('import a\nx = "unclosed\nimport b\n')
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.SYNTAX
    assert [f.target for f in facts.imports] == ["a", "b"]


def test_null_byte() -> None:
    facts = read("import a\nx = 1\x00\n")
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.SYNTAX
    assert facts.problem.span == span(2, 6, 2, 7)
    assert [f.target for f in facts.imports] == ["a"]


def test_undecodable_bytes() -> None:
    facts = read(b'import a\nx = "\xff"\n')
    assert facts.imports == ()
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.UNDECODABLE
    assert facts.problem.span == span(2, 6, 2, 7)
    assert "line 2, column 6" in facts.problem.message
    assert "0xff" in facts.problem.message


def test_undecodable_with_declared_encoding_counts_characters() -> None:
    facts = read(b"# coding: ascii\nx = 1\n\xe9\n")
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.UNDECODABLE
    assert facts.problem.span == span(3, 1, 3, 2)
    assert facts.problem.encoding == "ascii"


def test_unicode_escape_declaration_is_refused() -> None:
    source = b"# -*- coding: unicode_escape -*-\n#\\u000aimport shop.infrastructure\n"
    facts = read(source)
    assert facts.imports == ()
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.ENCODING
    assert facts.problem.encoding == "unicode-escape"
    assert facts.problem.span == span(1, 1, 1, 1)
    assert "unicode-escape" in facts.problem.message


def test_other_hiding_codecs_and_unknown_codecs_are_refused() -> None:
    for declared, expected in [
        (b"raw_unicode_escape", "raw-unicode-escape"),
        (b"utf-7", "utf-7"),
        (b"rot13", "rot-13"),
        (b"klingon", "klingon"),
        (b"utf-16", "utf-16"),
    ]:
        facts = read(b"# coding: " + declared + b"\nimport a\n")
        assert facts.problem is not None, declared
        assert facts.problem.kind is FileProblemKind.ENCODING
        assert facts.problem.encoding == expected


def test_allowed_declared_encodings() -> None:
    for declared in [b"utf-8", b"UTF8", b"ascii", b"latin-1", b"iso-8859-15", b"cp1252"]:
        facts = read(b"# vim: set fileencoding=" + declared + b" :\nimport a\n")
        assert facts.problem is None, declared
        assert only(facts).span == span(2, 8, 2, 9)


def test_bom_with_another_declared_encoding() -> None:
    facts = read(b"\xef\xbb\xbf# coding: latin-1\nimport a\n")
    assert facts.problem is not None
    assert facts.problem.kind is FileProblemKind.ENCODING


def test_crlf_before_the_declaration() -> None:
    facts = read(b"\r\n# coding: unicode_escape\r\nimport a\r\n")
    assert facts.problem is not None
    assert facts.problem.encoding == "unicode-escape"


def test_empty_file() -> None:
    facts = read_everywhere(b"")
    assert facts.imports == ()
    assert facts.line_count == 0
    assert facts.problem is None
