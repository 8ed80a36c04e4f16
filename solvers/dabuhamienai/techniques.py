"""Dabuhamienai as a person solves it: the shared shading techniques (``solvers.shading.techniques``) on
boards where equal numbers may not share a run, so a segment is the span from one number to the next
equal one. The names below are the shared ones this genre's generator, bench and tests read."""

from __future__ import annotations

from solvers.common import Deadline
from solvers.dabuhamienai.rules import DabuhamienaiPuzzle
from solvers.shading import techniques as shading
from solvers.shading.techniques import (
    BASIC,
    LOCAL,
    SHADED,
    SOLVER,
    TECHNIQUES,
    VALUE_NAMES,
    WHITE,
    ArrayState,
    Board,
    Outline,
    ShadedState,
    array_of,
    cut_off,
    duplicate,
    last_exit,
    outline,
    shaded_neighbours,
    solver,
    start,
)
from solvers.techniques.human import Grade, GridState, HumanSolver, Step

__all__ = ["BASIC", "LOCAL", "SHADED", "SOLVER", "TECHNIQUES", "VALUE_NAMES", "WHITE", "ArrayState", "Board",
           "Grade", "GridState", "HumanSolver", "Outline", "Step", "array_of", "cut_off", "duplicate", "last_exit",
           "outline", "shaded_neighbours", "solver", "start"]


def board_of(puzzle: DabuhamienaiPuzzle) -> Board:
    return shading.board_of(puzzle.numbers, spans=True)


def grade(puzzle: DabuhamienaiPuzzle, deadline: Deadline | None = None) -> Grade:
    return shading.grade(board_of(puzzle), deadline)


def warm_up() -> None:
    shading.warm_up(spans=True)


class DabuhamienaiState(ShadedState):
    pass  # the player's grid so far, under its own name in the API's schema


DIFFICULTY = shading.difficulty(board_of, DabuhamienaiState, spans=True)
