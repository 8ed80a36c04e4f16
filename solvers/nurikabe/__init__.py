"""Nurikabe: its model on the genre kit (``rules``), its puz.link format and its picture."""
