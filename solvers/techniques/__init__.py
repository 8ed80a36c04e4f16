"""Solving as a person does, for levels, grades and hints: the shared layer (``human``: techniques in
levels, the solution path, look-aheads) and one module per type with that type's techniques."""
