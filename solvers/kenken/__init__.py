"""KenKen (Calcudoku, Tatham's Keen): its model on the genre kit (``rules``), its Tatham format and its picture.
Checking, solving, levels, hints and generation are the kit's."""
