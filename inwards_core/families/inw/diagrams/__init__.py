"""Diagram parsers for the diagram rules (INW017-INW019): pure functions over text, no I/O.

`blocks` finds the marked diagram blocks of a file, `mermaid` and `plantuml` read one block
each into a `model.Diagram`. No rule uses them yet."""
