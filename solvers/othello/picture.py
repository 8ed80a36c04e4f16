"""Othello: the 8×8 board with coordinates (columns A–H on top, ranks 1–8 on the left, rank 1 at the
top as in the FFO suite), the side to move and the task; the solution rings the answer move."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.othello.rules import OthelloAnswer, OthelloPuzzle

MARGIN = 6
BOARD = "#2e8b57"
TASKS = {"win": "find the only winning move", "best": "find the only best move"}
SIDES = {"X": "Black", "O": "White"}


def disc(cx: float, cy: float, side: str, **attrs: object) -> draw.Circle:
    return draw.Circle(cx, cy, CELL * 0.4, fill="#111111" if side == "X" else "#fafafa", stroke="#111111",
                       stroke_width=1.5, **attrs)


def square(move: str) -> tuple[int, int]:
    """`G8` -> (row 7, column 6)."""
    return int(move[1:]) - 1, ord(move[0].upper()) - ord("A")


def render(puzzle: OthelloPuzzle, answer: OthelloAnswer | None = None, play: bool = False) -> str:
    grid = Grid(8, 8, MARGIN + CELL * 0.6, MARGIN + CELL * 0.6)
    caption = f"{SIDES[puzzle.to_move]} to move: {TASKS[puzzle.task]}"
    width = grid.x(8) + MARGIN
    d = canvas(width, grid.y(8) + CELL * 0.9 + MARGIN, f"Othello, {caption}", ("green-when-filled",))
    for c in range(8):
        d.append(text(chr(ord("A") + c), grid.x(c + 0.5), grid.y(-0.3), CELL * 0.34, font_weight="bold"))
    for r in range(8):
        d.append(text(r + 1, grid.x(-0.3), grid.y(r + 0.5), CELL * 0.34, font_weight="bold"))
    target = square(answer.move) if answer is not None else None
    for r in range(8):
        for c in range(8):
            group = cell_group(r, c, play, label=f"{chr(ord('A') + c)}{r + 1}")
            group.append(cell_background(grid, r, c, BOARD))
            x, y = grid.centre(r, c)
            piece = puzzle.board[r * 8 + c]
            if piece != "-":
                group.append(disc(x, y, piece))
            elif play:
                group.append(disc(x, y, puzzle.to_move, class_="m-fill", fill_opacity=0.75))
            if target == (r, c):
                group.append(disc(x, y, puzzle.to_move))
                group.append(draw.Circle(x, y, CELL * 0.46, fill="none", stroke="#ff3b30", stroke_width=3.5))
            d.append(group)
    d.append(grid_lines(grid))
    for r, c in ((2, 2), (2, 6), (6, 2), (6, 6)):  # the board's four marker dots
        d.append(draw.Circle(grid.x(c), grid.y(r), 3, fill=INK))
    d.append(text(caption, MARGIN, grid.y(8) + CELL * 0.45, CELL * 0.36, anchor="start"))
    return finish(d)
