"""`inwards server`: the language server over stdio (docs/editors.md).

pygls and lsprotocol are an optional extra (`inwards-lint[lsp]`): without them the command
says what to install and exits 2, and `inwards check` never pays for importing them.
"""

from __future__ import annotations

from inwards_cli.commands.console import fail

INSTALL_HINT = "pip install 'inwards-lint[lsp]'"
_EXTRA = ("pygls", "lsprotocol")  # the packages of the lsp extra


def server_command() -> None:
    """Serve the Language Server Protocol on stdin and stdout, for editors (docs/editors.md).

    Diagnostics for every import that breaks the architecture, a quick fix that adds a
    suppression comment, and hover on rule codes. Needs the lsp extra:
    pip install 'inwards-lint[lsp]'.
    """
    try:
        from inwards_cli.lsp.server import serve  # imports pygls and lsprotocol
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in _EXTRA:
            raise
        fail(f"inwards server needs pygls and lsprotocol: {INSTALL_HINT}")
    serve()
