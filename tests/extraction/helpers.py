"""Shared helpers for the extraction tests: read a snippet through every path."""

from __future__ import annotations

import libcst

from inwards_core.adapters.grammars import StandardGrammars
from inwards_core.extraction import extract
from inwards_core.extraction.concrete import extract_concrete
from inwards_core.extraction.decoding import DecodedSource, decode_source
from inwards_core.model.facts import ImportFact, ModuleFacts
from inwards_core.model.findings import Span

GRAMMARS = StandardGrammars()


def read(
    source: str | bytes,
    *,
    module: str = "pkg.mod",
    is_package: bool = False,
    fast: bool = True,
    check_syntax: bool = True,
    names: bool = False,
) -> ModuleFacts:
    data = source.encode("utf-8") if isinstance(source, str) else source
    return extract(
        data,
        module=module,
        is_package=is_package,
        grammars=GRAMMARS,
        fast=fast,
        check_syntax=check_syntax,
        names=names,
    )


def read_everywhere(
    source: str | bytes, *, module: str = "pkg.mod", is_package: bool = False
) -> ModuleFacts:
    """The fast read, after checking that the full read, the skeleton without the syntax
    check, and the libcst reference agree with it on every import."""
    quick = read(source, module=module, is_package=is_package)
    full = read(source, module=module, is_package=is_package, fast=False)
    assert quick.imports == full.imports
    assert quick.problem == full.problem
    with_names = read(source, module=module, is_package=is_package, names=True)
    full_names = read(source, module=module, is_package=is_package, fast=False, names=True)
    assert with_names.imports == quick.imports
    assert with_names.names == full_names.names
    if full.problem is None:
        unchecked = read(source, module=module, is_package=is_package, check_syntax=False)
        assert unchecked.imports == full.imports
        unchecked = read(
            source, module=module, is_package=is_package, check_syntax=False, names=True
        )
        assert unchecked.names == full_names.names
    data = source.encode("utf-8") if isinstance(source, str) else source
    decoded = decode_source(data)
    if isinstance(decoded, DecodedSource) and full.problem is None:
        try:
            reference = extract_concrete(
                decoded.text, module=module, is_package=is_package, grammars=GRAMMARS
            )
        except libcst.ParserSyntaxError:
            pass
        else:
            assert reference == full.imports
    return quick


def only(facts: ModuleFacts) -> ImportFact:
    assert len(facts.imports) == 1, facts.imports
    return facts.imports[0]


def span(line: int, column: int, end_line: int, end_column: int) -> Span:
    return Span(line, column, end_line, end_column)
