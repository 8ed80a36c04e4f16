"""Puzzles as puzz.link URLs (pzprjs): the encodings genres share (``codec``) and one module per genre."""
