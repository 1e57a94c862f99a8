"""The kinds about the files themselves, before any rule reads their imports: bytes that
are not text (INW000), an inline suppression that is broken or hides nothing (INW009), code
that does not parse (INW020)."""
