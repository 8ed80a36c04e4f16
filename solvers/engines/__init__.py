"""Bit operations the genres' compiled searches share (``bits``); each genre's own exact search is its
``solvers/<genre>/engine.py``."""
