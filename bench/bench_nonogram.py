"""Nonogram solving and generation, and Simon Tatham's Pattern side by side
(`python -m bench.bench_nonogram [--solve] [--generate SIZES] [--levels L,..] [--seeds N] [--tatham N]`).

- `--solve`: every published puzzle of tests/data/nonogram up to `--max-side` (default 35, so the 30×30
  and 30×35 ones), counted up to 1,000 by the default backend; CPU time per puzzle (median, p95) and the
  search's work (nodes, line solves, probes). Every count is checked against the data.
- `--generate`: per size (`15` or `30x35`) and level, CPU time per puzzle over `--seeds` seeds, with the
  draws and adjustments, the repair rounds, the path's score and CaDiCaL's own effort (decisions plus
  conflicts to solve and prove unique: an effort measure independent of our techniques). Each puzzle's
  uniqueness is proven again by CaDiCaL and its level re-checked (not timed).
- `--tatham N`: `/usr/games/sgt-pattern --generate N RxC` (Debian's sgt-puzzles) timed by its CPU time, then
  ours at `easy` (the only class Pattern makes: solvable line by line) on the same sizes, in the same run;
  Pattern's puzzles are also graded by our techniques and counted by our solver.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import time
from pathlib import Path

from bench.stats import summary
from generators.nonogram import NonogramParams, generate_puzzle
from solvers.common import Deadline
from solvers.nonogram import rules
from solvers.nonogram import techniques as human
from solvers.sat import CadicalBackend, block
from tests.conftest import REFERENCE, read_jsonl

PATTERN = "/usr/games/sgt-pattern"


def shape(text: str) -> tuple[int, int]:
    rows, _, cols = text.partition("x")
    return int(rows), int(cols or rows)


def sat_effort(puzzle: rules.NonogramPuzzle) -> tuple[int, bool]:
    """(CaDiCaL's decisions + conflicts to find the answer and prove it the only one, unique)."""
    with CadicalBackend() as sat:
        model = rules.NonogramModel(sat, puzzle)
        assert sat.solve(Deadline.never())
        sat.add_clause(block(sat.true_vars(), model.cells))
        unique = not sat.solve(Deadline.never())
        stats = sat._solver.accum_stats()
        return stats["decisions"] + stats["conflicts"], unique


def bench_solve(max_side: int) -> None:
    records = [r for name in ("webpbn", "mikix-db", "cp-literature")
               for r in read_jsonl(REFERENCE / "nonogram" / f"{name}.jsonl")
               if max(r["puzzle"]["rows"], r["puzzle"]["cols"]) <= max_side]
    rules.warm_up()
    cpu, nodes, lines, probes = [], [], [], []
    for record in records:
        puzzle = rules.NonogramPuzzle.model_validate(record["puzzle"])
        started = time.process_time()
        outcome = rules.solve(puzzle, 1000, Deadline.after(60), keep=2)
        cpu.append(time.process_time() - started)
        want = 1000 if record.get("solutions_capped_at") else record["solutions"]
        assert outcome.count == want, (record["id"], outcome.count, want)
        work = outcome.extra.get("work", {})
        nodes.append(work.get("nodes", 0))
        lines.append(work.get("line_solves", 0))
        probes.append(work.get("probes", 0))
    sizes = sorted({(r["puzzle"]["rows"], r["puzzle"]["cols"]) for r in records}, key=lambda s: s[0] * s[1])
    print(f"solve: {len(records)} published puzzles up to {max_side} a side ({sizes[0]} to {sizes[-1]}), "
          f"counted to 1000, default backend")
    print(summary("published", cpu, nodes=nodes, line_solves=lines, probes=probes))
    big = [(s, r) for s, r in zip(cpu, records, strict=True) if r["puzzle"]["rows"] * r["puzzle"]["cols"] >= 600]
    print(summary("  >= 600 cells", [s for s, _ in big]), f"({len(big)} puzzles, e.g. 30x30 gondola, the 30x35 qnonograms)")


def bench_generate(sizes: list[tuple[int, int]], levels: list[str], seeds: int) -> dict[tuple[int, int], list[float]]:
    rules.warm_up()
    easy_cpu: dict[tuple[int, int], list[float]] = {}
    for rows, cols in sizes:
        for level in levels:
            cpu, draws, adjustments, repairs, scores, efforts = [], [], [], [], [], []
            for seed in range(seeds):
                params = NonogramParams(rows=rows, cols=cols, difficulty=level)
                started = time.process_time()
                result = generate_puzzle(params, seed, Deadline.never())
                cpu.append(time.process_time() - started)
                draws.append(result.stats.draws)
                adjustments.append(result.stats.adjustments)
                repairs.append(result.stats.repair_rounds)
                scores.append(result.difficulty.score if result.difficulty else 0.0)
                effort, unique = sat_effort(result.puzzle)
                assert unique
                efforts.append(effort)
                assert human.level_index(result.puzzle) == human.SOLVER.level_names.index(level)
            if level == "easy":
                easy_cpu[(rows, cols)] = cpu
            print(summary(f"{rows}x{cols} {level}", cpu, draws=draws, adjustments=adjustments, repairs=repairs),
                  flush=True)
            print(f"{'':<14}  effort: score median {statistics.median(scores):.0f}  CaDiCaL decisions+conflicts "
                  f"median {statistics.median(efforts):g}", flush=True)
    return easy_cpu


def parse_pattern(game_id: str) -> rules.NonogramPuzzle:
    """A Pattern game id `COLSxROWS:clues`: the columns' clues first, then the rows', `/` between lines
    and `.` between runs."""
    size, _, body = game_id.strip().partition(":")
    cols, rows = map(int, size.split("x"))
    lines = [[int(v) for v in line.split(".") if v and v != "0"] for line in body.split("/")]
    return rules.NonogramPuzzle(rows=rows, cols=cols, col_clues=lines[:cols], row_clues=lines[cols:])


def bench_tatham(count: int, sizes: list[tuple[int, int]]) -> None:
    if not Path(PATTERN).exists():
        print(f"tatham: {PATTERN} not found (apt-get install sgt-puzzles); skipped")
        return
    print(f"side by side: Tatham's Pattern ({PATTERN} --generate {count}) and ours at easy, {count} puzzles each")
    for rows, cols in sizes:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        out = subprocess.run([PATTERN, "--generate", str(count), f"{cols}x{rows}"], capture_output=True, text=True,
                             check=True).stdout.split()
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        theirs = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / count
        levels, unique = [], 0
        for game_id in out:
            puzzle = parse_pattern(game_id)
            index = human.level_index(puzzle)
            levels.append("none" if index is None else human.SOLVER.level_names[index])
            unique += rules.count_solutions(puzzle, 2, Deadline.after(30))[1] == 1
        ours = []
        for seed in range(count):
            started_cpu = time.process_time()
            generate_puzzle(NonogramParams(rows=rows, cols=cols, difficulty="easy"), seed, Deadline.never())
            ours.append(time.process_time() - started_cpu)
        print(f"{rows}x{cols}: Pattern {theirs * 1000:.1f} ms CPU a puzzle (wall {wall / count * 1000:.1f} ms; "
              f"our grader: {dict((lv, levels.count(lv)) for lv in sorted(set(levels)))}, unique {unique}/{count})"
              f"  |  ours easy: mean {statistics.mean(ours) * 1000:.1f} ms, median {statistics.median(ours) * 1000:.1f} ms "
              f"CPU a puzzle", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--solve", action="store_true")
    parser.add_argument("--max-side", type=int, default=35)
    parser.add_argument("--generate", nargs="*", default=None, help="sizes, e.g. 15 30 30x35")
    parser.add_argument("--levels", default=",".join(human.SOLVER.level_names))
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--tatham", type=int, default=0, help="puzzles per size for the side-by-side run")
    parser.add_argument("--tatham-sizes", nargs="*", default=["15", "30"])
    args = parser.parse_args()
    if not (args.solve or args.generate is not None or args.tatham):
        args.solve, args.generate, args.tatham = True, ["15", "30"], 20
    if args.solve:
        bench_solve(args.max_side)
    if args.generate:
        bench_generate([shape(s) for s in args.generate], args.levels.split(","), args.seeds)
    if args.tatham:
        bench_tatham(args.tatham, [shape(s) for s in args.tatham_sizes])


if __name__ == "__main__":
    main()
