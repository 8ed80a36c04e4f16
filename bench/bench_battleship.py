"""Battleship generation and solve time per size (`python -m bench.bench_battleship [sizes] [--seeds N] [--backends]`).

Generation runs the whole pipeline (layout, repair rounds, minimal-clue polish) on one core with the
default backend. Each generated puzzle is then solved from scratch, as `POST /solve` would
(build the model, find the solution, prove there is no second one), and the solver's answer is
checked to be the stored solution, so a fast wrong generator cannot look good. `--backends` also
times solve on both SAT backends over the published 10×10 puzzles, the measurement behind
`solvers.battleship.DEFAULT_BACKEND`.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from bench.stats import summary
from generators.battleship import BattleshipParams, generate_puzzle
from solvers import battleship as rules
from solvers.common import Deadline, SolveOutcome

REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "battleship"


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[6, 8, 10, 12, 15])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--backends", action="store_true", help="also compare CaDiCaL and z3 on published puzzles")
    args = parser.parse_args()
    bench_sizes(args.sizes, args.seeds)
    if args.backends:
        bench_backends()


if __name__ == "__main__":
    main()
