"""Number Sums benchmark: generation and solving per size, with and without regions.

    PYTHONPATH=. python -m bench.bench_number_sums [--seeds 20] [--sizes 5 7 9 12] [--backends search cadical z3]
    PYTHONPATH=. python -m bench.bench_number_sums --levels [--seeds 20] [--sizes 3 7 12]

For every size and variant, over ``--seeds`` seeds: generation time and repair rounds; then the
time to solve each generated puzzle and prove it unique on every backend (search nodes for the
default solver). A last table solves random puzzles whose targets come from a random selection
(not repaired, so often several solutions): the solver's work on puzzles nobody tuned.

``--levels``: per size (by default the smallest, the default and the largest), variant and difficulty
level, generation at that level (CPU time, this process's, the fair figure on a shared machine: median
and p95; wall median beside it), the draws and digit adjustments it took, the generations past the
request budget, grading and a hint from the empty grid (medians), mean effort (score), the share solved
by the line rule alone, the ways per line at the start (the published puzzles average 3.8), and for
region puzzles the share that is ambiguous without its regions. First, in the same run, the ungraded
pipeline (a unique puzzle of any level) at the default size: the baseline of the default level.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from pydantic import ValidationError

from generators.number_sums import (
    NumberSumsParams,
    generate_puzzle,
    generate_unique,
    unique,
    warm_up,
    with_targets,
    without_regions,
)
from solvers.common import Deadline
from solvers.number_sums import techniques as human
from solvers.number_sums.rules import NumberSumsPuzzle, search_solutions, solve

BUDGET = 20.0  # seconds: the service's request budget


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
            nodes = [search_solutions(p, 2, Deadline.never())[1].nodes for p in puzzles]
            work += f"; nodes median {statistics.median(nodes):.0f}, max {max(nodes)}"
        print(summary(f"  solve {label} [{backend}]", times, work), flush=True)


def random_puzzle(size: int, rng: random.Random) -> NumberSumsPuzzle:
    numbers = [[rng.randint(1, 9) for _ in range(size)] for _ in range(size)]
    selected = [[rng.randint(0, 1) for _ in range(size)] for _ in range(size)]
    return with_targets(numbers, selected, None)


def ways_per_line(puzzle: NumberSumsPuzzle) -> list[int]:
    board = human.board_of(puzzle)
    return [human.count_ways([board.digits[i] for i in rule.cells], rule.total) for rule in board.rules]


def cpu_timed(action: Callable[[], object]) -> tuple[float, float, object]:
    """CPU seconds, wall seconds and the result."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = action()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def bench_ungraded(seeds: int) -> None:
    for regions in (False, True):
        params = NumberSumsParams(regions=regions)  # the default size and level
        cpus = [cpu_timed(lambda s=seed, p=params: generate_unique(p, s, Deadline.after(300)))[0]
                for seed in range(seeds)]
        ms = [c * 1000 for c in cpus]
        print(f"ungraded {params.size}x{params.size}{' regions' if regions else ''}: cpu median "
              f"{statistics.median(ms):.1f} ms p95 {percentile(ms, 0.95):.1f} ms", flush=True)


def bench_levels(sizes: list[int], seeds: int) -> None:
    warm_up()
    bench_ungraded(seeds)
    for size in sizes:
        for regions in (False, True):
            for level in human.SOLVER.level_names:
                label = f"{size}x{size}{' regions' if regions else ''} {level}"
                try:
                    NumberSumsParams(size=size, regions=regions, difficulty=level)
                except ValidationError as refused:
                    print(f"{label}: refused ({refused.errors()[0]['msg']})")
                    continue
                walls, cpus, grades, hints, draws, adjustments, scores, ways = [], [], [], [], [], [], [], []
                line_rule = ambiguous = late = 0
                for seed in range(seeds):
                    params = NumberSumsParams(size=size, regions=regions, difficulty=level)
                    cpu, wall, generated = cpu_timed(lambda p=params, s=seed: generate_puzzle(p, s, Deadline.after(300)))
                    cpus.append(cpu)
                    walls.append(wall)
                    late += cpu > BUDGET
                    draws.append(generated.stats.draws)
                    adjustments.append(generated.stats.adjustments)
                    seconds, grade = timed(lambda g=generated: human.DIFFICULTY.grade(g.puzzle, Deadline.after(60)))
                    grades.append(seconds)
                    scores.append(grade.score)
                    seconds, _ = timed(lambda g=generated: human.DIFFICULTY.hint(
                        g.puzzle, human.NumberSumsState(), g.solution, Deadline.after(60)))
                    hints.append(seconds)
                    board = human.board_of(generated.puzzle)
                    line_rule += human.SOLVER.run(board, upto=0).state.solved
                    ways.extend(ways_per_line(generated.puzzle))
                    if regions:
                        ambiguous += not unique(without_regions(generated.puzzle), Deadline.after(60), None)
                cpu_ms = [c * 1000 for c in cpus]
                work = (f"cpu median {statistics.median(cpu_ms):.0f} ms p95 {percentile(cpu_ms, 0.95):.0f}, "
                        f"past {BUDGET:.0f} s {late}/{seeds}; draws mean {statistics.mean(draws):.1f}, "
                        f"adjustments mean {statistics.mean(adjustments):.1f}; "
                        f"grade median {statistics.median(grades) * 1000:.1f} ms; "
                        f"hint median {statistics.median(hints) * 1000:.1f} ms; "
                        f"score mean {statistics.mean(scores):.0f}; line rule alone {line_rule}/{seeds}; "
                        f"ways per line mean {statistics.mean(ways):.1f} max {max(ways)}"
                        + (f"; ambiguous without regions {ambiguous}/{seeds}" if regions else ""))
                print(summary(f"generate {label}", walls, work), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sizes", type=int, nargs="+", default=None,
                        help="default: 5 7 9 12, with --levels 3 7 12 (smallest, default, largest)")
    parser.add_argument("--backends", nargs="+", default=["portfolio", "search", "cadical", "z3"])
    parser.add_argument("--levels", action="store_true", help="generation per difficulty level instead")
    args = parser.parse_args()
    if args.levels:
        bench_levels(args.sizes or [3, 7, 12], args.seeds)
        return
    args.sizes = args.sizes or [5, 7, 9, 12]

    for size in args.sizes:
        for regions in (False, True):
            label = f"{size}x{size}{' regions' if regions else ''}"
            times, rounds, calls, puzzles = [], [], [], []
            for seed in range(args.seeds):
                params = NumberSumsParams(size=size, regions=regions)  # the default level, easy
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
