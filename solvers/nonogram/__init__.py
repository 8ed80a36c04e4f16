"""Nonogram: its rules and solvers (``rules``), a person's techniques (``techniques``) and their compiled
path (``kernel``), its puz.link format (``puzzlink``) and its picture (``picture``)."""
