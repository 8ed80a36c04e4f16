"""Puzzle generators: the shared pipeline, the type spec, and one module per puzzle type."""
