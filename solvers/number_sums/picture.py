"""Number Sums: digits in a grid, column targets on top and row targets on the left (as the article's
CSV), optional regions as colour-blind-safe tints plus thick outlines (so they also read in grey),
each region's target in its first cell's corner. The solution circles the kept digits and greys
the others."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, REGION_TINTS, Grid, borders, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.number_sums.rules import NumberSumsAnswer, NumberSumsPuzzle

MARGIN = 6
TARGET_BG = "#e6e6e6"
KEPT = "#b5003c"


def region_colours(regions: list[list[int | None]]) -> dict[int, str]:
    """A tint per region, neighbouring regions never alike (greedy colouring in id order)."""
    rows, cols = len(regions), len(regions[0])
    touching: dict[int, set[int]] = {}
    for r in range(rows):
        for c in range(cols):
            a = regions[r][c]
            if a is None:
                continue
            touching.setdefault(a, set())
            for rr, cc in ((r + 1, c), (r, c + 1)):
                b = regions[rr][cc] if rr < rows and cc < cols else None
                if b is not None and b != a:
                    touching[a].add(b)
                    touching.setdefault(b, set()).add(a)
    colours: dict[int, int] = {}
    for region in sorted(touching):
        taken = {colours[other] for other in touching[region] if other in colours}
        colours[region] = next((i for i in range(len(REGION_TINTS)) if i not in taken), region % len(REGION_TINTS))
    return {region: REGION_TINTS[i] for region, i in colours.items()}


def render(puzzle: NumberSumsPuzzle, answer: NumberSumsAnswer | None = None, play: bool = False) -> str:
    rows, cols = puzzle.shape
    grid = Grid(rows, cols, MARGIN + CELL, MARGIN + CELL)
    d = canvas(grid.x(cols) + MARGIN, grid.y(rows) + MARGIN, f"Number Sums {rows}×{cols}", ("grey-text-when-empty",))
    regions = puzzle.regions
    tints = region_colours(regions) if regions else {}
    for c, target in enumerate(puzzle.col_sums):
        d.append(draw.Rectangle(grid.x(c), grid.y(-1), CELL, CELL, fill=TARGET_BG, stroke="#888", stroke_width=1))
        d.append(text(target, grid.x(c + 0.5), grid.y(-0.5), CELL * 0.42, font_weight="bold"))
    for r, target in enumerate(puzzle.row_sums):
        d.append(draw.Rectangle(grid.x(-1), grid.y(r), CELL, CELL, fill=TARGET_BG, stroke="#888", stroke_width=1))
        d.append(text(target, grid.x(-0.5), grid.y(r + 0.5), CELL * 0.42, font_weight="bold"))
    labelled: set[int] = set()
    for r in range(rows):
        for c in range(cols):
            region = regions[r][c] if regions else None
            group = cell_group(r, c, play)
            group.append(cell_background(grid, r, c, tints.get(region, "white") if region is not None else "white"))
            x, y = grid.centre(r, c)
            if play:  # filled = kept (circled), empty = crossed out
                group.append(draw.Circle(x, y + CELL * 0.04, CELL * 0.34, fill="none", stroke=KEPT, stroke_width=3,
                                         class_="m-fill"))
                group.append(draw.Line(grid.x(c + 0.22), grid.y(r + 0.78), grid.x(c + 0.78), grid.y(r + 0.22),
                                       stroke="#666", stroke_width=2.5, class_="m-empty"))
            kept = answer is not None and answer.selected[r][c] == 1
            dropped = answer is not None and not kept
            if kept:
                group.append(draw.Circle(x, y + CELL * 0.04, CELL * 0.34, fill="none", stroke=KEPT, stroke_width=3))
            group.append(text(puzzle.numbers[r][c], x, y + CELL * 0.04, CELL * 0.5, fill="#aaaaaa" if dropped else INK))
            if region is not None and region not in labelled and puzzle.region_sums is not None:
                labelled.add(region)
                group.append(text(puzzle.region_sums[region], grid.x(c) + 3, grid.y(r) + CELL * 0.17, CELL * 0.26,
                                  anchor="start", font_weight="bold"))
            d.append(group)
    d.append(grid_lines(grid))
    if regions:
        def differ(a: tuple[int, int], b: tuple[int, int]) -> bool:
            inside = 0 <= b[0] < rows and 0 <= b[1] < cols
            return regions[a[0]][a[1]] is not None and (not inside or regions[b[0]][b[1]] != regions[a[0]][a[1]])

        d.append(borders(grid, [(r, c) for r in range(rows) for c in range(cols)], differ, INK, 2.5))
    return finish(d)
