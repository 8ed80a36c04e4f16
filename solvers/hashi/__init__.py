"""Hashi (Bridges): its model and answer layout on the genre kit (``rules``), its puz.link format (``puzzlink``),
Simon Tatham's game ID (``tatham``) and its picture (``picture``). Checking, solving, levels, hints and generation
are the kit's."""
