"""Hitori: its model on the genre kit (``rules``), its person model shared with Dabuhamienai
(``techniques``), its puz.link and Tatham formats and its picture."""
