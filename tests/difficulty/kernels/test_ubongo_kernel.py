"""The compiled Ubongo grader against the Python human model it replaces in generation: the same
placements in the same order, the same live placements under every filter in every state of the solution
path, and the same grade (level, score, steps, hardest technique) up to every level, on a fixed sample of
published and generated cards in both modes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from generators import ubongo as gen
from solvers.common import Deadline
from solvers.ubongo import kernel, rules
from solvers.ubongo import techniques as human

NEVER = Deadline.never()
GOLDEN = Path(__file__).parents[2] / "data" / "golden" / "ubongo.jsonl"
FILTERS = {"fit": kernel.FIT, "region": kernel.REGION, "parity": kernel.PARITY}


def sample() -> list[rules.UbongoPuzzle]:
    """The golden file's cards (published boards and generated ones at every level) and unique draws of
    every size and mode."""
    cards = [rules.UbongoPuzzle(**json.loads(line)["puzzle"]) for line in GOLDEN.read_text().splitlines()]
    for pieces in (3, 4, 5):
        for mode in ("given", "hidden"):
            params = gen.UbongoParams(pieces=pieces, mode=mode)
            cards += [gen.generate_unique(params, seed, NEVER).puzzle for seed in range(3)]
    return cards


CARDS = sample()


def python_grade_within(puzzle: rules.UbongoPuzzle, level: str) -> human.Grade | None:
    """``grade_within`` as it was before it ran compiled."""
    path = human.SOLVER.run(human.board_of(puzzle, NEVER), upto=human.LEVELS.index(level), deadline=NEVER)
    return human.SOLVER.grade_path(path) if path.state.solved else None


@pytest.mark.parametrize("puzzle", CARDS, ids=[f"{p.mode}-{p.piece_count}-{i}" for i, p in enumerate(CARDS)])
def test_the_compiled_grade_is_the_python_grade_at_every_level(puzzle: rules.UbongoPuzzle) -> None:
    for level in human.LEVELS:
        assert human.grade_within(puzzle, level, NEVER) == python_grade_within(puzzle, level), level


@pytest.mark.parametrize("puzzle", CARDS[::3], ids=[f"{p.mode}-{p.piece_count}-{i}" for i, p in enumerate(CARDS[::3])])
def test_live_placements_agree_in_every_state_of_the_path(puzzle: rules.UbongoPuzzle) -> None:
    board = human.board_of(puzzle, NEVER)
    compiled = human.kernel_board(puzzle)
    ordered = sorted(board.problem.cells)
    bit_of = {r * rules.GRID + c: i for i, (r, c) in enumerate(ordered)}

    def compiled_mask(mask: int) -> int:
        return sum(1 << bit_of[b] for b in human.bits_of(mask))

    masks = [int(m) for m in compiled.placements.mask]
    assert [(k, compiled_mask(mask)) for k, mask in board.placements] == list(zip(compiled.placements.piece.tolist(),
                                                                                 masks, strict=True))
    scratch = kernel.make_scratch(len(masks), len(ordered), len(board.names), compiled.pieces.counting.count)
    out = np.zeros(max(len(masks), 1), np.int64)
    path = human.SOLVER.run(board)
    state = human.start(board)
    for step in [None, *path.steps]:
        if step is not None:
            state.apply(step)
        for name, strength in FILTERS.items():
            n = kernel.live(compiled, scratch, np.uint64(compiled_mask(state.covered)), state.used, strength, out)
            assert out[:n].tolist() == human.live(board, state, name), (name, state.placed)
