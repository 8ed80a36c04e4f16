"""The `puzzlegen` command (``main``)."""
