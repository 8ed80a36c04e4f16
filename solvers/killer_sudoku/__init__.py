"""Killer Sudoku: its model on the genre kit (``rules``), its Tatham format (Solo's killer IDs) and its picture.
Checking, solving, levels, hints and generation are the kit's."""
