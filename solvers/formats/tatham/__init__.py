"""Simon Tatham's game IDs (the text `sgt-* --generate` prints and his programs read)."""
