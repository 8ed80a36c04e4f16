"""Ubongo: everything of this genre in one place (engine, kernel, picture, rules, techniques)."""
