"""Star Battle: its model on the genre kit (``rules``), its puz.link format (``puzzlink``) and its picture
(``picture``). Checking, solving, levels and hints are the kit's; the generator draws the region map."""
