"""The TIDY family's core rule definitions, one `<CODE>.toml` per rule (package data)."""
