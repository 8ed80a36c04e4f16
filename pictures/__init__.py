"""SVG pictures of puzzles and their solutions: the shared grid helpers (``grid``). Each genre draws in its
own ``solvers/<genre>/picture.py``, whose ``render(puzzle, answer=None, play=False)`` returns SVG text;
``generators/<type>.py`` hands it to its ``PuzzleType`` so the HTTP layer and the book reach it without
knowing the type.
"""
