"""The diagram rules' reading (INW017-INW019): pure functions over text, no I/O.

`blocks` finds the marked diagram blocks of a file, `mermaid` and `plantuml` read one block
each into a `model.Diagram`; `reading` parses the files on the project model once a run,
`standing` says which layer or context each node stands for, `name_checks` and
`dependencies` are INW017's and INW019's comparisons, `examples` the kinds' examples."""
