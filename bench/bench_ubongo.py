"""Ubongo: solve, generation and difficulty (`python -m bench.bench_ubongo [--seeds N] [--sat]
[--only CATALOGUE-MODE-PIECES] [--levels [MODE-PIECES ...]] [--published] [--default-floor]
[--piece-set-levels [--jobs N]]`).

Solve: the outlines of generated 3-, 4- and 5-piece cards (standard catalogue), every covering
enumerated in mode `given` (the card's pieces) and in mode `hidden` (any N of the 12 pieces), by
the exact-cover search and, with ``--sat``, by the SAT encoding on CaDiCaL for comparison.
Generation: per piece count and mode, with repair rounds and restarts; uniqueness of every card is
re-proven afterwards (not timed), and in mode `hidden` that the one covering is the only piece set.
``--only standard-hidden-5`` (any `catalogue-mode-pieces`) times a single configuration.

Levels (``--levels``, optionally only e.g. ``given-4``): per piece count, mode and level, generation
at that level over seeds 0..N-1 (median / p95 wall time, then this process's CPU time, the fair
figure on a shared machine; draws = unique cards made to find one of the level), with uniqueness and
the level re-proven (not timed), grading time, the mean effort score, and, as the independent
measure of how much a person must try, the dead ends of two plain exhaustive placement searches that
only know whether a piece fits (mode hidden: and whether the pieces left can make up the area): one
covering the first free cell in reading order, one the free cell with the fewest fitting placements.
``--published`` grades the published boards with a unique covering (tests/data/ubongo) and prints
the level distribution.

``--default-floor``: why the default level (3 pieces, given, medium) costs what it does against the
ungraded pipeline. CPU medians of: ungraded cards; cards drawn by that pipeline, split by the level
they grade at (a draw that already is of the level is the cheapest a level request can be); and
level requests, split by how many walk steps (``TowardLevel``) they took.

``--piece-set-levels``: counts, for every piece set of 3 to 5 pieces of both catalogues, how many of its
draws grade at each level (``generators.ubongo.count_piece_set_levels``) and writes the table a level
request in mode given weights its piece sets by (``generators/ubongo_piece_sets.json``). Run it again
whenever the generator or the grader changes; ``--jobs`` processes share the work (half a minute on 2).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from statistics import mean, median

from pydantic import ValidationError
from tqdm import tqdm

from bench.stats import percentile, summary
from generators import ubongo as generator
from generators.ubongo import UbongoParams, generate_puzzle
from solvers.common import Deadline, SolveOutcome
from solvers.ubongo import rules
from solvers.ubongo import techniques as human
from solvers.ubongo.engine import warm_up

ALL = 10**6  # "every covering"


def timed(fn: Callable[[], SolveOutcome]) -> tuple[float, SolveOutcome]:
    started = time.perf_counter()
    outcome = fn()
    return time.perf_counter() - started, outcome


def bench_solve(seeds: int, sat: bool) -> None:
    print(f"solve: every covering of generated card outlines, {seeds} seeds, standard catalogue")
    for pieces in (3, 4, 5):
        cards = [generate_puzzle(UbongoParams(pieces=pieces), seed, Deadline.never()).puzzle for seed in range(seeds)]
        for mode in ("given", "hidden"):
            if mode == "hidden":
                cards = [rules.UbongoPuzzle(shape=c.shape, mode="hidden", piece_count=pieces) for c in cards]
            runs = [timed(lambda c=c: rules.solve(c, ALL, Deadline.never())) for c in cards]
            print(summary(f"{pieces}p {mode} X", [s for s, _ in runs],
                          coverings=[len(o.solutions) for _, o in runs], nodes=[o.extra["nodes"] for _, o in runs]),
                  flush=True)
            if sat:
                sat_runs = [timed(lambda c=c: rules.solve(c, ALL, Deadline.never(), "cadical")) for c in cards]
                assert [len(o.solutions) for _, o in sat_runs] == [len(o.solutions) for _, o in runs]
                print(summary(f"{pieces}p {mode} SAT", [s for s, _ in sat_runs]), flush=True)


def bench_generate_one(catalogue: str, mode: str, pieces: int, seeds: int) -> None:
    """Median/p95 generation time of one configuration over seeds 0..seeds-1, with the work it took."""
    seconds, rounds, restarts = [], [], []
    for seed in range(seeds):
        started = time.perf_counter()
        made = generate_puzzle(UbongoParams(pieces=pieces, mode=mode, catalogue=catalogue), seed, Deadline.never())
        seconds.append(time.perf_counter() - started)
        rounds.append(made.stats.repair_rounds)
        restarts.append(made.stats.restarts)
        # Unique covering over every piece_count-subset of the catalogue (mode hidden), so one piece set too.
        assert rules.solve(made.puzzle, 2, Deadline.never()).status == "unique"
    print(summary(f"{catalogue[:3]} {pieces}p {mode}", seconds, repair_rounds=rounds, restarts=restarts), flush=True)


def bench_generate(seeds: int, only: str | None) -> None:
    print(f"generation, {seeds} seeds each")
    for catalogue in ("standard", "article"):
        for mode in ("given", "hidden"):
            for pieces in (3, 4, 5):
                if only in (None, f"{catalogue}-{mode}-{pieces}"):
                    bench_generate_one(catalogue, mode, pieces, seeds)


def plain_dead_ends(puzzle: rules.UbongoPuzzle, tightest: bool) -> int:
    """Dead ends (free cells left and no fitting placement for the chosen cell) of an exhaustive
    search that only places pieces where they fit: at the first free cell in reading order, or
    (``tightest``) at the free cell with the fewest fitting placements."""
    problem = rules.PackingProblem.of(puzzle)
    placements = [p for options in problem.by_first.values() for p in options]
    dead = 0

    def search(covered: int, used: int, left: int) -> None:
        nonlocal dead
        free = problem.full & ~covered
        if not free:
            return
        fits = [(k, mask) for k, mask in placements if not used >> k & 1 and not mask & ~free] if left else []
        if not problem.use_all:
            fits = [(k, m) for k, m in fits if problem.fillable(used | 1 << k, left - 1, free.bit_count() - m.bit_count())]
        cells = [1 << b for b in range(free.bit_length()) if free >> b & 1]
        if tightest:
            here = min(([f for f in fits if f[1] & cell] for cell in cells), key=len)
        else:
            here = [f for f in fits if f[1] & cells[0]]
        if not here:
            dead += 1
        for k, mask in here:
            search(covered | mask, used | 1 << k, left - 1)

    search(0, 0, problem.count)
    return dead


def bench_levels(seeds: int, only: list[str]) -> None:
    print(f"generation at each level, {seeds} seeds each (standard catalogue); dead ends of plain searches per card")
    for mode in ("given", "hidden"):
        for pieces in (3, 4, 5):
            if only and f"{mode}-{pieces}" not in only:
                continue
            for level in human.SOLVER.level_names:
                try:
                    params = UbongoParams(pieces=pieces, mode=mode, difficulty=level)
                except ValidationError as refused:  # a level the type does not offer at this size
                    print(f"{mode} {pieces}p {level}: refused, {refused.errors()[0]['msg']}", flush=True)
                    continue
                seconds, cpu, draws, grading, scores, reading, tightest = [], [], [], [], [], [], []
                for seed in range(seeds):
                    started, started_cpu = time.perf_counter(), time.process_time()
                    made = generate_puzzle(params, seed, Deadline.never())
                    seconds.append(time.perf_counter() - started)
                    cpu.append(time.process_time() - started_cpu)
                    assert rules.solve(made.puzzle, 2, Deadline.never()).status == "unique"  # hidden: one piece set too
                    draws.append(made.stats.draws)
                    started = time.perf_counter()
                    graded = human.grade(made.puzzle, Deadline.never())
                    grading.append(time.perf_counter() - started)
                    assert graded.level == level
                    scores.append(graded.score)
                    reading.append(plain_dead_ends(made.puzzle, tightest=False))
                    tightest.append(plain_dead_ends(made.puzzle, tightest=True))
                print(summary(f"{mode} {pieces}p {level}", seconds, draws=draws), flush=True)
                print(summary(f"{mode} {pieces}p {level} cpu", cpu), flush=True)
                print(f"    grade median {sorted(grading)[len(grading) // 2] * 1000:.1f} ms; mean score {mean(scores):.1f}; "
                      f"plain dead ends, mean: reading order {mean(reading):.1f}, tightest cell {mean(tightest):.1f}",
                      flush=True)


def bench_default_floor(seeds: int) -> None:
    params = UbongoParams()
    ungraded, drawn, asked = [], defaultdict(list), defaultdict(list)
    toward = generator.TowardLevel(params, Deadline.never())
    for seed in range(seeds):
        started = time.process_time()
        generator.generate_unique(params, seed, Deadline.never())
        ungraded.append(time.process_time() - started)
        started = time.process_time()
        arrangement = generator.generate_arrangement(params, seed, Deadline.never()).puzzle
        drawn[toward.grade(arrangement, Deadline.never()).level or "above"].append(time.process_time() - started)
        started = time.process_time()
        made = generate_puzzle(params, seed, Deadline.never())
        asked[min(made.stats.adjustments, 3)].append(time.process_time() - started)
    def line(label: str, seconds: list[float], share: bool = True) -> str:
        return (f"{label:<18} n={len(seconds):<5} median {1000 * median(seconds):6.3f} ms  "
                f"p95 {1000 * percentile(seconds, 95):6.3f} ms" + (f"  share {len(seconds) / seeds:4.0%}" if share else ""))

    print(f"3 pieces, given, {params.difficulty}; {seeds} seeds; CPU")
    print(line("ungraded", ungraded, share=False))
    for level, seconds in sorted(drawn.items()):
        print(line(f"draw, {level}", seconds))
    print(line(params.difficulty, [s for group in asked.values() for s in group], share=False))
    for steps, seconds in sorted(asked.items()):
        print(line(f"  {steps}{'+' if steps == 3 else ''} walk steps", seconds))


def _count_levels(job: tuple[str, tuple[str, ...]]) -> list[int]:
    return generator.count_piece_set_levels(*job)


def write_piece_set_levels(jobs: int) -> None:
    """``generators/ubongo_piece_sets.json``: {catalogue: {pieces: {"names": [count per level, beyond]}}}."""
    work = [(catalogue, piece_set) for catalogue in rules.CATALOGUES for pieces in (3, 4, 5)
            for piece_set in itertools.combinations(rules.CATALOGUES[catalogue], pieces)]
    with ProcessPoolExecutor(jobs, initializer=generator.warm_up) as pool:
        counts = list(tqdm(pool.map(_count_levels, work, chunksize=4), total=len(work), unit="piece set"))
    table: dict[str, dict[str, dict[str, list[int]]]] = defaultdict(lambda: defaultdict(dict))
    for (catalogue, piece_set), row in zip(work, counts, strict=True):
        table[catalogue][str(len(piece_set))][" ".join(piece_set)] = row
    text = json.dumps(table, separators=(",", ":")).replace('],"', '],\n"')
    generator.PIECE_SET_LEVELS.write_text(text + "\n")
    print(f"{len(work)} piece sets, {generator.PIECE_SET_DRAWS} draws each, written to {generator.PIECE_SET_LEVELS}")


def bench_published() -> None:
    """Level distribution of the published boards that have exactly one covering."""
    levels: Counter[str | None] = Counter()
    per_size: Counter[tuple[int, str | None]] = Counter()
    lines = (Path(__file__).parent.parent / "tests" / "data" / "ubongo" / "m-kasahr-orig.jsonl").read_text().splitlines()
    for line in map(json.loads, lines):
        width = max(len(row) for row in line["shape"])
        shape = [row.ljust(width, ".") for row in line["shape"]]
        if line["mode"] == "given" and line.get("coverings") == 1:
            card = rules.UbongoPuzzle(shape=shape, pieces=line["pieces"])
        elif line["mode"] == "hidden" and sum(c["coverings"] for c in line["combinations"]) == 1:
            card = rules.UbongoPuzzle(shape=shape, mode="hidden", piece_count=line["piece_count"])
        else:
            continue
        level = human.grade(card, Deadline.never()).level
        levels[level] += 1
        per_size[(card.piece_count or 0, level)] += 1
    print(f"published boards with one covering: {sum(levels.values())}; levels {dict(levels)}; "
          f"by piece count {dict(sorted(per_size.items(), key=str))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sat", action="store_true", help="also time the SAT encoding (CaDiCaL)")
    parser.add_argument("--only", help="generation of one configuration only, e.g. standard-hidden-5 (no solve bench)")
    parser.add_argument("--levels", nargs="*", help="generation at each level only (optionally e.g. given-4 hidden-3)")
    parser.add_argument("--published", action="store_true", help="grade the published boards only")
    parser.add_argument("--default-floor", action="store_true", help="where the default level's cost goes")
    parser.add_argument("--piece-set-levels", action="store_true", help="write the piece sets' level table")
    parser.add_argument("--jobs", type=int, default=2, help="processes for --piece-set-levels")
    args = parser.parse_args()
    if args.piece_set_levels:
        write_piece_set_levels(args.jobs)
        return
    warm_up()  # the compiled covering search, loaded before anything is timed
    if args.published:
        bench_published()
        return
    if args.default_floor:
        bench_default_floor(args.seeds)
        return
    if args.levels is not None:
        bench_levels(args.seeds, args.levels)
        return
    if args.only is None:
        bench_solve(args.seeds, args.sat)
    bench_generate(args.seeds, args.only)


if __name__ == "__main__":
    main()
