"""Driving adapters: the command line."""
