"""Battleship generation and solve time per size (`python -m bench.bench_battleship [sizes] [--seeds N] [--backends]`),
and per difficulty level (`--levels [sizes]`, default 6, 10 and 15; `--published` grades the published puzzles).

Generation runs the whole pipeline (layout, repair rounds, minimal-clue polish) on one core with the
default backend. Each generated puzzle is then solved from scratch, as `POST /solve` would
(build the model, find the solution, prove there is no second one), and the solver's answer is
checked to be the stored solution, so a fast wrong generator cannot look good. `--backends` also
times solve on both SAT backends over the published 10×10 puzzles, the measurement behind
`solvers.battleship.rules.DEFAULT_BACKEND`.

`--levels` generates `--seeds` puzzles per level and size and prints wall and CPU time (the machine may
be shared: CPU time is the steadier figure), the draws and revealed-cell adjustments it took, the
revealed cells, how many generations ran past the service's request budget (a 503 there), how many
the easiest techniques alone solve, grading time and mean effort (score), and the time of a hint
from the empty grid and from partial grids (correct cells at a fifth, half and four fifths); then the
ungraded pipeline (a unique puzzle of no level) at the default size, the "within 2×" figure.
`--published` grades the published puzzles: the level distribution and the grading time of the
10×10 ones.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from bench.stats import summary
from generators.battleship import BattleshipParams, generate_puzzle, generate_unique
from solvers.battleship import rules
from solvers.battleship import techniques as human
from solvers.common import BudgetExceeded, Deadline, SolveOutcome

BUDGET = 20.0  # seconds: the service's request budget for a generation

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


def hint_states(ships: list[list[int]], rng: random.Random) -> list[list[list[int | None]]]:
    """The empty grid, then correct cells at a fifth, half and four fifths of the grid."""
    return [[[v if rng.random() < rate else None for v in row] for row in ships] for rate in (0.0, 0.2, 0.5, 0.8)]


def bench_levels(sizes: list[int], seeds: int, only: list[str] | None = None) -> None:
    print(f"battleship levels, {seeds} seeds per level and size (generation: wall, then CPU; budget {BUDGET:g} s)")
    for size in sizes:
        for index, level in enumerate(human.SOLVER.level_names):
            if only and level not in only:
                continue
            wall, cpu, grading, hints, draws, adjustments, revealed, scores = [], [], [], [], [], [], [], []
            basic = over = 0
            for seed in range(seeds):
                started, started_cpu = time.perf_counter(), time.process_time()
                try:
                    result = generate_puzzle(BattleshipParams(size=size, difficulty=level), seed, Deadline.after(BUDGET))
                except BudgetExceeded:
                    over += 1
                    continue
                finally:
                    wall.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - started_cpu)
                draws.append(result.stats.draws)
                adjustments.append(result.stats.adjustments)
                revealed.append(len(result.puzzle.revealed))
                started_cpu = time.process_time()
                graded = human.DIFFICULTY.grade(result.puzzle, Deadline.never())
                grading.append(time.process_time() - started_cpu)
                assert graded.level == level, (level, seed, graded)
                scores.append(graded.score)
                basic += human.SOLVER.run(human.board_of(result.puzzle), upto=0).state.solved
                for grid in hint_states(result.solution.ships, random.Random(seed)):
                    started_cpu = time.process_time()
                    human.DIFFICULTY.hint(result.puzzle, human.BattleshipState(ships=grid), result.solution,
                                          Deadline.never())
                    hints.append(time.process_time() - started_cpu)
            label = f"{size}x{size} {level}"
            print(summary(f"{label} gen", wall, draws=draws, adjustments=adjustments, revealed=revealed),
                  f" over budget {over}/{seeds}", flush=True)
            print(summary(f"{label} gen cpu", cpu), flush=True)
            print(summary(f"{label} grade cpu", grading), f" mean effort {statistics.mean(scores):.1f}  "
                  f"solved by level-1 techniques alone {basic}/{len(scores)}", flush=True)
            print(summary(f"{label} hint cpu", hints), flush=True)
            assert index or basic == len(scores)
    if only:
        return
    cpu = []
    for seed in range(seeds):
        started_cpu = time.process_time()
        generate_unique(BattleshipParams(), seed, Deadline.after(BUDGET))
        cpu.append(time.process_time() - started_cpu)
    print(summary("10x10 ungraded cpu", cpu), flush=True)


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
    parser.add_argument("--levels", action="store_true", help="per difficulty level and size, with grading and hints")
    parser.add_argument("--published", action="store_true", help="grade the published puzzles")
    parser.add_argument("--only", help="with --levels: these levels only (comma-separated), no ungraded row")
    args = parser.parse_args()
    if args.levels or args.published:
        human.warm_up()
        if args.levels:
            bench_levels(args.sizes or [6, 10, 15], args.seeds, args.only.split(",") if args.only else None)
        if args.published:
            bench_published()
        return
    bench_sizes(args.sizes or [6, 8, 10, 12, 15], args.seeds)
    if args.backends:
        bench_backends()


if __name__ == "__main__":
    main()
