"""Levels, grades and hints: each type's techniques, the golden sample, and the HTTP routes for them."""
