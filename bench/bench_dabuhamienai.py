"""Dabuhamienai generation time per size and per difficulty level
(`python -m bench.bench_dabuhamienai [sizes] [--seeds N] [--backend B] [--levels easy,medium,hard]`).

Each puzzle is generated in this process on one core; the uniqueness of every puzzle is re-proven
afterwards with a fresh model (not timed; `cpu` lines give this process's CPU time, the fair figure
on a shared machine) so a fast wrong generator cannot look good, and its level
is checked by Tatham's rule (solved at its level, not at the one below). Per level it prints the
work done (draws, adjustments) and the effort figures that order the levels: the score (technique
weights times look-ahead depth, summed over the solution path) per cell, the longest look-ahead
and the share of cells decided by basic steps. Then the time to grade and to give a hint.
`--backend z3` runs the same model on z3, which is how the default backend was chosen.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.stats import summary
from generators.dabuhamienai import DabuhamienaiParams, generate_puzzle
from solvers import dabuhamienai as rules
from solvers.common import Deadline
from solvers.sat import BACKENDS
from solvers.techniques import dabuhamienai as human
from solvers.techniques.human import GridState, grid_hint


def effort(puzzle: rules.DabuhamienaiPuzzle) -> tuple[float, float, float]:
    """(score per cell, longest look-ahead in rounds, share of cells decided by basic steps)."""
    board = human.board_of(puzzle)
    path = human.SOLVER.run(board)
    basic = {t.name for t in human.BASIC}
    cells = puzzle.size ** 2
    by_basic = sum(len(s.decide) for s in path.steps if s.technique in basic)
    deepest = max((s.effort for s in path.steps if s.technique not in basic), default=0)
    weights = {t.name: t.weight for _, t in human.SOLVER.techniques()}
    return sum(weights[s.technique] * s.effort for s in path.steps) / cells, deepest, by_basic / cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[6, 8, 10, 15])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--backend", choices=BACKENDS, default=rules.DEFAULT_BACKEND)
    parser.add_argument("--levels", default=",".join(human.SOLVER.level_names))
    args = parser.parse_args()
    levels = args.levels.split(",")
    print(f"dabuhamienai generation, {args.seeds} seeds per size and level, backend {args.backend}")
    for size in args.sizes:
        for level in levels:
            seconds, cpu, draws, adjustments, scores, depths, basics = [], [], [], [], [], [], []
            grade_s, hint_s = [], []
            for seed in range(args.seeds):
                started, cpu_started = time.perf_counter(), time.process_time()
                result = generate_puzzle(DabuhamienaiParams(size=size, difficulty=level), seed, Deadline.never(),
                                         args.backend)
                seconds.append(time.perf_counter() - started)
                cpu.append(time.process_time() - cpu_started)
                draws.append(result.stats.draws)
                adjustments.append(result.stats.adjustments)
                assert rules.other_solution(result.puzzle.numbers, result.solution.shaded, Deadline.never()) is None
                board = human.board_of(result.puzzle)
                index = human.SOLVER.level_names.index(level)
                assert human.SOLVER.run(board, upto=index).state.solved
                assert index == 0 or not human.SOLVER.run(board, upto=index - 1).state.solved
                started = time.perf_counter()
                human.DIFFICULTY.grade(result.puzzle, Deadline.never())
                grade_s.append(time.perf_counter() - started)
                started = time.perf_counter()
                grid_hint(human.SOLVER, board, GridState(size, size), result.solution.shaded, human.VALUE_NAMES)
                hint_s.append(time.perf_counter() - started)
                score, depth, basic = effort(result.puzzle)
                scores.append(score)
                depths.append(depth)
                basics.append(basic)
            print(summary(f"{size}x{size} {level}", seconds, draws=draws, adjustments=adjustments), flush=True)
            print(summary(f"{'':<8} cpu", cpu))
            print(f"{'':<14}  effort: score/cell mean {statistics.mean(scores):.2f}  longest look-ahead mean "
                  f"{statistics.mean(depths):.1f} max {max(depths):g}  cells by basic steps {statistics.mean(basics):.0%}")
            print(summary(f"{'':<8} grade", grade_s))
            print(summary(f"{'':<8} hint", hint_s), flush=True)


if __name__ == "__main__":
    main()
