"""Battleship generation and solve time per size (`python -m bench.bench_battleship [sizes] [--seeds N] [--backends]`),
and per difficulty level (`--levels`, on the first size given, default 10).

Generation runs the whole pipeline (layout, repair rounds, minimal-clue polish) on one core with the
default backend. Each generated puzzle is then solved from scratch, as `POST /solve` would
(build the model, find the solution, prove there is no second one), and the solver's answer is
checked to be the stored solution, so a fast wrong generator cannot look good. `--backends` also
times solve on both SAT backends over the published 10×10 puzzles, the measurement behind
`solvers.battleship.DEFAULT_BACKEND`.

`--levels` generates `--seeds` puzzles per level and prints wall and CPU time (the machine may be
shared: CPU time is the steadier figure), the draws and revealed-cell adjustments it took, the
revealed cells, how many the easiest techniques alone solve, grading time and mean effort (score);
then grades the published puzzles: the level distribution and the grading time of the 10×10 ones.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from bench.stats import summary
from generators.battleship import BattleshipParams, generate_puzzle
from solvers import battleship as rules
from solvers.common import Deadline, SolveOutcome
from solvers.techniques import battleship as human

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "battleship"


def timed_solve(puzzle: rules.BattleshipPuzzle, backend: str | None = None) -> tuple[float, SolveOutcome]:
    started = time.perf_counter()
    outcome = rules.solve(puzzle, 2, Deadline.after(60), backend)
    return time.perf_counter() - started, outcome


def bench_sizes(sizes: list[int], seeds: int) -> None:
    print(f"battleship, {seeds} seeds per size, standard fleet, backend {rules.DEFAULT_BACKEND}")
    for size in sizes:
        gen, solve, rounds, revealed = [], [], [], []
        for seed in range(seeds):
            started = time.perf_counter()
            result = generate_puzzle(BattleshipParams(size=size), seed, Deadline.after(120))
            gen.append(time.perf_counter() - started)
            rounds.append(result.stats.repair_rounds)
            revealed.append(len(result.puzzle.revealed))
            seconds, outcome = timed_solve(result.puzzle)
            assert outcome.status == "unique" and outcome.solutions == [result.solution.model_dump()], (size, seed)
            solve.append(seconds)
        label = f"{size}x{size}"
        print(summary(f"{label} generate", gen, repair_rounds=rounds, revealed=revealed), flush=True)
        print(summary(f"{label} solve", solve), f" mean revealed {statistics.mean(revealed):.1f}", flush=True)


def bench_backends() -> None:
    from tests.conftest import read_jsonl

    lines = [line for name in ("courses", "janko") for line in read_jsonl(REFERENCE / f"{name}.jsonl")]
    tens = [rules.BattleshipPuzzle.model_validate(line["puzzle"]) for line in lines if line["puzzle"]["rows"] == 10][:40]
    print(f"solve + prove unique, {len(tens)} published 10x10 puzzles")
    for backend in ("cadical", "z3"):
        print(summary(backend, [timed_solve(puzzle, backend)[0] for puzzle in tens]), flush=True)


def bench_levels(size: int, seeds: int) -> None:
    print(f"battleship levels, {size}x{size}, {seeds} seeds per level (generation: wall, then CPU)")
    for index, level in enumerate(human.SOLVER.level_names):
        wall, cpu, grading, draws, adjustments, revealed, scores, basic = [], [], [], [], [], [], [], 0
        for seed in range(seeds):
            started, started_cpu = time.perf_counter(), time.process_time()
            result = generate_puzzle(BattleshipParams(size=size, difficulty=level), seed, Deadline.after(300))
            wall.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            draws.append(result.stats.draws)
            adjustments.append(result.stats.adjustments)
            revealed.append(len(result.puzzle.revealed))
            started_cpu = time.process_time()
            board = human.board_of(result.puzzle)
            graded = human.SOLVER.grade(board)
            grading.append(time.process_time() - started_cpu)
            assert graded.level == level, (level, seed, graded)
            scores.append(graded.score)
            basic += human.SOLVER.run(board, upto=0).state.solved
        print(summary(f"{level} gen", wall, draws=draws, adjustments=adjustments, revealed=revealed), flush=True)
        print(summary(f"{level} gen cpu", cpu), flush=True)
        print(summary(f"{level} grade cpu", grading), f" mean effort {statistics.mean(scores):.1f}  "
              f"solved by level-1 techniques alone {basic}/{seeds}  mean revealed {statistics.mean(revealed):.1f}",
              flush=True)
        assert index or basic == seeds


def bench_published() -> None:
    from tests.conftest import read_jsonl

    lines = [line for name in ("courses", "janko") for line in read_jsonl(REFERENCE / f"{name}.jsonl")]
    levels: Counter[str | None] = Counter()
    tens = []
    for line in lines:
        puzzle = rules.BattleshipPuzzle.model_validate(line["puzzle"])
        started = time.process_time()
        graded = human.SOLVER.grade(human.board_of(puzzle))
        if puzzle.rows == puzzle.cols == 10:
            tens.append(time.process_time() - started)
        levels[graded.level] += 1
        if line["id"].startswith("csc384"):
            print(f"  {line['id']:<20} {graded.level}  effort {graded.score:.0f}")
    order = [*human.SOLVER.level_names, None]
    print(f"published puzzles ({len(lines)}):", ", ".join(f"{level or 'beyond (guessing)'} {levels[level]}"
                                                          for level in order))
    print(summary("grade 10x10 cpu", tens), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--backends", action="store_true", help="also compare CaDiCaL and z3 on published puzzles")
    parser.add_argument("--levels", action="store_true", help="per difficulty level, and the published puzzles graded")
    args = parser.parse_args()
    if args.levels:
        bench_levels(args.sizes[0] if args.sizes else 10, args.seeds)
        bench_published()
        return
    bench_sizes(args.sizes or [6, 8, 10, 12, 15], args.seeds)
    if args.backends:
        bench_backends()


if __name__ == "__main__":
    main()
