"""Ubongo: solve and generation times (`python -m bench.bench_ubongo [--seeds N] [--sat] [--only CATALOGUE-MODE-PIECES]`).

Solve: the outlines of generated 3-, 4- and 5-piece cards (standard catalogue), every covering
enumerated in mode `given` (the card's pieces) and in mode `hidden` (any N of the 12 pieces), by
the exact-cover search and, with ``--sat``, by the SAT encoding on CaDiCaL for comparison.
Generation: per piece count and mode, with repair rounds and restarts; uniqueness of every card is
re-proven afterwards (not timed), and in mode `hidden` that the one covering is the only piece set.
``--only standard-hidden-5`` (any `catalogue-mode-pieces`) times a single configuration.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from bench.stats import summary
from generators.ubongo import UbongoParams, generate_puzzle
from solvers import ubongo as rules
from solvers.common import Deadline, SolveOutcome

ALL = 10**6  # "every covering"


def timed(fn: Callable[[], SolveOutcome]) -> tuple[float, SolveOutcome]:
    started = time.perf_counter()
    outcome = fn()
    return time.perf_counter() - started, outcome


def bench_solve(seeds: int, sat: bool) -> None:
    print(f"solve: every covering of generated card outlines, {seeds} seeds, standard catalogue")
    for pieces in (3, 4, 5):
        cards = [generate_puzzle(UbongoParams(pieces=pieces), seed, Deadline.never()).puzzle for seed in range(seeds)]
        for mode in ("given", "hidden"):
            if mode == "hidden":
                cards = [rules.UbongoPuzzle(shape=c.shape, mode="hidden", piece_count=pieces) for c in cards]
            runs = [timed(lambda c=c: rules.solve(c, ALL, Deadline.never())) for c in cards]
            print(summary(f"{pieces}p {mode} X", [s for s, _ in runs],
                          coverings=[len(o.solutions) for _, o in runs], nodes=[o.extra["nodes"] for _, o in runs]),
                  flush=True)
            if sat:
                sat_runs = [timed(lambda c=c: rules.solve(c, ALL, Deadline.never(), "cadical")) for c in cards]
                assert [len(o.solutions) for _, o in sat_runs] == [len(o.solutions) for _, o in runs]
                print(summary(f"{pieces}p {mode} SAT", [s for s, _ in sat_runs]), flush=True)


def bench_generate_one(catalogue: str, mode: str, pieces: int, seeds: int) -> None:
    """Median/p95 generation time of one configuration over seeds 0..seeds-1, with the work it took."""
    seconds, rounds, restarts = [], [], []
    for seed in range(seeds):
        started = time.perf_counter()
        made = generate_puzzle(UbongoParams(pieces=pieces, mode=mode, catalogue=catalogue), seed, Deadline.never())
        seconds.append(time.perf_counter() - started)
        rounds.append(made.stats.repair_rounds)
        restarts.append(made.stats.restarts)
        # Unique covering over every piece_count-subset of the catalogue (mode hidden), so one piece set too.
        assert rules.solve(made.puzzle, 2, Deadline.never()).status == "unique"
    print(summary(f"{catalogue[:3]} {pieces}p {mode}", seconds, repair_rounds=rounds, restarts=restarts), flush=True)


def bench_generate(seeds: int, only: str | None) -> None:
    print(f"generation, {seeds} seeds each")
    for catalogue in ("standard", "article"):
        for mode in ("given", "hidden"):
            for pieces in (3, 4, 5):
                if only in (None, f"{catalogue}-{mode}-{pieces}"):
                    bench_generate_one(catalogue, mode, pieces, seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sat", action="store_true", help="also time the SAT encoding (CaDiCaL)")
    parser.add_argument("--only", help="generation of one configuration only, e.g. standard-hidden-5 (no solve bench)")
    args = parser.parse_args()
    if args.only is None:
        bench_solve(args.seeds, args.sat)
    bench_generate(args.seeds, args.only)


if __name__ == "__main__":
    main()
