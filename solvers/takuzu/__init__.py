"""Takuzu (Binairo, Tatham's Unruly): its model on the genre kit (``rules``), Tatham's game ID (``tatham``) and
its picture (``picture``). Checking, solving, levels, hints and generation are the kit's."""
