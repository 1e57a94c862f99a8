"""Driven adapters: storage and notifications."""
