"""The web frameworks INW012 knows, and the packages whose import marks a module as one of
theirs: what `reads` needs on every run, kept apart from the recognisers (loaded only when
the rule runs)."""

from __future__ import annotations

from collections.abc import Mapping

FRAMEWORKS = ("fastapi", "flask", "litestar", "django")
# The packages whose import marks a module as one of a framework's (Starlette goes with
# FastAPI, DRF with Django).
FRAMEWORK_PACKAGES: Mapping[str, tuple[str, ...]] = {
    "fastapi": ("fastapi", "starlette"),
    "flask": ("flask",),
    "litestar": ("litestar",),
    "django": ("django", "rest_framework"),
}
