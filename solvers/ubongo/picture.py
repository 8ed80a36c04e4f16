"""Ubongo: the board (an irregular shape) with the pieces drawn under it, each in its catalogue
colour and with its name. In mode `hidden` the whole catalogue is shown with how many to use.
The solution colours each placed piece and outlines it."""

from __future__ import annotations

from pictures.grid import (
    CELL,
    INK,
    PIECE_COLOURS,
    Grid,
    canvas,
    cell_background,
    cell_group,
    finish,
    grid_lines,
    piece_cells,
    text,
)
from solvers.ubongo.rules import UbongoAnswer, UbongoPuzzle, catalogue_pieces, parse_rows

MARGIN = 6
PIECE_CELL = CELL * 0.5
MIN_WIDTH = 8 * CELL


def piece_colour(catalogue: str, piece: str) -> str:
    """The same piece always has the same colour, in the tray and in a solution."""
    names = list(catalogue_pieces(catalogue))
    return PIECE_COLOURS[names.index(piece) % len(PIECE_COLOURS)] if piece in names else "#999999"


def render(puzzle: UbongoPuzzle, answer: UbongoAnswer | None = None, play: bool = False) -> str:
    cells = parse_rows(puzzle.shape)
    rows, cols = len(puzzle.shape), len(puzzle.shape[0])
    width = max(cols * CELL, MIN_WIDTH) + 2 * MARGIN
    board = Grid(rows, cols, (width - cols * CELL) / 2, MARGIN)
    shown = list(puzzle.pieces or []) if puzzle.mode == "given" else list(catalogue_pieces(puzzle.catalogue))
    shapes = catalogue_pieces(puzzle.catalogue)
    # Lay the pieces out left to right, wrapping; each takes its bounding box plus a gap.
    layout: list[tuple[str, float, float]] = []
    x, y, line_height = MARGIN, board.y(rows) + CELL * 0.9, 0.0
    for name in shown:
        h = max(r for r, _ in shapes[name]) + 1
        w = max(c for _, c in shapes[name]) + 1
        if x > MARGIN and x + w * PIECE_CELL > width - MARGIN:
            x, y, line_height = MARGIN, y + line_height, 0.0
        layout.append((name, x, y))
        x += (w + 1) * PIECE_CELL
        line_height = max(line_height, (h + 1.2) * PIECE_CELL)
    height = (y + line_height if layout and not play else board.y(rows) + CELL * 0.3) + MARGIN
    caption = (f"Use all {len(shown)} pieces" if puzzle.mode == "given"
               else f"Use any {puzzle.piece_count} of these pieces")
    d = canvas(width, height, f"Ubongo board of {len(cells)} cells; {caption.lower()}")
    placed: dict[tuple[int, int], str] = {}
    if answer is not None:
        for placement in answer.placements:
            for r, c in placement.cells:
                placed[(r, c)] = placement.piece
    for r, c in cells:
        group = cell_group(r, c, play)
        group.append(cell_background(board, r, c, "#f4f1e8"))
        d.append(group)
    d.append(grid_lines(board, cells))
    if answer is not None:
        for placement in answer.placements:
            piece_cell_list = [(r, c) for r, c in placement.cells]
            d.append(piece_cells(board, piece_cell_list, piece_colour(puzzle.catalogue, placement.piece), INK, 3))
    if play:
        return finish(d)
    d.append(text(caption, MARGIN, board.y(rows) + CELL * 0.45, CELL * 0.32, anchor="start"))
    for name, px, py in layout:
        tray = Grid(1, 1, px, py, PIECE_CELL)
        d.append(piece_cells(tray, shapes[name], piece_colour(puzzle.catalogue, name), INK, 1.5))
        h = max(r for r, _ in shapes[name]) + 1
        d.append(text(name, px, py + (h + 0.45) * PIECE_CELL, CELL * 0.24, anchor="start", fill="#444444"))
    return finish(d)
