"""Architecture diagrams, pure: reading a marked Mermaid or PlantUML block (`blocks`,
`mermaid`, `plantuml`, into the values of `model`), writing the configured layers or
contexts as one (`writing`), ranking a drawn diagram's boxes into layers (`ranking`), and
the architecture brief of `inwards context` (`brief`).

The INW family's diagram rules (INW017-INW019) read through the public API
(`inwards_core.find_diagram_blocks`, `inwards_core.parse_diagram_block`); the `diagram` and
`import-diagram` commands write and read with the same code, so what one writes the other
reads back."""
