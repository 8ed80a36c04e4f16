"""Slitherlink generation and Simon Tatham's Loopy (square grid) side by side
(`python -m bench.bench_slitherlink [--seeds N] [--sizes 7,10,15] [--tatham N]`).

- default: per size and level, wall-clock time per puzzle over `--seeds` seeds (median, p95, max), with the
  draws, restarts and solver calls each took. Every puzzle's level is graded again and its uniqueness proved
  again by `--prove` (z3 by default; with the loop's lazy cuts it takes seconds to minutes at 15x15), not timed.
- `--tatham N`: `/usr/games/sgt-loopy --generate N --time-generation <preset>` (Debian's sgt-puzzles) at his four
  square-grid levels (Easy, Normal, Tricky, Hard) for each size, and ours at the same size and the matching
  level; his puzzles are then read here (his game IDs) and graded by our techniques: the Spearman correlation
  of his level with ours, per size and over all (unsolved = above hard), and how many our solver proves unique.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from tqdm import tqdm

from bench.stats import spearman, summary
from generators.slitherlink import DIFFICULTY, SlitherlinkParams, generate_puzzle, solve
from solvers.common import Deadline
from solvers.slitherlink.tatham import parse_tatham

LOOPY = "/usr/games/sgt-loopy"
LEVELS = ("easy", "medium", "hard")
TATHAM_LEVELS = {"e": "easy", "n": "medium", "t": "hard", "h": "hard"}  # his level, and ours to time beside it


def ours(size: int, level: str, seeds: int, prove: str = "z3") -> list[float]:
    seconds, draws, restarts, calls = [], [], [], []
    for seed in tqdm(range(seeds), desc=f"{size}x{size} {level}", leave=False):
        started = time.perf_counter()
        made = generate_puzzle(SlitherlinkParams(size=size, difficulty=level), seed, Deadline.after(60))
        seconds.append(time.perf_counter() - started)
        draws.append(made.stats.draws)
        restarts.append(made.stats.restarts)
        calls.append(made.stats.solver_calls)
        assert DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level == level
        assert solve(made.puzzle, 2, Deadline.after(600), prove).count == 1
    print(summary(f"{size}x{size} {level}", seconds, draws=draws, restarts=restarts, solver_calls=calls), flush=True)
    return seconds


def tatham(count: int, sizes: list[int]) -> None:
    theirs_all: list[float] = []
    ours_all: list[float] = []
    for size in sizes:
        levels_theirs: list[float] = []
        levels_ours: list[float] = []
        for rank, (letter, level) in enumerate(TATHAM_LEVELS.items()):
            preset = f"{size}x{size}t0d{letter}"
            out = subprocess.run([LOOPY, "--generate", str(count), "--time-generation", preset], capture_output=True,
                                 text=True, check=True).stdout
            his = [float(line.rsplit(":", 1)[1]) for line in out.splitlines() if line.strip()]
            ids = subprocess.run([LOOPY, "--generate", str(count), preset], capture_output=True, text=True,
                                 check=True).stdout.split()
            mine = ours(size, level, count)
            print(f"  {preset}: Tatham median {statistics.median(his) * 1000:.1f} ms, ours ({level}) "
                  f"{statistics.median(mine) * 1000:.1f} ms: {statistics.median(mine) / statistics.median(his):.1f}x")
            graded_here, unique = [], 0
            for game_id in ids:
                puzzle = parse_tatham(game_id)
                unique += solve(puzzle, 2, Deadline.after(60)).count == 1
                graded = DIFFICULTY.grade(puzzle, Deadline.after(60)).level
                graded_here.append(LEVELS.index(graded) if graded else len(LEVELS))
            levels_theirs += [rank] * len(ids)
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
    parser.add_argument("--prove", default="z3", help="the backend that proves each puzzle unique again (z3, cadical)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.tatham:
        tatham(args.tatham, sizes)
        return
    for size in sizes:
        for level in LEVELS:
            ours(size, level, args.seeds, args.prove)


if __name__ == "__main__":
    main()
