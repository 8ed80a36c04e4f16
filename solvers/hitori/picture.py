"""Hitori's picture: the shading genres' square of numbers (``solvers.shading.picture``)."""

from __future__ import annotations

from solvers.hitori.rules import HitoriAnswer, HitoriPuzzle
from solvers.shading import picture


def render(puzzle: HitoriPuzzle, answer: HitoriAnswer | None = None, play: bool = False) -> str:
    return picture.render("Hitori", puzzle.numbers, None if answer is None else answer.shaded, play)
