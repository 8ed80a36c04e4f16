"""KenKen: fill the N×N grid with digits 1..N, each once in every row and column; the digits of each cage (a
group of cells outlined in bold) combine to its target with its operation: + sums them, × multiplies them, −
and ÷ take two cells, the larger minus or divided by the smaller. A one-cell cage gives its digit.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import lru_cache
from math import prod
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from solvers.kit.latin import latin_rules
from solvers.kit.rules import Digits, Model, Rule
from solvers.kit.tuples import Tuples
from solvers.techniques.human import cells_named

MAX_SIDE = 9
Op = Literal["+", "-", "*", "/"]
FILLINGS_KEPT = 4096  # cages' fillings remembered, by operation, target, size and shape of clashes
SIGN = {"+": "+", "-": "−", "*": "×", "/": "÷", None: ""}


class Cage(BaseModel):
    cells: list[tuple[int, int]] = Field(min_length=1, description="The cage's cells, [row, column] from 0.")
    target: int = Field(ge=1, description="What the cage's digits make with its operation (a one-cell cage: its digit).")
    op: Op | None = Field(None, description="+, -, * or /; null for a one-cell cage. - and / take two cells.")

    @model_validator(mode="after")
    def _fit(self) -> Cage:
        if self.op is None and len(self.cells) != 1:
            raise ValueError(f"a cage of {len(self.cells)} cells needs an operation")
        if self.op in ("-", "/") and len(self.cells) != 2:
            raise ValueError(f"a {self.op} cage has two cells, not {len(self.cells)}")
        return self

    def label(self) -> str:
        """The cage's clue as printed: "12×", "3"."""
        return f"{self.target}{SIGN[self.op]}"


class KenkenPuzzle(BaseModel):
    size: int = Field(ge=1, le=MAX_SIDE, description="N: the grid is N×N, digits 1..N.")
    cages: list[Cage] = Field(description="The cages; every cell in exactly one.")

    @model_validator(mode="after")
    def _cover(self) -> KenkenPuzzle:
        n = self.size
        seen = [cell for cage in self.cages for cell in cage.cells]
        outside = [cell for cell in seen if not (0 <= cell[0] < n and 0 <= cell[1] < n)]
        if outside:
            raise ValueError(f"cells {outside[:4]} are outside the {n}×{n} grid")
        twice = sorted({cell for cell in seen if seen.count(cell) > 1})
        missing = sorted(set(itertools.product(range(n), repeat=2)) - set(seen))
        if twice or missing:
            raise ValueError("every cell must be in exactly one cage: "
                             + "; ".join(f"{what} {cells}" for what, cells in (("in two cages:", twice[:4]),
                                                                               ("in none:", missing[:4])) if cells))
        return self


class KenkenAnswer(BaseModel):
    digits: list[list[int]] = Field(description="N×N digits 1..N.")


def makes(op: str | None, digits: tuple[int, ...], target: int) -> bool:
    """Whether ``digits`` make ``target`` with ``op`` (− and ÷ in either order)."""
    if op is None:
        return digits == (target,)
    if op == "+":
        return sum(digits) == target
    if op == "*":
        return prod(digits) == target
    high, low = max(digits), min(digits)
    return high - low == target if op == "-" else high == low * target


def fillings(cage: Cage, n: int) -> tuple[tuple[int, ...], ...]:
    """Every way to fill the cage with digits 1..N that makes its target, no digit twice in a row or column of it."""
    cells = cage.cells
    clash = tuple(tuple(j for j in range(i) if cells[j][0] == cells[i][0] or cells[j][1] == cells[i][1])
                  for i in range(len(cells)))
    return _fillings(cage.op, cage.target, n, clash)


@lru_cache(maxsize=FILLINGS_KEPT)
def _fillings(op: str | None, target: int, n: int, clash: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The fillings of a cage whose cell ``i`` shares a row or column with the cells ``clash[i]``: cages of one
    operation, target and shape of clashes share them, as a generator's drafts do; sums and products pruned as
    they grow."""

    def extend(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        i = len(prefix)
        if i == len(clash):
            if makes(op, prefix, target):
                yield prefix
            return
        left = len(clash) - i - 1
        for d in range(1, n + 1):
            if any(prefix[j] == d for j in clash[i]):
                continue
            if op == "+" and sum(prefix) + d + left > target:
                break
            if op == "*" and target % (prod(prefix) * d):
                continue
            yield from extend((*prefix, d))

    return tuple(extend(()))


def model(puzzle: KenkenPuzzle, alternatives: Sequence[Cage] = ()) -> Model:
    """A Latin square as counts over one-hot keys, and each cage a tuple rule (``solvers.kit.tuples``) over its
    fillings. A cage alone reads its cells by the digits placed in them, as Keen's Easy does; what its cells may
    still hold is the filling analysis, a technique of its own. With ``alternatives`` (cages a generator might
    show instead of some of the puzzle's), every cage is a clue, the puzzle's ``k``-th clue ``k`` and the
    ``i``-th alternative clue ``len(cages) + i``, so the kit's prover tells which of them together keep one
    answer."""
    n = puzzle.size
    cells, units = latin_rules(n, "one-digit", "digit")
    rules: list[Rule] = [*cells, *units]
    for k, cage in enumerate([*puzzle.cages, *alternatives]):
        group = tuple(cage.cells)
        says = (f"{cells_named(group)} is {cage.target}" if cage.op is None else
                f"the cage {cage.label()} at {cells_named(group)} makes {cage.target} with {SIGN[cage.op]}")
        rules.append(Tuples(group, n, fillings(cage, n), "cage", says, clue=k if alternatives else None,
                            placed_only=True))
    return Model(Digits("digits", n, n, n), tuple(rules))
