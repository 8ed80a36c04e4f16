"""SVG pictures of puzzles and their solutions: one module per type, drawn on the shared grid helpers.

Each type's ``render(puzzle, answer=None, play=False)`` returns SVG text; ``generators/<type>.py``
hands it to its ``PuzzleType`` so the HTTP layer and the book reach it without knowing the type.
"""
