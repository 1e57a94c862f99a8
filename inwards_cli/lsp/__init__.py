"""The language server (`inwards server`): imports pygls and lsprotocol, the optional
`inwards-lint[lsp]` extra, so only `inwards_cli.commands.server` imports this package, and
only once it knows they are installed."""
