"""Helpers no layer owns."""
