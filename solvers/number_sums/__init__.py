"""Number Sums: everything of this genre in one place (csv_format, kernel, picture, rules, techniques)."""
