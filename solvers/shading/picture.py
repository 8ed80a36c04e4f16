"""A shading genre's picture: a square of numbers; the solution shades cells black (numbers stay readable in
white). Each genre's ``picture.render`` names itself and passes its numbers."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, SHADE, Grid, canvas, cell_background, cell_group, finish, grid_lines, text

MARGIN = 6


def render(title: str, numbers: list[list[int]], shaded: list[list[int]] | None, play: bool) -> str:
    n = len(numbers)
    grid = Grid(n, n, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"{title} {n}×{n}", ("white-text-when-filled",))
    font = CELL * 0.55 if n < 10 else CELL * 0.48
    for r in range(n):
        for c in range(n):
            dark = shaded is not None and shaded[r][c] == 1
            group = cell_group(r, c, play)
            group.append(cell_background(grid, r, c, SHADE if dark else "white"))
            x, y = grid.centre(r, c)
            if play:  # filled = shaded, empty = marked as staying white (a ring)
                group.append(draw.Rectangle(grid.x(c), grid.y(r), CELL, CELL, fill=SHADE, class_="m-fill"))
                group.append(draw.Circle(x, y, CELL * 0.4, fill="none", stroke="#2a7f62", stroke_width=2.5,
                                         class_="m-empty"))
            group.append(text(numbers[r][c], x, y, font, fill="white" if dark else None))
            d.append(group)
    d.append(grid_lines(grid))
    return finish(d)
