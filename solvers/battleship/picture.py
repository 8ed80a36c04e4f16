"""Battleship: counts outside the grid (columns on top, rows on the left), revealed cells and solved
ships as the usual segment shapes (rounded ends, square middles, round submarines), water as waves,
and the fleet drawn under the grid."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.battleship.rules import BattleshipAnswer, BattleshipPuzzle, segment_kind

MARGIN = 6
SHIP = "#1f3a5f"
WATER = "#d8ebf7"
WAVE = "#3b7fb6"
FLEET_CELL = CELL * 0.5
SEGMENTS = ("sub", "top", "bottom", "left", "right", "middle")


def segment(x: float, y: float, s: float, kind: str, fill: str = SHIP, **attrs: object) -> draw.DrawingElement:
    """One ship segment in the square at (x, y) of side s: `kind` names its free (rounded) end."""
    i = 0.14 * s
    rad = s / 2 - i
    cx, cy = x + s / 2, y + s / 2
    if kind == "sub":
        return draw.Circle(cx, cy, rad, fill=fill, **attrs)
    if kind == "middle":
        return draw.Rectangle(x + i, y + i, s - 2 * i, s - 2 * i, fill=fill, **attrs)
    p = draw.Path(fill=fill, **attrs)
    if kind == "top":
        p.M(x + i, y + s - i).L(x + i, cy).A(rad, rad, 0, 0, 1, x + s - i, cy).L(x + s - i, y + s - i).Z()
    elif kind == "bottom":
        p.M(x + s - i, y + i).L(x + s - i, cy).A(rad, rad, 0, 0, 1, x + i, cy).L(x + i, y + i).Z()
    elif kind == "left":
        p.M(x + s - i, y + i).L(cx, y + i).A(rad, rad, 0, 0, 0, cx, y + s - i).L(x + s - i, y + s - i).Z()
    else:  # right
        p.M(x + i, y + i).L(cx, y + i).A(rad, rad, 0, 0, 1, cx, y + s - i).L(x + i, y + s - i).Z()
    return p


def waves(x: float, y: float, s: float, **attrs: object) -> draw.Path:
    """Two short waves: water that is known, drawn so it also reads on a black-and-white print."""
    p = draw.Path(fill="none", stroke=WAVE, stroke_width=s * 0.06, stroke_linecap="round", **attrs)
    for level in (0.4, 0.62):
        yy = y + s * level
        p.M(x + s * 0.22, yy).Q(x + s * 0.36, yy - s * 0.1, x + s * 0.5, yy).Q(x + s * 0.64, yy + s * 0.1, x + s * 0.78, yy)
    return p


def fleet_rows(fleet: list[int], width: float) -> list[list[int]]:
    """Ships longest first, wrapped into lines that fit the picture's width."""
    lines: list[list[int]] = [[]]
    used = 0.0
    for length in sorted(fleet, reverse=True):
        need = (length + 0.6) * FLEET_CELL
        if lines[-1] and used + need > width:
            lines.append([])
            used = 0.0
        lines[-1].append(length)
        used += need
    return lines


def ship_shapes(x: float, y: float, length: int, s: float) -> list[draw.DrawingElement]:
    if length == 1:
        return [segment(x, y, s, "sub")]
    kinds = ["left", *["middle"] * (length - 2), "right"]
    return [segment(x + k * s, y, s, kind) for k, kind in enumerate(kinds)]


def render(puzzle: BattleshipPuzzle, answer: BattleshipAnswer | None = None, play: bool = False) -> str:
    rows, cols = puzzle.rows, puzzle.cols
    grid = Grid(rows, cols, MARGIN + CELL, MARGIN + CELL)
    width = grid.x(cols) + MARGIN
    lines = fleet_rows(puzzle.fleet, width - 2 * MARGIN)
    fleet_top = grid.y(rows) + CELL * 0.5
    height = fleet_top + CELL * 0.45 + len(lines) * FLEET_CELL * 1.4 + MARGIN
    d = canvas(width, height, f"Battleship {rows}×{cols}, fleet {', '.join(map(str, sorted(puzzle.fleet, reverse=True)))}")
    revealed = {tuple(item.cell): item.kind for item in puzzle.revealed}
    ship_defs = {kind: segment(0, 0, CELL, kind, fill="#4d7ea8", id=f"ship-{kind}") for kind in SEGMENTS}
    if play:  # one definition per segment kind; each cell's <use> points at one
        for shape in ship_defs.values():
            d.append_def(shape)
    font = CELL * 0.5
    for r in range(rows):
        for c in range(cols):
            given = revealed.get((r, c))
            group = cell_group(r, c, play, given=given is not None)
            group.append(cell_background(grid, r, c, WATER if given == "water" else "white"))
            x, y = grid.x(c), grid.y(r)
            if play and given is None:  # filled = ship (the page points it at the segment its neighbours make)
                group.append(draw.Use(ship_defs["middle"], x, y, class_="m-fill m-ship"))
                group.append(draw.Circle(x + CELL / 2, y + CELL / 2, CELL * 0.1, fill=WAVE, class_="m-empty"))
            kind = given
            if answer is not None and given is None:
                kind = segment_kind(answer.ships, r, c) if answer.ships[r][c] else None
                kind = kind or ("middle" if answer.ships[r][c] else None)
            if kind == "water" and given == "water":
                group.append(waves(x, y, CELL))
            elif kind is not None and kind != "water":
                group.append(segment(x, y, CELL, kind, fill=SHIP if given else "#4d7ea8"))
            d.append(group)
    for c, count in enumerate(puzzle.col_counts):
        if count is not None:
            d.append(text(count, grid.x(c + 0.5), grid.y(-0.5), font, font_weight="bold"))
    for r, count in enumerate(puzzle.row_counts):
        if count is not None:
            d.append(text(count, grid.x(-0.5), grid.y(r + 0.5), font, font_weight="bold"))
    d.append(grid_lines(grid))
    d.append(text("Fleet", MARGIN, fleet_top, CELL * 0.32, anchor="start", fill=INK))
    y = fleet_top + CELL * 0.3
    for line in lines:
        x = MARGIN
        for length in line:
            for shape in ship_shapes(x, y, length, FLEET_CELL):
                d.append(shape)
            x += (length + 0.6) * FLEET_CELL
        y += FLEET_CELL * 1.4
    return finish(d)
