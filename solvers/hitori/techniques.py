"""Hitori as a person solves it: the shading techniques Dabuhamienai has too (``solvers.shading.techniques``),
on boards where two equal numbers may not share a line at all, so each pair is a segment of its two cells.

Its levels follow Simon Tatham's Singles (``LADDER``): his Easy solver joins only a lone unshaded cell to the
rest ("all black but one") and reads patterns that are each a pair of equal numbers followed one step either
way (x y x: the middle stays unshaded); his Tricky adds what splits the unshaded cells ("remove splits") and
patterns a few steps deep ("offset pairs"). So our easy looks one round ahead with the lone-cell exit, and
our medium adds a group's last exit, cut-off and a look-ahead of 4 rounds."""

from __future__ import annotations

from solvers.hitori.rules import HitoriPuzzle
from solvers.shading import techniques as shading

LADDER = shading.Ladder(near=1, far=4, lone_first=True)


def board_of(puzzle: HitoriPuzzle) -> shading.Board:
    return shading.board_of(puzzle.numbers, spans=False, ladder=LADDER)


def warm_up() -> None:
    shading.warm_up(spans=False, ladder=LADDER)


class HitoriState(shading.ShadedState):
    pass  # the player's grid so far, under its own name in the API's schema


DIFFICULTY = shading.difficulty(board_of, HitoriState, spans=False, default="easy", ladder=LADDER)  # made in a second
