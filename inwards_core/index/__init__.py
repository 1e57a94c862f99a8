"""The project's modules: their names, which layer owns each, how an import resolves to
one, and the standard library's module names."""
