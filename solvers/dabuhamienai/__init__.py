"""Dabuhamienai: everything of this genre in one place (kernel, picture, rules, techniques)."""
