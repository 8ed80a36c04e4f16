"""Shikaku's generation per level and size over ranges of seeds, with the tail (`python -m bench.bench_shikaku
[--cases hard:12,medium:12] [--seeds 0-50,1000-1050]`).

Per case (``level:size``) and seed range, in-process: this process's CPU time per puzzle (median, p95, max: the
issue's "max ≤ 3 s" is a tail figure, which ``bench.bench_levels`` does not print), the slowest seeds, each
puzzle graded again at its level (not timed; a puzzle off its level stops the run), and a digest of the puzzles
made, which tells whether a change to the generator kept the same puzzles for the same seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from bench.stats import summary
from generators.registry import TYPES
from solvers.common import Deadline


def seed_ranges(text: str) -> list[range]:
    """``0-50,1000-1050`` (ends excluded) or single seeds."""
    return [range(*map(int, part.split("-"))) if "-" in part else range(int(part), int(part) + 1)
            for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="hard:12,medium:12,easy:9,medium:9,hard:9", help="level:size, ...")
    parser.add_argument("--seeds", default="0-50,1000-1050", help="seed ranges, each its own line")
    args = parser.parse_args()
    kind = TYPES["shikaku"]
    assert kind.difficulty is not None
    if kind.warm_up is not None:
        kind.warm_up()
    for case in args.cases.split(","):
        level, size = case.split(":")
        params = kind.params_model(size=int(size), difficulty=level)
        for seeds in seed_ranges(args.seeds):
            seconds, digest = [], hashlib.sha256()
            for seed in seeds:
                started = time.process_time()
                made = kind.generate(params, seed, Deadline.never())
                seconds.append(time.process_time() - started)
                graded = kind.difficulty.grade(made.puzzle, Deadline.never()).level
                assert graded == level, f"seed {seed} graded {graded}"
                digest.update(json.dumps(made.puzzle.model_dump(), sort_keys=True).encode())
            slowest = sorted(zip(seconds, seeds, strict=True), reverse=True)[:3]
            print(summary(f"{level} {size}×{size}", seconds), f"seeds {seeds.start}-{seeds.stop - 1}",
                  "slowest " + ", ".join(f"{seed} ({1000 * s:.0f} ms)" for s, seed in slowest),
                  f"puzzles {digest.hexdigest()[:12]}", sep="  ", flush=True)


if __name__ == "__main__":
    main()
