"""The plain-Python reference solvers the compiled ``SOLVER`` of a genre is held to.

Each genre's ``solver(compiled=False)`` builds the same levels as its ``SOLVER`` from the readable
technique functions, which say what a technique means; only the tests run them, so they are built here
rather than in the technique modules the service imports."""

from __future__ import annotations

from solvers.battleship import techniques as battleship
from solvers.battleship.techniques import Board as BattleshipBoard
from solvers.dabuhamienai import techniques as dabuhamienai
from solvers.number_sums import techniques as number_sums
from solvers.techniques.human import GridState, HumanSolver

BATTLESHIP: HumanSolver[BattleshipBoard, GridState] = battleship.solver(compiled=False)
DABUHAMIENAI = dabuhamienai.solver(compiled=False)
NUMBER_SUMS = number_sums.solver(compiled=False)
