"""A small hexagonal shop, the example project of inwards."""
