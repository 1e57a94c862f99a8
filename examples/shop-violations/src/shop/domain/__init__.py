"""Orders, prices and the ports the domain owns."""
