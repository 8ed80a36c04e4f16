"""Tents: put a tent beside each tree (orthogonally), trees and tents paired one to one; no two tents touch, not
even diagonally; the numbers outside the grid count the tents in their row and column.

The model: counts for a tree's cell, a cell with no tree beside it, each 2×2 block and each numbered line, and the
trees' pairing with their tents (``solvers.kit.matching.Matching``, one per group of trees that share cells).
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, grid_shape_violations
from solvers.grid import neighbours
from solvers.kit.matching import Matching
from solvers.kit.rules import Cells, Count, Model, Rule
from solvers.kit.spaced import Spaced
from solvers.techniques.human import cell_name, cells_named

MAX_SIDE = 30


class TentsPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    trees: list[list[int]] = Field(description="R×C of 1 (a tree) / 0.")
    row_counts: list[int | None] = Field(description="R: the tents in each row, top to bottom; null where not given.")
    col_counts: list[int | None] = Field(description="C: the tents in each column, left to right; null where not "
                                                     "given.")

    @model_validator(mode="after")
    def _fits(self) -> TentsPuzzle:
        problems = [p.message for p in grid_shape_violations(self.trees, self.rows, self.cols, "trees", {0, 1})]
        for name, counts, length, most in (("row_counts", self.row_counts, self.rows, self.cols),
                                           ("col_counts", self.col_counts, self.cols, self.rows)):
            if len(counts) != length or any(n is not None and not 0 <= n <= most for n in counts):
                problems.append(f"`{name}` must have {length} values, each null or 0..{most}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def tree_cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if self.trees[r][c]]


class TentsAnswer(BaseModel):
    tents: list[list[int]] = Field(description="R×C of 1 (a tent) / 0 (grass); 0 on every tree.")


def beside(puzzle: TentsPuzzle, cell: Cell) -> tuple[Cell, ...]:
    """The cells orthogonally beside ``cell`` that hold no tree: where a tree's tent may stand."""
    return tuple(n for n in neighbours(cell, puzzle.rows, puzzle.cols) if not puzzle.trees[n[0]][n[1]])


def groups(spots: dict[Cell, tuple[Cell, ...]]) -> list[list[Cell]]:
    """The trees (each with the cells ``beside`` it) in groups that share a cell where a tent may stand: a
    pairing splits into one per group."""
    parent = {tree: tree for tree in spots}

    def root(tree: Cell) -> Cell:
        while parent[tree] != tree:
            tree = parent[tree]
        return tree

    first: dict[Cell, Cell] = {}
    for tree in parent:
        for cell in spots[tree]:
            parent[root(tree)] = root(first.setdefault(cell, tree))
    found: dict[Cell, list[Cell]] = {}
    for tree in parent:
        found.setdefault(root(tree), []).append(tree)
    return list(found.values())


def _line(puzzle: TentsPuzzle, cells: list[Cell], count: int | None, name: str, number: int,
          hideable: bool) -> list[Rule]:
    """A numbered line's count, read by a person knowing its tents never stand side by side; with ``hideable``
    a clue the generator may hide (as puz.link puzzles may; Tatham's give every count)."""
    if count is None:
        return []
    places = [(i, cell) for i, cell in enumerate(cells) if not puzzle.trees[cell[0]][cell[1]]]
    return [Spaced(tuple(cell for _, cell in places), tuple(i for i, _ in places), count, f"{name}-count",
                   f"{name} {number + 1} has {count} tent{'' if count == 1 else 's'}, never side by side",
                   tuple(cells), clue=(name, number) if hideable else None)]


def model(puzzle: TentsPuzzle, hideable: bool = False) -> Model:
    """The rules as the kit reads them; ``hideable``: the counts are clues the generator may hide."""
    rows, cols = puzzle.rows, puzzle.cols
    rules: list[Rule] = []
    spots = {tree: beside(puzzle, tree) for tree in puzzle.tree_cells()}
    near_tree = {cell for cells in spots.values() for cell in cells}
    for r in range(rows):
        for c in range(cols):
            if puzzle.trees[r][c]:
                rules.append(Count(((r, c),), 0, 0, "tent-on-tree", f"{cell_name((r, c))} is a tree", given=True))
            elif (r, c) not in near_tree:
                rules.append(Count(((r, c),), 0, 0, "tent-without-tree", f"{cell_name((r, c))} has no tree beside it"))
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = tuple(cell for cell in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                          if not puzzle.trees[cell[0]][cell[1]])
            if len(block) > 1:
                rules.append(Count(block, 0, 1, "tents-touch", f"{cells_named(block)} touch (one tent at most)"))
    for r in range(rows):
        rules += _line(puzzle, [(r, c) for c in range(cols)], puzzle.row_counts[r], "row", r, hideable)
    for c in range(cols):
        rules += _line(puzzle, [(r, c) for r in range(rows)], puzzle.col_counts[c], "column", c, hideable)
    for trees in groups(spots):
        rules.append(Matching(tuple((tree, spots[tree]) for tree in trees), "tree-tent-pairs",
                              f"the {len(trees)} trees from {cell_name(trees[0])} to {cell_name(trees[-1])} each pair "
                              "with a tent of their own beside them" if len(trees) > 1 else
                              f"the tree at {cell_name(trees[0])} has one tent beside it, its own",
                              ("tree", "tent")))
    return Model(Cells("tents", rows, cols, "a tent", "grass"), tuple(rules))
