"""Light Up (Akari): its model on the genre kit (``rules``), its puz.link format (``puzzlink``) and its
picture (``picture``). Checking, solving, levels, hints and generation are the kit's."""
