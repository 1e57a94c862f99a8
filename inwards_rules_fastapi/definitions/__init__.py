"""The FAPI family's core rule definitions, one TOML file per rule (package data)."""
