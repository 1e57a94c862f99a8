"""ACME's organisation rules for inwards: data only (inwards never imports this package)."""
