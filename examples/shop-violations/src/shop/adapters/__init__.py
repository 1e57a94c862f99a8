"""Adapters: outbound (driven) and inbound (driving)."""
