"""Dabuhamienai's picture: the shading genres' square of numbers (``solvers.shading.picture``)."""

from __future__ import annotations

from solvers.dabuhamienai.rules import DabuhamienaiAnswer, DabuhamienaiPuzzle
from solvers.shading import picture


def render(puzzle: DabuhamienaiPuzzle, answer: DabuhamienaiAnswer | None = None, play: bool = False) -> str:
    return picture.render("Dabuhamienai", puzzle.numbers, None if answer is None else answer.shaded, play)
