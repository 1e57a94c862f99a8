"""The adapters that live in the core: in-memory files and rule sources (tests, editors,
scripts), the caches that keep nothing on disk, the rule definitions packaged inside the
installed families, and the installed parsers."""
