"""The diagram kinds (INW017-INW019), each with its examples, and their reading: pure
functions over text, no I/O. The core reads a marked block into a `DiagramNode`s' diagram;
`reading` parses the files on the project model once a run, `standing` says which layer or
context each node stands for, `labels` what a label names, `name_checks` (with
`name_hints`) and `dependencies` are INW017's and INW019's comparisons, `example_projects`
what the kinds' examples share."""
