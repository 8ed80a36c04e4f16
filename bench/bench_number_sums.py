"""Number Sums benchmark: generation and solving per size, with and without regions.

    PYTHONPATH=. python -m bench.bench_number_sums [--seeds 20] [--sizes 5 7 9 12] [--backends search cadical z3]

For every size and variant, over ``--seeds`` seeds: generation time and repair rounds; then the
time to solve each generated puzzle and prove it unique on every backend (search nodes for the
default solver). A last table solves random puzzles whose targets come from a random selection
(not repaired, so often several solutions): the solver's work on puzzles nobody tuned.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from generators.number_sums import NumberSumsParams, generate_puzzle, with_targets
from solvers.common import Deadline
from solvers.number_sums import NumberSumsPuzzle, search_solutions, solve


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(label: str, seconds: list[float], work: str) -> str:
    ms = [s * 1000 for s in seconds]
    return f"{label:<34} median {statistics.median(ms):8.1f} ms   p95 {percentile(ms, 0.95):8.1f} ms   {work}"


def timed(action: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def deadline_for(backend: str) -> Deadline:
    return Deadline.after(120)


def bench_solving(label: str, puzzles: list[NumberSumsPuzzle], backends: list[str]) -> None:
    for backend in backends:
        times, statuses = [], []
        for puzzle in puzzles:
            seconds, outcome = timed(lambda p=puzzle, b=backend: solve(p, 2, deadline_for(b), b))
            times.append(seconds)
            statuses.append(outcome.status)
        work = ", ".join(f"{statuses.count(s)} {s}" for s in ("unique", "multiple", "none") if s in statuses)
        if backend == "search":
            nodes = [search_solutions(p, 2, Deadline.never())[2].nodes for p in puzzles]
            work += f"; nodes median {statistics.median(nodes):.0f}, max {max(nodes)}"
        print(summary(f"  solve {label} [{backend}]", times, work), flush=True)


def random_puzzle(size: int, rng: random.Random) -> NumberSumsPuzzle:
    numbers = [[rng.randint(1, 9) for _ in range(size)] for _ in range(size)]
    selected = [[rng.randint(0, 1) for _ in range(size)] for _ in range(size)]
    return with_targets(numbers, selected, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 9, 12])
    parser.add_argument("--backends", nargs="+", default=["portfolio", "search", "cadical", "z3"])
    args = parser.parse_args()

    for size in args.sizes:
        for regions in (False, True):
            label = f"{size}x{size}{' regions' if regions else ''}"
            times, rounds, calls, puzzles = [], [], [], []
            for seed in range(args.seeds):
                params = NumberSumsParams(size=size, regions=regions)
                seconds, generated = timed(lambda p=params, s=seed: generate_puzzle(p, s, Deadline.after(120)))
                times.append(seconds)
                rounds.append(generated.stats.repair_rounds)
                calls.append(generated.stats.solver_calls)
                puzzles.append(generated.puzzle)
            work = (f"repair rounds median {statistics.median(rounds):.0f}, max {max(rounds)}; "
                    f"solver calls {sum(calls)}")
            print(summary(f"generate {label}", times, work), flush=True)
            bench_solving(label, puzzles, args.backends)

    for size in args.sizes:
        rng = random.Random(size)
        bench_solving(f"random {size}x{size}", [random_puzzle(size, rng) for _ in range(args.seeds)], args.backends)


if __name__ == "__main__":
    main()
