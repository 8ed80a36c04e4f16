"""Puzzles as text other programs write: puzz.link URLs (``puzzlink``) and the Number Sums CSV
(``number_sums_csv``)."""
