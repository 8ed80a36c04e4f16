"""The kit's levels for Star Battle on bit masks: the same deductions as ``solvers.kit.arrays`` (the rules alone
round by round, short trials, trials followed to the end) for the generator's walk over region maps, which
asks them thousands of times. A map is an int per row, column and region; a cell ``(r, c)`` is bit
``r * (N + 1) + c``, the spare column keeping a shift off the next row.
"""

from __future__ import annotations

import math

from solvers.kit.human import SHORT_ROUNDS


class Masks:
    """One map's units (rows, columns, regions, each with ``stars`` stars) as bit masks."""

    def __init__(self, regions: list[list[int]], stars: int):
        n = len(regions)
        self.n, self.k, self.width = n, stars, n + 1
        self.bit = [[1 << (r * self.width + c) for c in range(n)] for r in range(n)]
        self.board = sum(sum(row) for row in self.bit)
        units: dict[object, int] = {}
        for r in range(n):
            for c in range(n):
                for unit in (("row", r), ("column", c), ("region", regions[r][c])):
                    units[unit] = units.get(unit, 0) | self.bit[r][c]
        self.units = list(units.values())

    def around(self, mask: int) -> int:
        """The cells touching ``mask``'s cells, diagonals included."""
        w = self.width
        out = 0
        for shift in (1, w - 1, w, w + 1):
            out |= (mask << shift) | (mask >> shift)
        return out & self.board

    def round(self, star: int, empty: int, changed: int) -> tuple[int, int] | None:
        """One round of the rules beside the cells ``changed`` last round (every other rule is as it was, with
        nothing to decide, as in the kit's ``follow``): the new (star, empty), None when a rule breaks or two
        rules decide a cell both ways."""
        k, new = self.k, self.around(star & changed)
        if new & star:
            return None
        open_ = self.board & ~star & ~empty
        to_empty, to_star = new & open_, 0
        for unit in self.units:
            if not unit & changed:
                continue
            ones, free = (unit & star).bit_count(), unit & open_
            left = free.bit_count()
            if ones > k or ones + left < k:
                return None
            if left and ones == k:
                to_empty |= free
            elif left and ones + left == k:
                to_star |= free
        if to_star & to_empty:
            return None
        return star | to_star, empty | to_empty

    def follow(self, star: int, empty: int, changed: int, rounds: int | None = None) -> tuple[int, int] | None:
        """Rounds from the cells ``changed`` until nothing changes (or ``rounds`` of them); None when a rule
        breaks."""
        done = 0
        while changed and (rounds is None or done < rounds):
            done += 1
            after = self.round(star, empty, changed)
            if after is None:
                return None
            changed = (after[0] ^ star) | (after[1] ^ empty)
            star, empty = after
        return star, empty

    def trials(self, star: int, empty: int, rounds: int | None) -> tuple[int, int] | None:
        """Each open cell assumed a star, then empty, and followed ``rounds`` rounds: a broken rule decides it the
        other way and the rules go on (as the kit's ``trials``); None when the rules then break."""
        progress = True
        while progress and (star | empty) != self.board:
            progress = False
            for bit in (b for row in self.bit for b in row):
                for value in (1, 0):
                    if (star | empty) & bit:
                        break
                    tried = self.follow(star | bit, empty, bit, rounds) if value else \
                        self.follow(star, empty | bit, bit, rounds)
                    if tried is None:
                        after = self.follow(star, empty | bit, bit) if value else self.follow(star | bit, empty, bit)
                        if after is None:
                            return None
                        star, empty, progress = *after, True
        return star, empty

    def solve(self, level: int) -> tuple[int, int] | None:
        """(stars, empty cells) the levels up to ``level`` (0 the rules alone, 1 short trials, 2 trials) decide;
        None when the rules break (a map with no answer)."""
        state = self.follow(0, 0, self.board)
        for rounds in (SHORT_ROUNDS, None)[:level]:
            if state is not None and (state[0] | state[1]) != self.board:
                state = self.trials(*state, rounds)
        return state

    def score(self, level: int) -> tuple[int, float, list[tuple[int, int]]]:
        """How near the level is to solving the map: the cells it decides, then how few ways each row, column
        and region has left to hold its stars (fewer is nearer); and the cells it leaves open."""
        state = self.solve(level)
        if state is None:
            return -1, 0.0, []
        open_ = self.board & ~(state[0] | state[1])
        return ((self.board & ~open_).bit_count(), -sum(math.log((unit & open_).bit_count() + 1) for unit in self.units),
                [(r, c) for r, row in enumerate(self.bit) for c, bit in enumerate(row) if open_ & bit])
