"""Battleship: everything of this genre in one place (kernel, picture, puzzlink, rules, techniques)."""
