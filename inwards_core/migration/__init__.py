"""Migration from other architecture linters: reading their configuration and converting
it to inwards' (`[tool.inwards]` and project rule definitions). Pure: text in, values out."""
