"""Skyscrapers generation and Simon Tatham's Towers side by side
(`python -m bench.bench_skyscrapers [--seeds N] [--sizes 4,6,9] [--tatham N]`).

- default: per size and level, wall-clock time per puzzle over `--seeds` seeds (median, p95, max), with the
  draws, restarts and solver calls each took. Every puzzle's level is graded again and its uniqueness proved
  again by z3 (not timed).
- `--tatham N`: `/usr/games/sgt-towers --generate N --time-generation <preset>` (Debian's sgt-puzzles) for his
  seven presets (4×4 to 6×6; Easy, Hard, Extreme, Unreasonable), then ours at the same size and the matching
  level in the same run, and the ratio of the medians. His puzzles are then read here (his game IDs) and graded
  by our techniques: the Spearman correlation of his level with ours over all of them (unsolved = above
  expert), and how many of his our solver proves unique.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from tqdm import tqdm

from bench.stats import spearman, summary
from generators.skyscrapers import DIFFICULTY, SkyscrapersParams, generate_puzzle, solve
from solvers.common import Deadline
from solvers.skyscrapers.tatham import parse_tatham

TOWERS = "/usr/games/sgt-towers"
LEVELS = ("easy", "medium", "hard", "expert")
TATHAM_LEVELS = {"e": "easy", "h": "medium", "x": "hard", "u": "expert"}  # his Easy, Hard, Extreme, Unreasonable
PRESETS = ("4de", "5de", "5dh", "6de", "6dh", "6dx", "6du")


def ours(size: int, level: str, seeds: int) -> list[float]:
    seconds, draws, restarts, calls = [], [], [], []
    for seed in tqdm(range(seeds), desc=f"{size}x{size} {level}", leave=False):
        started = time.perf_counter()
        made = generate_puzzle(SkyscrapersParams(size=size, difficulty=level), seed, Deadline.after(120))
        seconds.append(time.perf_counter() - started)
        draws.append(made.stats.draws)
        restarts.append(made.stats.restarts)
        calls.append(made.stats.solver_calls)
        assert DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level == level
        assert solve(made.puzzle, 2, Deadline.after(60), "z3").count == 1
    print(summary(f"{size}x{size} {level}", seconds, draws=draws, restarts=restarts, solver_calls=calls), flush=True)
    return seconds


def tatham(count: int) -> None:
    theirs, mine = [], []
    for preset in PRESETS:
        size, level = int(preset[0]), TATHAM_LEVELS[preset[-1]]
        out = subprocess.run([TOWERS, "--generate", str(count), "--time-generation", preset], capture_output=True,
                             text=True, check=True).stdout
        his = [float(line.rsplit(":", 1)[1]) for line in out.splitlines() if line.strip()]
        ids = subprocess.run([TOWERS, "--generate", str(count), preset], capture_output=True, text=True,
                             check=True).stdout.split()
        seconds = ours(size, level, count)
        print(f"  {preset}: Tatham median {statistics.median(his) * 1000:.1f} ms, ours "
              f"{statistics.median(seconds) * 1000:.1f} ms: {statistics.median(seconds) / statistics.median(his):.1f}x")
        graded, unique = [], 0
        for game_id in ids:
            puzzle = parse_tatham(game_id)
            unique += solve(puzzle, 2, Deadline.after(60)).count == 1
            found = DIFFICULTY.grade(puzzle, Deadline.after(120)).level
            graded.append(LEVELS.index(found) if found else len(LEVELS))
        theirs += [list(TATHAM_LEVELS).index(preset[-1])] * len(graded)
        mine += graded
        print(f"  his {preset} graded here: " + ", ".join(f"{name} {graded.count(i)}" for i, name in
                                                          enumerate([*LEVELS, "none"])) + f"; unique {unique}/{len(ids)}")
    print(f"Spearman of his level with ours over {len(mine)} puzzles: {spearman(theirs, mine):.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sizes", default="4,6,9")
    parser.add_argument("--tatham", type=int, default=0, help="puzzles per Tatham preset (0: ours alone)")
    args = parser.parse_args()
    if args.tatham:
        tatham(args.tatham)
        return
    for size in (int(s) for s in args.sizes.split(",")):
        for level in LEVELS:
            ours(size, level, args.seeds)


if __name__ == "__main__":
    main()
