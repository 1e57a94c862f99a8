"""The resident daemon of the agent hooks (`inwards daemon`, docs/agents.md#daemon): one
process per project keeps a hook `Session` warm and answers PreToolUse and PostToolUse runs
over a Unix socket in a directory only the user can enter; the hook's client asks it first
and runs one-shot whenever it can't be trusted to answer."""
