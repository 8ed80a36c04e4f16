"""How long the kit's count (``solve`` with a limit of 2: the proof that a puzzle has one answer) takes, per kit
genre and backend, on our own puzzles (`python -m bench.kit_counts [--types slitherlink,hashi] [--seeds 5]
[--size 15]`): median, p95 and max over the default params' seeds, or over a given size at every level.
A count past the budget (``--budget`` seconds) is reported, not raised: that is what a solve request would 503 on.
"""

from __future__ import annotations

import argparse
import time

from tqdm import tqdm

from bench.stats import summary
from generators.registry import TYPES
from solvers.common import BudgetExceeded, Deadline


def puzzles(name: str, seeds: int, size: int | None) -> list:
    """Our puzzles of ``name``: ``seeds`` at its default params, or at ``size`` on every level it makes."""
    kind = TYPES[name]
    levels = kind.difficulty.names if size is not None and kind.difficulty is not None else [None]
    made = []
    for level in levels:
        params = {**({"size": size} if size is not None else {}), **({"difficulty": level} if level else {})}
        try:
            model = kind.params_model(**params)
        except ValueError:
            continue  # a level this size is not made at
        made += [kind.generate(model, seed, Deadline.after(120)).puzzle for seed in range(seeds)]
    return made


def main() -> None:
    known = [name for name, kind in TYPES.items() if kind.model is not None]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--types", default=",".join(known), help=f"any of {', '.join(known)}")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--size", type=int, default=None, help="this size at every level (default: the default params)")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds a count may take (the solve budget)")
    args = parser.parse_args()
    for name in args.types.split(","):
        if name not in known:
            parser.error(f"{name!r} is not a kit genre; known: {', '.join(known)}")
        kind, made = TYPES[name], puzzles(name, args.seeds, args.size)
        if not made:
            print(f"{name}: no level is made at size {args.size}", flush=True)
            continue
        for backend in kind.backends:
            seconds, over = [], 0
            for puzzle in tqdm(made, desc=f"{name} {backend}", leave=False):
                started = time.perf_counter()
                try:
                    assert kind.solve(puzzle, 2, Deadline.after(args.budget), backend).count == 1
                except BudgetExceeded:
                    over += 1
                seconds.append(time.perf_counter() - started)
            print(summary(f"{name} {backend}", seconds) + f"  past the budget: {over}", flush=True)


if __name__ == "__main__":
    main()
