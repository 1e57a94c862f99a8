"""The context kinds (INW002-INW004) and what they share: `context_map` (which context
owns a module, its public modules, the imports that cross contexts) and `cycle_graph`
(import-cycles' graphs and searches)."""
