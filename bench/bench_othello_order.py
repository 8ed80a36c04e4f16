"""Tune the weights of the Othello move-ordering terms (``engine.ORDER``) by node count, on positions of a
training set (``python -m solvers.othello.train data``), never on FFO.

    PYTHONPATH=. python -m bench.bench_othello_order --data /tmp/othello-tune.npz [--empties 18] [--count 20]

Each position is solved from an empty table; a coordinate search halves and doubles each weight in
turn and keeps any change that lowers the total. Nodes are deterministic, so the machine's load does
not matter. It prints the best weights found, to be copied into ``engine.ORDER``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from solvers.othello import engine


def total_nodes(positions: list[tuple[int, int]]) -> int:
    total = 0
    for p, o in positions:
        engine.table().clear()
        counters = engine.Counters.with_limit(1 << 62)
        engine.exact_value(p, o, -engine.SCORE_MAX, engine.SCORE_MAX, counters)
        total += counters.nodes
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--empties", type=int, default=18, help="positions with at least this many empties")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with np.load(args.data) as data:
        p, o = data["p"], data["o"]
    positions = [(int(a), int(b)) for a, b in zip(p, o, strict=True) if 64 - int(a | b).bit_count() >= args.empties]
    positions = positions[:args.count]
    engine.warm_up()
    best = total_nodes(positions)
    print(f"{len(positions)} positions, start {engine.ORDER.tolist()}: {best:,} nodes", flush=True)
    for _ in range(args.rounds):
        for term in range(len(engine.ORDER)):
            for factor in (0.5, 2.0):
                kept = int(engine.ORDER[term])
                engine.ORDER[term] = max(1, round(kept * factor))
                nodes = total_nodes(positions)
                if nodes < best:
                    best = nodes
                    print(f"better {engine.ORDER.tolist()}: {best:,} nodes", flush=True)
                else:
                    engine.ORDER[term] = kept
    print(f"best {engine.ORDER.tolist()}: {best:,} nodes")


if __name__ == "__main__":
    main()
