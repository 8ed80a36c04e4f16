"""Puzzles as text other programs write: puzz.link URLs (``puzzlink``, one module per genre) and the Number
Sums CSV (``number_sums_csv``)."""
