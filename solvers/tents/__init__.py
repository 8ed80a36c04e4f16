"""Tents: its model on the genre kit (``rules``), its puz.link and Tatham formats (``puzzlink``, ``tatham``) and
its picture (``picture``). Checking, solving, levels, hints and generation are the kit's."""
