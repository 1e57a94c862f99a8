"""The coding-agent adapters: `inwards hook claude-code` (`claude_code.run_hook`) and what it
keeps between hook runs in `.inwards/state/`. They sit beside the command line and drive the
core through its `Session`, as every other adapter does; nothing in `inwards_core` imports
them (docs/agents.md says what each hook event does)."""
