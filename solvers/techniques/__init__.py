"""Solving as a person does, for levels, grades and hints: the shared layer (``human``: techniques in levels,
the solution path, look-aheads); each genre's techniques are its ``solvers/<genre>/techniques.py`` and their
compiled path its ``kernel.py``."""
