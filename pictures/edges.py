"""An edge of the grid between two dots, as the play page's edges widget (app/static/play-edges.js) takes it:
a ``<g data-edge="field,r,c">`` whose hit area is the diamond between its two dots and the centres of the cells
beside it, holding a line and a cross the page shows by the edge's state. Out of play mode, the line alone where
the answer has it."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import Grid

LINE, CROSS = "#1f4e9c", "#c1121f"


def edge(grid: Grid, key: str, a: tuple[int, int], b: tuple[int, int], play: bool, on: bool, label: str,
         colour: str = LINE, width: float = 0.12) -> draw.Group:
    """The edge ``key`` (the answer's field and index) from dot ``a`` to dot ``b`` (row, column of the dots);
    ``width`` is the line's, as a share of a cell."""
    (x0, y0), (x1, y1) = (grid.x(a[1]), grid.y(a[0])), (grid.x(b[1]), grid.y(b[0]))
    group = draw.Group(class_="edge", data_edge=key, tabindex="-1", role="button",
                       aria_label=label) if play else draw.Group()
    if play:
        half = grid.size / 2
        dx, dy = (0, half) if y0 == y1 else (half, 0)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        group.append(draw.Lines(x0, y0, mx + dx, my + dy, x1, y1, mx - dx, my - dy, close=True, fill="#fff",
                                fill_opacity=0, class_="hit"))
        arm = grid.size * 0.12
        group.append(draw.Path(stroke=CROSS, stroke_width=2.5, class_="e-cross").M(mx - arm, my - arm)
                     .L(mx + arm, my + arm).M(mx - arm, my + arm).L(mx + arm, my - arm))
    if play or on:
        group.append(draw.Line(x0, y0, x1, y1, stroke=colour, stroke_width=grid.size * width, stroke_linecap="round",
                               class_="e-line" if play else None))
    return group
