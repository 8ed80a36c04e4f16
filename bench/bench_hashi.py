"""Hashi generation and Simon Tatham's Bridges side by side
(`python -m bench.bench_hashi [--seeds N] [--sizes 7,10,15] [--tatham N]`).

- default: per size and level, wall-clock time per puzzle over `--seeds` seeds (median, p95, max), with the
  boards drawn (restarts: boards not unique, or not solvable at the level) and solver calls. Every puzzle's
  level is graded again and its uniqueness proved again by z3 (not timed).
- `--tatham N`: `/usr/games/sgt-bridges --generate N --time-generation <preset>` (Debian's sgt-puzzles) for his
  nine presets (7×7, 10×10, 15×15; easy, medium, hard), then ours at the same size and level in the same run,
  and the ratio of the medians. His puzzles are then read here (his game IDs) and graded by our techniques:
  the Spearman correlation of his level with ours, per size and over all (unsolved = above hard), and how many
  of his our solver proves unique.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from tqdm import tqdm

from bench.stats import spearman, summary
from generators.hashi import DIFFICULTY, HashiParams, generate_puzzle, solve
from solvers.common import Deadline
from solvers.hashi.tatham import parse_tatham

BRIDGES = "/usr/games/sgt-bridges"
LEVELS = ("easy", "medium", "hard")
PRESET = "{0}x{0}i30e10m2d{1}"  # his Easy, Medium, Hard are d0, d1, d2


def ours(size: int, level: str, seeds: int) -> list[float]:
    seconds, restarts, calls = [], [], []
    for seed in tqdm(range(seeds), desc=f"{size}x{size} {level}", leave=False):
        started = time.perf_counter()
        made = generate_puzzle(HashiParams(size=size, difficulty=level), seed, Deadline.after(60))
        seconds.append(time.perf_counter() - started)
        restarts.append(made.stats.restarts)
        calls.append(made.stats.solver_calls)
        assert DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level == level
        assert solve(made.puzzle, 2, Deadline.after(60), "z3").count == 1
    print(summary(f"{size}x{size} {level}", seconds, restarts=restarts, solver_calls=calls), flush=True)
    return seconds


def tatham(count: int, sizes: list[int]) -> None:
    theirs_all, ours_all = [], []
    for size in sizes:
        levels_theirs, levels_ours = [], []
        for difficulty, level in enumerate(LEVELS):
            preset = PRESET.format(size, difficulty)
            out = subprocess.run([BRIDGES, "--generate", str(count), "--time-generation", preset], capture_output=True,
                                 text=True, check=True).stdout
            his = [float(line.rsplit(":", 1)[1]) for line in out.splitlines() if line.strip()]
            ids = subprocess.run([BRIDGES, "--generate", str(count), preset], capture_output=True, text=True,
                                 check=True).stdout.split()
            mine = ours(size, level, count)
            print(f"  {preset}: Tatham median {statistics.median(his) * 1000:.1f} ms, ours "
                  f"{statistics.median(mine) * 1000:.1f} ms: {statistics.median(mine) / statistics.median(his):.1f}x")
            unique, graded_here = 0, []
            for game_id in ids:
                puzzle = parse_tatham(game_id)
                unique += solve(puzzle, 2, Deadline.after(60)).count == 1
                graded = DIFFICULTY.grade(puzzle, Deadline.after(60)).level
                graded_here.append(LEVELS.index(graded) if graded else len(LEVELS))
            levels_theirs += [difficulty] * len(graded_here)
            levels_ours += graded_here
            print(f"  his {preset} graded here: " + ", ".join(
                f"{name} {graded_here.count(i)}" for i, name in enumerate([*LEVELS, "none"])) + f"; unique {unique}/{len(ids)}")
        print(f"{size}x{size}: Spearman of his level with ours over {len(levels_ours)} puzzles: "
              f"{spearman(levels_theirs, levels_ours):.2f}", flush=True)
        theirs_all += levels_theirs
        ours_all += levels_ours
    print(f"all sizes: Spearman {spearman(theirs_all, ours_all):.2f} over {len(ours_all)} puzzles")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sizes", default="7,10,15")
    parser.add_argument("--tatham", type=int, default=0, help="puzzles per Tatham preset (0: ours alone)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.tatham:
        tatham(args.tatham, sizes)
        return
    for size in sizes:
        for level in LEVELS:
            ours(size, level, args.seeds)


if __name__ == "__main__":
    main()
