"""Dabuhamienai generation time per size (`python -m bench.bench_dabuhamienai [sizes] [--seeds N] [--backend B]`).

Each puzzle is generated in this process on one core; the uniqueness of every puzzle is re-proven
afterwards with a fresh model (not timed) so a fast wrong generator cannot look good.
`--backend z3` runs the same model on z3, which is how the default backend was chosen.
"""

from __future__ import annotations

import argparse
import time

from bench.stats import summary
from generators.dabuhamienai import DabuhamienaiParams, generate_puzzle
from solvers import dabuhamienai as rules
from solvers.common import Deadline
from solvers.sat import BACKENDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[6, 8, 10, 15, 20, 30])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--backend", choices=BACKENDS, default=rules.DEFAULT_BACKEND)
    args = parser.parse_args()
    print(f"dabuhamienai generation, {args.seeds} seeds per size, backend {args.backend}")
    for size in args.sizes:
        seconds, rounds, restarts = [], [], []
        for seed in range(args.seeds):
            started = time.perf_counter()
            result = generate_puzzle(DabuhamienaiParams(size=size), seed, Deadline.never(), args.backend)
            seconds.append(time.perf_counter() - started)
            rounds.append(result.stats.repair_rounds)
            restarts.append(result.stats.restarts)
            assert rules.other_solution(result.puzzle.numbers, result.solution.shaded, Deadline.never()) is None
        print(summary(f"{size}x{size}", seconds, repair_rounds=rounds, restarts=restarts), flush=True)


if __name__ == "__main__":
    main()
