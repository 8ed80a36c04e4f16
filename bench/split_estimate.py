"""How deep the estimate before a split search should go, on training positions, not FFO
(`PYTHONPATH=. python -m bench.split_estimate [--seed 7] [--count 16] [--empties 22,24] [--leaves 10,12,14]`).

Verify and solve search the likeliest move first, its estimate (learned searches) on one thread and then its exact
tests split across the threads (`solvers.othello.split`). For each estimate leaf (the empties its learned searches
stop at), each position's full-window exact value from an empty table, as `MoveScorer._first` searches it: wall
seconds (median, p95, total) and nodes, estimate and split tests included.
"""

from __future__ import annotations

import argparse
import random
import time

from tqdm import tqdm

from bench.stats import summary
from solvers.othello import engine, split, train


def positions(seed: int, count: int, low: int, high: int) -> list[tuple[int, int]]:
    rng, found = random.Random(seed), []
    while len(found) < count:
        position = train.random_position(rng, rng.randint(low, high))
        if position is not None and engine.legal_moves(*position):
            found.append(position)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=16)
    parser.add_argument("--empties", default="22,24", help="the positions' empty squares, lowest,highest")
    parser.add_argument("--leaves", default="10,12,14")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    low, high = map(int, args.empties.split(","))
    found = positions(args.seed, args.count, low, high)
    for leaf in map(int, args.leaves.split(",")):
        seconds, nodes = [], []
        for p, o in tqdm(found, desc=f"leaf {leaf}", leave=False):
            engine.table().clear()
            counters = engine.Counters.with_limit(1 << 62)
            splitter = split.Splitter(args.threads, lambda: False)
            started = time.perf_counter()
            engine.exact_value(p, o, -engine.SCORE_MAX, engine.SCORE_MAX, counters, None,
                               lambda alpha, beta: splitter.test(p, o, alpha, beta), leaf)  # noqa: B023
            seconds.append(time.perf_counter() - started)
            nodes.append(counters.nodes + splitter.nodes)
        print(summary(f"leaf {leaf}: {len(found)} positions of {low}-{high} empties, seed {args.seed}", seconds,
                      nodes=nodes) + f"  total {sum(seconds):.1f} s, {sum(nodes) / 1e6:.0f} M nodes", flush=True)


if __name__ == "__main__":
    main()
