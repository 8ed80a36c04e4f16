"""Tests of what leaves the service as text or pictures: puz.link URLs both ways, SVG pictures."""
