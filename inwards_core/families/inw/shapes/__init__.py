"""The shape kinds (INW007, INW008) and what they share: `shape_rules` (which shape
applies to a package, how member patterns match) and `shape_targets` (INW007's "did you
mean")."""
