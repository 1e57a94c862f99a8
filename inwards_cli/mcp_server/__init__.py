"""`inwards mcp`: a Model Context Protocol server over stdio (docs/mcp.md). `project` answers
the tools without the protocol; `server` alone imports the `mcp` SDK (the `mcp` extra)."""
