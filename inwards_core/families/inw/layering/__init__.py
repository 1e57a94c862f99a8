"""The layer kinds (INW001, INW005, INW006, INW010, INW011) and what they share:
`layer_relations` (the `modules` option that scopes a rule, how two layers relate, how
messages word the layering), used by the kinds of the other rooms too."""
