"""Hitori as a person solves it: the shading techniques Dabuhamienai has too (``solvers.shading.techniques``),
on boards where two equal numbers may not share a line at all, so each pair is a segment of its two cells."""

from __future__ import annotations

from solvers.hitori.rules import HitoriPuzzle
from solvers.shading import techniques as shading


def board_of(puzzle: HitoriPuzzle) -> shading.Board:
    return shading.board_of(puzzle.numbers, spans=False)


def warm_up() -> None:
    shading.warm_up(spans=False)


class HitoriState(shading.ShadedState):
    pass  # the player's grid so far, under its own name in the API's schema


DIFFICULTY = shading.difficulty(board_of, HitoriState, spans=False, default="easy")  # the one made in a second
