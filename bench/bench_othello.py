"""Othello benchmark: exact-solve time by number of empties, node rate, and puzzle generation time.

    PYTHONPATH=. python -m bench.bench_othello [--positions 20] [--all-moves] [--levels-only] [--level-empties 12]

Positions come from the generator's plausible games (fixed seeds), so runs are comparable. The
transposition table is cleared before each position so no solve profits from the previous one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from generators import othello as gen
from solvers.common import Deadline
from solvers.othello import engine, rules
from solvers.othello import techniques as human


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(label: str, seconds: list[float], work: str) -> None:
    print(f"{label:<34} median {1000 * statistics.median(seconds):8.1f} ms   "
          f"p95 {1000 * percentile(seconds, 0.95):8.1f} ms   n={len(seconds)}   {work}")


def positions(empties: int, count: int) -> list[tuple[int, int]]:
    rng = random.Random(1000 + empties)
    found = []
    while len(found) < count:
        game = gen.plausible_position(empties, rng)
        if game is not None:
            found.append(game[:2])
    return found


def bench_exact(empties: int, count: int, all_moves: bool) -> None:
    seconds, nodes = [], []
    for p, o in positions(empties, count):
        engine.table().clear()
        counters = engine.Counters.with_limit(1 << 62)
        started = time.perf_counter()
        if all_moves:
            nodes.append(rules.exact_scores(p, o, Deadline.never()).nodes)
        else:
            engine.exact_value(p, o, -engine.SCORE_MAX, engine.SCORE_MAX, counters)
            nodes.append(counters.nodes)
        seconds.append(time.perf_counter() - started)
    rate = sum(nodes) / sum(seconds)
    what = "every move" if all_moves else "position value"
    report(f"exact {what}, {empties} empties", seconds,
           f"nodes median {statistics.median(nodes):,.0f}, {rate / 1e6:.1f} M nodes/s")


def bench_generate(empties: int, task: str, count: int) -> None:
    seconds, restarts = [], []
    for seed in range(count):
        started = time.process_time()
        made = gen.generate_puzzle(gen.OthelloParams(empties=empties, task=task), seed, Deadline.after(120))
        seconds.append(time.process_time() - started)
        restarts.append(made.stats.restarts)
    accepted = count / (count + sum(restarts))
    report(f"generate {task}, {empties} empties (CPU)", seconds,
           f"restarts median {statistics.median(restarts)}, max {max(restarts)}; "
           f"positions accepted {100 * accepted:.0f}%")


def bench_levels(empties: int, count: int) -> None:
    """Per level: generation time (CPU, the machine being shared), draws, grading time, and the effort
    figures the level is defined by. A size beyond a level's offered range is measured too (the params
    are built without the request's check): that is how the ranges were chosen."""
    for level in human.LEVELS:
        least, most = gen.level_empties(level)
        if empties < least:
            continue
        params = gen.OthelloParams.model_construct(empties=empties, difficulty=level)
        seconds, draws, grading, scores, sights, traps = [], [], [], [], [], []
        for seed in range(count):
            started = time.process_time()
            made = gen.generate_puzzle(params, seed, Deadline.never())
            seconds.append(time.process_time() - started)
            draws.append(made.stats.draws)
            p, o = made.puzzle.bitboards()
            started = time.process_time()
            features = human.features(p, o, rules.parse_square(made.solution.move), Deadline.never())
            grading.append(time.process_time() - started)
            scores.append(made.difficulty.score)
            sights.append(min(features.sight, empties))
            traps.append(len(features.traps))
        beyond = " (beyond its range)" if empties > most else ""
        report(f"generate {level}, {empties} empties{beyond} (CPU)", seconds,
               f"draws median {statistics.median(draws)}, grading median {1000 * statistics.median(grading):.0f} ms; "
               f"effort mean {statistics.mean(scores):.2f}, sight mean {statistics.mean(sights):.1f} plies, "
               f"traps mean {statistics.mean(traps):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="positions (and seeds) per row")
    parser.add_argument("--all-moves", action="store_true", help="also time exact scores of every move")
    parser.add_argument("--levels-only", action="store_true", help="only generation per difficulty level")
    parser.add_argument("--level-empties", type=int, default=12,
                        help="empty squares of the per-level rows (up to 20, also beyond a level's offered range)")
    args = parser.parse_args()
    started = time.perf_counter()
    engine.warm_up()
    print(f"warm-up (load from numba's cache, or compile the first time): {time.perf_counter() - started:.1f} s; "
          f"node-rate estimate {engine.nodes_per_second() / 1e6:.1f} M/s")
    bench_levels(args.level_empties, args.positions)
    if args.levels_only:
        return
    for empties in (10, 14, 16, 18, 20):
        bench_exact(empties, args.positions, all_moves=False)
    if args.all_moves:
        for empties in (12, 14, 16, 18):
            bench_exact(empties, args.positions, all_moves=True)
    for empties, task in ((12, "win"), (16, "win"), (20, "win"), (12, "best")):
        bench_generate(empties, task, args.positions)


if __name__ == "__main__":
    main()
