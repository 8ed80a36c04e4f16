"""Fillomino: its model on the genre kit (``rules``), its puz.link and Tatham formats and its picture."""
