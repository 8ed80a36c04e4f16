"""The `puzzlegen` command (``main``) and what pre-generation plans (``plan``, shared with the fleet's commands)."""
