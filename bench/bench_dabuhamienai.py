"""Dabuhamienai generation, grading and hints per size and level, with the ungraded pipeline beside them
(`python -m bench.bench_dabuhamienai [sizes] [--seeds N] [--backend B] [--levels easy,medium,hard]`).

Each puzzle is generated in this process on one core; times are this process's CPU time (the fair
figure on a shared machine; `wall` lines give the clock). Per size, the ungraded pipeline
(`generate_unique`, a unique puzzle of any level) is measured first, in the same run, so the cost of a
level reads as a ratio. Per level: the work done (draws, adjustments, gradings by the kernel, SAT
calls: the pipelines' rounds plus the one re-proof of an adjusted puzzle), then, not timed, the uniqueness of
every puzzle is re-proven with a fresh model (so a fast wrong generator cannot look good) and its
level is checked by Tatham's rule (solved at its level, not at the one below). Then the effort figures
that order the levels, the time to grade (what `POST /grade` runs), to write the whole solution path
with its sentences, and to give a hint from the empty grid and from partial grids (correct cells at
20%, 50% and 80%). The table at the end holds the medians and 95th percentiles.
`--backend z3` runs the SAT models on z3, which is how the default backend was chosen.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.stats import percentile, summary
from generators.dabuhamienai import DabuhamienaiParams, generate_puzzle, generate_unique
from solvers.common import Deadline
from solvers.dabuhamienai import rules
from solvers.dabuhamienai import techniques as human
from solvers.sat import BACKENDS


def cpu(work: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """(CPU seconds, result) of ``work(*args)``."""
    started = time.process_time()
    result = work(*args)
    return time.process_time() - started, result


def effort(puzzle: rules.DabuhamienaiPuzzle) -> tuple[float, float, float]:
    """(score per cell, longest look-ahead in rounds, share of cells decided by basic steps)."""
    path = human.SOLVER.run(human.board_of(puzzle))
    basic = {t.name for t in human.BASIC}
    cells = puzzle.size ** 2
    by_basic = sum(len(s.decide) for s in path.steps if s.technique in basic)
    deepest = max((s.effort for s in path.steps if s.technique not in basic), default=0)
    weights = {t.name: t.weight for _, t in human.TECHNIQUES}
    return sum(weights[s.technique] * s.effort for s in path.steps) / cells, deepest, by_basic / cells


class Gradings:
    """Counts the generator's gradings (kernel solution paths)."""

    def __init__(self) -> None:
        self.count = 0
        self._outline = human.outline

    def __enter__(self) -> Gradings:
        def counted(*args: Any, **kwargs: Any) -> human.Outline:
            self.count += 1
            return self._outline(*args, **kwargs)

        human.outline = counted  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        human.outline = self._outline  # type: ignore[assignment]


def hint_times(puzzle: rules.DabuhamienaiPuzzle, solution: list[list[int]], seed: int) -> tuple[float, list[float]]:
    """CPU of a hint (as `POST /hint` computes it) from the empty grid, and from partial grids."""
    answer = rules.DabuhamienaiAnswer(shaded=solution)
    rng = random.Random(seed)
    grids = [[[v if rng.random() < rate else None for v in row] for row in solution] for rate in (0, 0.2, 0.5, 0.8)]
    times = [cpu(human.DIFFICULTY.hint, puzzle, human.DabuhamienaiState(shaded=grid), answer, Deadline.never())[0]
             for grid in grids]
    return times[0], times[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[6, 8, 15, 22, 30])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--backend", choices=BACKENDS, default=rules.DEFAULT_BACKEND)
    parser.add_argument("--levels", default=",".join(human.SOLVER.level_names))
    args = parser.parse_args()
    levels = args.levels.split(",")
    human.warm_up()
    generate_unique(8, 0, Deadline.never(), args.backend)  # loads the SAT library
    print(f"dabuhamienai, {args.seeds} seeds per size and level, backend {args.backend}, CPU time unless `wall`")
    table = []
    for size in args.sizes:
        plain = [cpu(generate_unique, size, seed, Deadline.never(), args.backend)[0] for seed in range(args.seeds)]
        print(summary(f"{size}x{size} ungraded", plain), flush=True)
        for level in levels:
            if level == "hard" and size < 6:
                continue
            seconds, wall, draws, adjustments, gradings, sat = [], [], [], [], [], []
            grade_s, path_s, hint_empty, hint_partial, scores, depths, basics = [], [], [], [], [], [], []
            for seed in range(args.seeds):
                started = time.perf_counter()
                with Gradings() as counter:
                    spent, result = cpu(generate_puzzle, DabuhamienaiParams(size=size, difficulty=level), seed,
                                        Deadline.never(), args.backend)
                wall.append(time.perf_counter() - started)
                seconds.append(spent)
                draws.append(result.stats.draws)
                adjustments.append(result.stats.adjustments)
                gradings.append(counter.count)
                sat.append(result.stats.solver_calls)
                puzzle, solution = result.puzzle, result.solution.shaded
                assert rules.other_solution(puzzle.numbers, solution, Deadline.never(), args.backend) is None
                board = human.board_of(puzzle)
                index = human.SOLVER.level_names.index(level)
                assert human.outline(board, upto=index).solved
                assert index == 0 or not human.outline(board, upto=index - 1).solved
                grade_s.append(cpu(human.DIFFICULTY.grade, puzzle, Deadline.never())[0])
                path_s.append(cpu(human.SOLVER.run, board)[0])
                empty, partial = hint_times(puzzle, solution, seed)
                hint_empty.append(empty)
                hint_partial.extend(partial)
                score, depth, basic = effort(puzzle)
                scores.append(score)
                depths.append(depth)
                basics.append(basic)
            print(summary(f"{size}x{size} {level}", seconds, draws=draws, adjustments=adjustments, gradings=gradings,
                          sat=sat), flush=True)
            print(summary(f"{'':<8} wall", wall))
            print(f"{'':<14}  effort: score/cell mean {statistics.mean(scores):.2f}  longest look-ahead mean "
                  f"{statistics.mean(depths):.1f} max {max(depths):g}  cells by basic steps {statistics.mean(basics):.0%}")
            print(summary(f"{'':<8} grade", grade_s))
            print(summary(f"{'':<8} path", path_s))
            print(summary(f"{'':<8} hint 0", hint_empty))
            print(summary(f"{'':<8} hint", hint_partial), flush=True)
            table.append((size, level, seconds, plain, grade_s, hint_empty, hint_partial, draws, adjustments, gradings))
    def ms(values: list[float], q: int) -> str:
        return f"{(statistics.median(values) if q == 50 else percentile(values, q)) * 1000:8.1f}"

    print("\nsize  level   gen median    p95   max | ungraded  ratio | grade | hint empty partial | draws adjustments "
          "gradings (median/max)")
    for size, level, seconds, plain, grade_s, hint_empty, hint_partial, draws, adjustments, gradings in table:
        ratio = statistics.median(seconds) / statistics.median(plain)
        print(f"{size:>4}  {level:<6} {ms(seconds, 50)} {ms(seconds, 95)} {ms(seconds, 100)} | {ms(plain, 50)} "
              f"{ratio:5.1f}x | {ms(grade_s, 50)} | {ms(hint_empty, 50)} {ms(hint_partial, 50)} | "
              f"{statistics.median(draws):g}/{max(draws)} {statistics.median(adjustments):g}/{max(adjustments)} "
              f"{statistics.median(gradings):g}/{max(gradings)}")


if __name__ == "__main__":
    main()
