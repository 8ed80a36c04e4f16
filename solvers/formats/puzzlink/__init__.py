"""Puzzles as puzz.link URLs (pzprjs): the encodings genres share (``codec``); each genre's URL format is its
``solvers/<genre>/puzzlink.py``."""
