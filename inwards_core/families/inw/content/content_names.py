"""Names as the INW content rules use them: the core's `ModuleNames` (a dotted name written
in a module resolved through its imports) and `is_test_module`, under the names the rules
were written with."""

from __future__ import annotations

from inwards_core import ModuleNames as Names
from inwards_core import is_test_module

__all__ = ["Names", "is_test_module"]
