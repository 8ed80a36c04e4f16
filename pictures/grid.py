"""What every picture shares: a grid of square cells placed on a canvas, text that is real `<text>`,
the palettes, and the per-cell groups the play page hooks into.

Pictures are drawn in user units (one cell = ``CELL``) with a ``viewBox``, so they scale to any width:
a phone shows them at ~32 px a cell, print at any resolution. Text is centred with an explicit
baseline offset rather than ``dominant-baseline``, which PDF converters (svglib) ignore.

In play mode (``play=True``) every cell is a ``<g data-cell="r,c">`` holding its background, its
marks (hidden until the page's stylesheet shows them for the cell's state) and its text, so the page
changes a cell by setting a class, never by redrawing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import drawsvg as draw

CELL = 40
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
INK = "#1a1a1a"
GRID_LINE = "#555555"
SHADE = "#2b2b2b"
# Paul Tol's "light" scheme: colour-blind safe and light enough for black text on top.
REGION_TINTS = ["#77AADD", "#EEDD88", "#44BB99", "#FFAABB", "#99DDFF", "#BBCC33", "#EE8866", "#AAAA00", "#DDDDDD"]
# Solid piece colours, all distinct side by side (Paul Tol's bright and muted schemes, Okabe-Ito orange).
PIECE_COLOURS = ["#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB", "#E69F00", "#999933",
                 "#882255", "#D55E00", "#44AA99"]


@dataclass(frozen=True)
class Grid:
    """Rows × cols cells of ``size`` units whose top-left corner is at (left, top) on the canvas."""

    rows: int
    cols: int
    left: float = 0.0
    top: float = 0.0
    size: float = CELL

    def x(self, c: float) -> float:
        return self.left + c * self.size

    def y(self, r: float) -> float:
        return self.top + r * self.size

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return self.x(c + 0.5), self.y(r + 0.5)

    @property
    def width(self) -> float:
        return self.cols * self.size

    @property
    def height(self) -> float:
        return self.rows * self.size


def canvas(width: float, height: float, label: str, looks: tuple[str, ...] = ()) -> draw.Drawing:
    """A white canvas whose viewBox is its size: it scales to whatever width the page gives it. ``looks`` name
    how the play page shows the player's marks on this board (app/static/play.css: ``white-text-when-filled``,
    ``grey-text-when-empty``, ``green-when-filled``)."""
    extra = {"data_looks": " ".join(looks)} if looks else {}
    d = draw.Drawing(width, height, role="img", aria_label=label, font_family=FONT, **extra)
    d.append(draw.Title(label))
    d.append(draw.Rectangle(0, 0, width, height, fill="white"))
    return d


def text(value: object, x: float, y: float, size: float, *, anchor: str = "middle", **attrs: object) -> draw.Text:
    """Text centred vertically on ``y`` (the baseline sits ~0.36 em below the centre)."""
    attrs.setdefault("fill", INK)
    return draw.Text(str(value), size, x, y + 0.36 * size, text_anchor=anchor, **attrs)


def cell_group(r: int, c: int, play: bool, *, given: bool = False, label: str | None = None,
               value: int | None = None) -> draw.Group:
    """The group of one cell; in play mode it carries the page's hooks. ``value``: the answer's value the puzzle
    gives this cell (a wall holds no light), which the play page then fixes."""
    if not play:
        return draw.Group()
    classes = "cell given" if given or value is not None else "cell"
    hooks = {} if value is None else {"data_given": str(value)}
    return draw.Group(class_=classes, data_cell=f"{r},{c}", tabindex="-1", role="button",
                      aria_label=label or f"row {r + 1}, column {c + 1}", **hooks)


def cell_background(grid: Grid, r: int, c: int, fill: str = "white") -> draw.Rectangle:
    return draw.Rectangle(grid.x(c), grid.y(r), grid.size, grid.size, fill=fill, class_="bg")


SOLVED_INK = "#1f5fbf"  # the digits a solution adds: blue, and regular weight where the givens are bold


def digit_cell(grid: Grid, r: int, c: int, play: bool, font: float, given: int | None = None,
               solved: int | None = None, lower: float = 0.0) -> draw.Group:
    """One cell of a board of digits: its given in bold, else the solution's digit in blue, else (play) the empty
    ``<text class="entry">`` the digits widget types into; ``lower`` moves the digit down (room for a clue above)."""
    group = cell_group(r, c, play, given=given is not None)
    group.append(cell_background(grid, r, c))
    x, y = grid.centre(r, c)
    if given is not None:
        group.append(text(given, x, y + lower, font, font_weight="bold", class_="given-digit"))
    elif solved is not None:
        group.append(text(solved, x, y + lower, font, fill=SOLVED_INK, class_="solved-digit"))
    elif play:
        group.append(text("", x, y + lower, font, fill=SOLVED_INK, class_="entry"))
    return group


def grid_lines(grid: Grid, cells: Iterable[tuple[int, int]] | None = None, outer: float = 3.0) -> draw.Group:
    """Thin lines around each cell (all cells, or only ``cells`` for an irregular shape) and a thick
    outline around the whole: around the rectangle, or along every outer edge of the shape."""
    lines = draw.Group(fill="none", stroke_linecap="square", class_="lines")
    if cells is None:
        for r in range(grid.rows + 1):
            lines.append(draw.Line(grid.x(0), grid.y(r), grid.x(grid.cols), grid.y(r), stroke=GRID_LINE, stroke_width=1))
        for c in range(grid.cols + 1):
            lines.append(draw.Line(grid.x(c), grid.y(0), grid.x(c), grid.y(grid.rows), stroke=GRID_LINE, stroke_width=1))
        lines.append(draw.Rectangle(grid.x(0), grid.y(0), grid.width, grid.height, stroke=INK, stroke_width=outer))
        return lines
    inside = set(cells)
    for r, c in sorted(inside):
        lines.append(draw.Rectangle(grid.x(c), grid.y(r), grid.size, grid.size, stroke=GRID_LINE, stroke_width=1))
    lines.append(borders(grid, inside, lambda a, b: (a in inside) != (b in inside), INK, outer))
    return lines


def borders(grid: Grid, cells: Iterable[tuple[int, int]], differ: object, colour: str, width: float) -> draw.Path:
    """One path along every side of ``cells`` where ``differ(cell, neighbour)`` holds: region and
    piece outlines, and the outline of an irregular board."""
    path = draw.Path(stroke=colour, stroke_width=width, fill="none", stroke_linecap="round")
    for r, c in cells:
        for (dr, dc), (x0, y0, x1, y1) in (
            ((-1, 0), (c, r, c + 1, r)), ((1, 0), (c, r + 1, c + 1, r + 1)),
            ((0, -1), (c, r, c, r + 1)), ((0, 1), (c + 1, r, c + 1, r + 1)),
        ):
            if differ((r, c), (r + dr, c + dc)):  # type: ignore[operator]
                path.M(grid.x(x0), grid.y(y0)).L(grid.x(x1), grid.y(y1))
    return path


def piece_cells(grid: Grid, cells: Iterable[tuple[int, int]], fill: str, outline: str = INK,
                width: float = 2.5) -> draw.Group:
    """A polyomino as filled squares with an outline around the whole piece only."""
    inside = set(cells)
    group = draw.Group()
    for r, c in sorted(inside):
        group.append(draw.Rectangle(grid.x(c), grid.y(r), grid.size, grid.size, fill=fill, stroke=fill, stroke_width=0.5))
    group.append(borders(grid, inside, lambda a, b: (a in inside) != (b in inside), outline, width))
    return group


def finish(d: draw.Drawing) -> str:
    return d.as_svg()
