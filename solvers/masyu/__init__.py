"""Masyu: its model on the genre kit (``rules``), its puz.link and Tatham formats and its picture.
Checking, solving, levels, hints and generation are the kit's."""
