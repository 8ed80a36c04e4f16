"""Puzzles as text other programs write: what the genres' formats share (``puzzlink.codec``); each genre's
own format lives in its folder (``solvers/<genre>/puzzlink.py``)."""
