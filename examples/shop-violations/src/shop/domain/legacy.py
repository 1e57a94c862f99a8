# -*- coding: unicode_escape -*-
"""A file whose declared encoding could hide an import."""
