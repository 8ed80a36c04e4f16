"""Sudoku: everything of this genre in one place (engine, kernel, picture, puzzlink, rules, techniques)."""
