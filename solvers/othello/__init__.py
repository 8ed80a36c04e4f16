"""Othello: everything of this genre in one place (engine, picture, rules, techniques)."""
