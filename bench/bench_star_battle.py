"""Star Battle's generation per size, stars and level over seeds 0 to N - 1 (`python -m bench.bench_star_battle
[--cases 12:1:medium,12:2:hard] [--seeds 20]`).

Per case (``size:stars:level``), in-process: this process's CPU time per puzzle (median, p95, max) and the walks
it restarted. A case past the params' caps is made all the same (the params are built unchecked), to measure why a
size is refused.
"""

from __future__ import annotations

import argparse
import time

from bench.stats import summary
from generators.star_battle import PUZZLE_TYPE, StarBattleParams, generate_puzzle
from solvers.common import Deadline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="10:1:easy,12:1:medium,12:1:hard,12:2:medium,12:2:hard",
                        help="size:stars:level, ...")
    parser.add_argument("--seeds", type=int, default=20, help="seeds 0 to N - 1")
    args = parser.parse_args()
    assert PUZZLE_TYPE.warm_up is not None
    PUZZLE_TYPE.warm_up()
    for case in args.cases.split(","):
        size, stars, level = case.split(":")
        params = StarBattleParams.model_construct(size=int(size), stars=int(stars), difficulty=level)
        seconds, restarts = [], []
        for seed in range(args.seeds):
            start = time.process_time()
            made = generate_puzzle(params, seed, Deadline.after(120))
            seconds.append(time.process_time() - start)
            restarts.append(made.stats.restarts)
        print(summary(case, seconds, restarts=restarts), flush=True)


if __name__ == "__main__":
    main()
