"""Our generator beside Simon Tatham's, for every type his collection has
(`python -m bench.versus_tatham [--types light-up,hashi] [--count 20] [--seeds N]`).

For each of a type's `tatham_presets` (generators/spec.py), in one run:
- his `/usr/games/sgt-<game> --generate N --time-generation <preset>` (Debian's sgt-puzzles): seconds per puzzle;
- ours at the matching parameters over `--seeds` seeds (default N): median, p95 and max, with the boards drawn,
  restarts and solver calls; each of our puzzles graded again at its level and proved unique by the type's second
  backend (not timed); then the ratio of the medians;
- his N game IDs of the preset read here (`parse_tatham`), proved unique by our solver and graded by our levels.
Per type: the Spearman correlation of his level rank with ours (a puzzle our levels cannot solve counts as above
the hardest), over every preset.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from tqdm import tqdm

from bench.stats import spearman, summary
from generators.registry import TYPES
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Deadline


def theirs(game: str, preset: TathamPreset, count: int) -> tuple[list[float], list[str]]:
    """His seconds per puzzle, and the game IDs of another run of the same preset."""
    program = f"/usr/games/sgt-{game}"
    timed = subprocess.run([program, "--generate", str(count), "--time-generation", preset.preset],
                           capture_output=True, text=True, check=True).stdout
    seconds = [float(line.rsplit(":", 1)[1]) for line in timed.splitlines() if line.strip()]
    ids = subprocess.run([program, "--generate", str(count), preset.preset], capture_output=True, text=True,
                         check=True).stdout.split()
    return seconds, ids


def ours(kind: PuzzleType, preset: TathamPreset, seeds: int) -> list[float]:
    """Our seconds per puzzle at the preset's parameters; each puzzle checked afterwards, untimed."""
    params = kind.params_model(**preset.params)
    seconds, draws, restarts, calls = [], [], [], []
    for seed in tqdm(range(seeds), desc=f"{kind.name} {preset.params}", leave=False):
        started = time.perf_counter()
        made = kind.generate(params, seed, Deadline.after(120))
        seconds.append(time.perf_counter() - started)
        draws.append(made.stats.draws)
        restarts.append(made.stats.restarts)
        calls.append(made.stats.solver_calls)
        level = getattr(params, "difficulty", None)
        if kind.difficulty is not None and level is not None:
            graded = kind.difficulty.grade(made.puzzle, Deadline.after(120)).level
            assert graded == level, f"seed {seed}: made at {level}, graded {graded}"
        second = kind.backends[-1]
        assert kind.solve(made.puzzle, 2, Deadline.after(600), second).count == 1, f"seed {seed}: not unique"
    print(summary(f"  ours {preset.params}", seconds, draws=draws, restarts=restarts, solver_calls=calls), flush=True)
    return seconds


def compare(kind: PuzzleType, count: int, seeds: int) -> None:
    assert kind.tatham_game is not None and kind.parse_tatham is not None
    levels = kind.difficulty.names if kind.difficulty is not None else []
    his_levels: list[int] = []
    our_levels: list[int] = []
    for preset in kind.tatham_presets:
        his_seconds, ids = theirs(kind.tatham_game, preset, count)
        mine = ours(kind, preset, seeds)
        his = statistics.median(his_seconds)
        ratio = f"{statistics.median(mine) / his:.1f}x" if his > 0 else "his time below his clock's resolution"
        print(f"{kind.name} {preset.preset}: Tatham median {his * 1000:.1f} ms, ours "
              f"{statistics.median(mine) * 1000:.1f} ms: {ratio}", flush=True)
        unique, graded_here = 0, []
        for game_id in ids:
            puzzle = kind.parse_tatham(game_id)
            unique += kind.solve(puzzle, 2, Deadline.after(120)).count == 1
            if kind.difficulty is not None:
                level = kind.difficulty.grade(puzzle, Deadline.after(120)).level
                graded_here.append(levels.index(level) if level in levels else len(levels))
        print(f"  his {preset.preset}: unique here {unique}/{len(ids)}" + ("; graded here: " + ", ".join(
            f"{name} {graded_here.count(i)}" for i, name in enumerate([*levels, "none"])) if graded_here else ""))
        his_levels += [preset.level] * len(graded_here)
        our_levels += graded_here
    if len(set(his_levels)) > 1:
        print(f"{kind.name}: Spearman of his level with ours over {len(our_levels)} puzzles: "
              f"{spearman(his_levels, our_levels):.2f}", flush=True)


def main() -> None:
    known = [name for name, kind in TYPES.items() if kind.tatham_presets]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--types", default=",".join(known), help=f"any of {', '.join(known)}")
    parser.add_argument("--count", type=int, default=20, help="his puzzles per preset (timed, and graded here)")
    parser.add_argument("--seeds", type=int, default=0, help="our puzzles per preset (0: as many as his)")
    args = parser.parse_args()
    for name in args.types.split(","):
        if name not in known:
            parser.error(f"{name!r} has no Tatham presets; known: {', '.join(known)}")
        compare(TYPES[name], args.count, args.seeds or args.count)


if __name__ == "__main__":
    main()
