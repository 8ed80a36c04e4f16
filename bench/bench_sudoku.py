"""Sudoku: solve, generate, grade, and the peers side by side (`python -m bench.bench_sudoku [sections] [--seeds N]`).

Sections (all when none is named):
  --solve      every published 9×9 (tests/data/sudoku: Sudoku Exchange, the forum's hardest list, top95, 17-clue)
               and the 16×16 ones, solved and proven unique from scratch as `POST /solve` does, by the numba
               search and by CaDiCaL: CPU median/p95/max and the search's nodes. Each answer is checked.
  --generate   per size and level: wall and CPU median/p95, draws, adjustments, givens; each puzzle is graded
               again (it must be its level) and proven unique by CaDiCaL, so a fast wrong generator cannot look good.
  --published  the published ratings against our grades: per Sudoku Exchange bucket and SE band (and the hardest
               list by SE ER band), our level distribution and mean score; Spearman between our score and SE.
  --effort     the independent check: per level, 20 seeds, the nodes a singles-only exact search needs (mean of
               ten random digit orders) and QQWing's own rating of the same puzzles (`qqwing --solve --stats`).
  --peers      QQWing (`qqwing --generate N --difficulty D --timer`) and Tatham's Solo (`sgt-solo --generate N
               --time-generation 3x3dX`) generating 9×9 beside ours, in one run (skipped where not installed;
               Debian: apt-get install qqwing sgt-puzzles).
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import statistics
import subprocess
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

from bench.stats import percentile, spearman, summary
from generators import sudoku as gen
from solvers.common import Deadline
from solvers.sudoku import engine, rules
from solvers.sudoku import techniques as human

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "sudoku"
NINE_SETS = ("sudoku-exchange", "hardest", "top95", "17-clue")
LEVELS_AT = {4: ("easy",), 6: ("easy", "hard", "expert"), 9: human.LEVELS, 16: human.LEVELS}
QQWING = shutil.which("qqwing")
SOLO = shutil.which("sgt-solo") or ("/usr/games/sgt-solo" if Path("/usr/games/sgt-solo").exists() else None)


def read(name: str) -> list[dict]:
    from tests.conftest import read_jsonl

    return read_jsonl(DATA / f"{name}.jsonl")


def cpu_line(label: str, cpu: list[float]) -> str:
    ms = [s * 1000 for s in cpu]
    return f"{label:<22} cpu median {statistics.median(ms):7.2f} ms  p95 {percentile(ms, 95):7.2f} ms  max {max(ms):8.2f} ms"


def bench_solve() -> None:
    engine.warm_up()
    print("solve + prove unique, published puzzles (CPU time; each answer checked against the published one)")
    for label, lines in (("9x9 " + "+".join(NINE_SETS), [x for name in NINE_SETS for x in read(name)]),
                         ("16x16 sizes.jsonl", [x for x in read("sizes") if x["puzzle"]["size"] == 16])):
        print(f"  {label}: {len(lines)} puzzles")
        for backend in ("search", "cadical"):
            cpu, nodes = [], []
            for line in lines:
                puzzle = rules.SudokuPuzzle.model_validate(line["puzzle"])
                started = time.process_time()
                outcome = rules.solve(puzzle, 2, Deadline.after(60), backend)
                cpu.append(time.process_time() - started)
                assert outcome.count == 1 and outcome.solutions[0] == line["solution"], (backend, line["id"])
                if backend == "search":
                    nodes.append(engine.count(puzzle.size, rules.flat(puzzle.givens), 2, Deadline.never()).nodes)
            extra = f"  nodes median {statistics.median(nodes):g} p95 {percentile(nodes, 95):g} max {max(nodes)}" \
                if nodes else ""
            print("  " + cpu_line(backend, cpu) + extra, flush=True)
    empty = rules.SudokuPuzzle(size=9, givens=[[0] * 9] * 9)
    started = time.process_time()
    outcome = rules.solve(empty, 100_000, Deadline.after(60), keep=2)
    print(f"  empty 9x9, count_limit 100,000: count {outcome.count} in {time.process_time() - started:.2f} s CPU")


def bench_generate(sizes: list[int], seeds: int) -> None:
    engine.warm_up()
    print(f"generate, {seeds} seeds per size and level (16x16: {max(2, seeds // 4)}), symmetry rotational; "
          "wall then CPU")
    for size in sizes:
        for level in LEVELS_AT[size]:
            wall, cpu, draws, adjustments, givens = [], [], [], [], []
            for seed in range(seeds if size < 16 else max(2, seeds // 4)):
                params = gen.SudokuParams(size=size, difficulty=level)
                started, started_cpu = time.perf_counter(), time.process_time()
                made = gen.generate_puzzle(params, seed, Deadline.after(300))
                wall.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                draws.append(made.stats.draws)
                adjustments.append(made.stats.adjustments)
                givens.append(sum(1 for row in made.puzzle.givens for v in row if v))
                assert human.grade(made.puzzle, Deadline.never()).level == level, (size, level, seed)
                assert rules.solve(made.puzzle, 2, Deadline.after(60), "cadical").count == 1, (size, level, seed)
            label = f"{size}x{size} {level}"
            print(summary(label, wall, draws=draws, adjustments=adjustments, givens=givens), flush=True)
            print(cpu_line(f"{label} cpu", cpu), flush=True)




def bench_published() -> None:
    engine.warm_up()
    order = [*human.LEVELS, None]
    rows: dict[str, list] = defaultdict(list)
    rated: list[tuple[float, float]] = []
    cpu = []
    for line in read("sudoku-exchange"):
        started = time.process_time()
        graded = human.grade(rules.SudokuPuzzle.model_validate(line["puzzle"]), Deadline.never())
        cpu.append(time.process_time() - started)
        rating = line.get("rating")
        bucket = line["level"]
        band = f"SE {int(rating)}.x ({bucket})" if rating else f"{bucket} (SE < {1.5 if bucket == 'easy' else 2.5})"
        rows[band].append(graded)
        if rating:
            rated.append((rating, graded.score))
    for line in read("hardest"):
        rating = line.get("rating")
        band = f"hardest, ER {int(rating)}.x" if rating else "hardest, unrated"
        started = time.process_time()
        rows[band].append(human.grade(rules.SudokuPuzzle.model_validate(line["puzzle"]), Deadline.never()))
        cpu.append(time.process_time() - started)
    print("published puzzles graded: our level distribution and mean score per published level / rating band")
    print(f"| published | n | {' | '.join(str(level) if level else 'no level' for level in order)} | mean score |")
    print(f"|---|---|{'---|' * len(order)}---|")
    def place(band: str) -> tuple:
        number = next((int(w.split(".")[0]) for w in band.split() if w[0].isdigit() and w.endswith(".x")), -1)
        return band.startswith("hardest"), band.startswith("SE"), number, band

    for band in sorted(rows, key=place):
        counts = Counter(g.level for g in rows[band])
        print(f"| {band} | {len(rows[band])} | {' | '.join(str(counts[level]) for level in order)} | "
              f"{statistics.mean(g.score for g in rows[band]):.0f} |")
    print(f"Spearman(our score, SE rating) over {len(rated)} rated Sudoku Exchange puzzles: "
          f"{spearman([r for r, _ in rated], [s for _, s in rated]):.3f}")
    print(cpu_line("grade cpu", cpu))


def qqwing_ratings(lines: list[str]) -> tuple[Counter, list[int]]:
    out = subprocess.run([QQWING, "--solve", "--stats", "--one-line", "--nosolution"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout  # type: ignore[list-item]
    levels = Counter(x.split(":")[1].strip() for x in out.splitlines() if x.startswith("Difficulty"))
    guesses = [int(x.split(":")[1]) for x in out.splitlines() if x.startswith("Number of Guesses")]
    return levels, guesses


def bench_effort(seeds: int = 20) -> None:
    engine.warm_up()
    print(f"independent effort per level, 9x9, {seeds} seeds: singles-only search nodes (mean of 10 random digit "
          "orders), QQWing's rating of the same puzzles")
    for level in human.LEVELS:
        efforts, lines = [], []
        for seed in range(seeds):
            made = gen.generate_puzzle(gen.SudokuParams(size=9, difficulty=level), seed, Deadline.after(120))
            givens = rules.flat(made.puzzle.givens)
            rng = random.Random(seed)
            nodes = [engine.Search(9, givens, 2, 0, np.array([rng.sample(range(1, 10), 9) for _ in range(81)],
                                                             dtype=np.int32)).run(Deadline.never()).nodes
                     for _ in range(10)]
            efforts.append(statistics.mean(nodes))
            lines.append("".join(str(v) if v else "." for v in givens))
        shown = f"{level:<7} search nodes mean {statistics.mean(efforts):5.2f}"
        if QQWING:
            levels, guesses = qqwing_ratings(lines)
            shown += f"  QQWing: {dict(sorted(levels.items()))}, guesses mean {statistics.mean(guesses):.2f}"
        print(shown, flush=True)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_peers(count: int) -> None:
    engine.warm_up()
    print(f"9x9 generation side by side, {count} puzzles each (per-puzzle wall times; Solo's include the draws it "
          "rejected, QQWing's only the attempt it kept, so its mean over all attempts is added)")
    for level in human.LEVELS:
        wall = []
        started_cpu = time.process_time()
        for seed in range(count):
            started = time.perf_counter()
            gen.generate_puzzle(gen.SudokuParams(size=9, difficulty=level), seed, Deadline.after(300))
            wall.append(time.perf_counter() - started)
        cpu = (time.process_time() - started_cpu) / count
        print(summary(f"ours {level}", wall), f" CPU mean per puzzle {1000 * cpu:.1f} ms", flush=True)
    if QQWING:
        for level in ("simple", "easy", "intermediate", "expert"):
            before = children_cpu()
            out = subprocess.run([QQWING, "--generate", str(count), "--difficulty", level, "--timer", "--one-line"],
                                 capture_output=True, text=True, check=True).stdout
            cpu = (children_cpu() - before) / count
            seconds = [float(x.split()[1]) / 1000 for x in out.splitlines() if x.startswith("Time:")]
            total = float(next(x for x in out.splitlines() if " generated in " in x).split()[4])
            # QQWing times only the attempt it keeps; its total includes the attempts of other levels it drew
            print(summary(f"qqwing {level}", seconds), f" CPU mean per puzzle {1000 * cpu:.1f} ms (wall, all "
                  f"attempts {1000 * total / count:.1f} ms)", flush=True)
    else:
        print("qqwing not installed: skipped (apt-get install qqwing)")
    if SOLO:
        for code, name in (("t", "trivial"), ("b", "basic"), ("i", "intermediate"), ("a", "advanced"),
                           ("e", "extreme"), ("u", "unreasonable")):
            before = children_cpu()
            out = subprocess.run([SOLO, "--generate", str(count), "--time-generation", f"3x3d{code}"],
                                 capture_output=True, text=True, check=True).stdout
            cpu = (children_cpu() - before) / count
            seconds = [float(x.rsplit(":", 1)[1]) for x in out.splitlines() if x.startswith("Solo")]
            print(summary(f"solo {name}", seconds), f" CPU mean per puzzle {1000 * cpu:.1f} ms", flush=True)
    else:
        print("sgt-solo not installed: skipped (apt-get install sgt-puzzles)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for section in ("solve", "generate", "published", "effort", "peers"):
        parser.add_argument(f"--{section}", action="store_true")
    parser.add_argument("--seeds", type=int, default=40, help="seeds per size and level (peers: puzzles each)")
    parser.add_argument("--sizes", type=int, nargs="*", default=[4, 6, 9, 16])
    args = parser.parse_args()
    everything = not any((args.solve, args.generate, args.published, args.effort, args.peers))
    if args.solve or everything:
        bench_solve()
    if args.generate or everything:
        bench_generate(args.sizes, args.seeds)
    if args.published or everything:
        bench_published()
    if args.effort or everything:
        bench_effort()
    if args.peers or everything:
        bench_peers(args.seeds)


if __name__ == "__main__":
    main()
