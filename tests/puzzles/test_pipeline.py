"""The shared pipeline's promise about levels: a draw that finds no puzzle (its boards ran out) or one graded off
the level is followed by the next draw, the same for the same seed, and only running out of draws fails."""

from __future__ import annotations

import pytest

from generators.pipeline import Generated, GenerationFailed, GenerationStats, generate_at_level
from solvers.common import Deadline
from solvers.techniques.human import Grade


def draws(outcomes: list[str | None]):  # type: ignore[no-untyped-def]
    """A make whose n-th draw fails (None) or makes a puzzle graded ``outcomes[n]``, recording the draw seeds."""
    seeds: list[int] = []

    def make(seed: int, deadline: Deadline) -> Generated:
        seeds.append(seed)
        level = outcomes[len(seeds) - 1]
        if level is None:
            raise GenerationFailed("no board left")
        return Generated(level, seed, GenerationStats())

    return make, seeds


def grade(puzzle: str, deadline: Deadline) -> Grade:
    return Grade(level=puzzle, score=0.0, steps=1, hardest=None)


def test_a_draw_that_finds_no_puzzle_is_followed_by_the_next() -> None:
    make, seeds = draws([None, "easy", None, "medium"])
    made = generate_at_level(make, grade, "medium", 7, Deadline.after(10))
    assert made.puzzle == "medium" and made.solution == seeds[-1] and made.stats.draws == 4
    again, seeds_again = draws([None, "easy", None, "medium"])
    assert generate_at_level(again, grade, "medium", 7, Deadline.after(10)).solution == made.solution
    assert seeds_again == seeds


def test_only_running_out_of_draws_fails() -> None:
    make, seeds = draws([None] * 5)
    with pytest.raises(GenerationFailed, match="in 5 draws"):
        generate_at_level(make, grade, "easy", 1, Deadline.after(10), max_draws=5)
    assert len(seeds) == 5
