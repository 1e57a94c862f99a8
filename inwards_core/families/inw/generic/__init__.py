"""The five generic kinds, for user and project rule definitions (`kind_layers`,
`kind_forbidden`, `kind_independence`, `kind_protected`, `kind_acyclic`), and the options
and searches they share: `ignored_imports`, `allowed_imports`, `layer_entries`,
`cycle_depth`, `import_chains` with `chain_routes`."""
