"""Kakuro: its model on the genre kit (``rules``, runs as ``solvers.kit.sums``), its puz.link format and its
picture. Checking, solving, levels, hints and generation are the kit's."""
