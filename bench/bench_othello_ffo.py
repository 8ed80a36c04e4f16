"""Othello engine on the FFO endgame suite: best score, every move scored exactly, and (if given a
path to it) Edax solving the same positions side by side in the same run.

    PYTHONPATH=. python -m bench.bench_othello_ffo [--from 20] [--to 39] [--all-moves] [--edax PATH]

Times are CPU seconds of the process doing the search (the machine is shared, so wall time is noisy),
except that scoring every move runs ``--threads`` searches side by side (by default as the service does:
one per core from 16 empties), so it prints wall time too, and the 20 s budget is the service's, a
wall-clock one. Each position starts from an empty transposition table, as a fresh Edax process does.
Edax is run single-threaded (``-n 1``) with ``-solve`` on a one-line problem file at level 60
(``-l 60``), which solves exactly: at its default level 21 it searches positions of 24 empties and more
selectively, stops short of an exact solve and can miss (it gives FFO #48 as +10, not +28). It reads its
evaluation weights from ``--edax-eval`` (default: ``data/eval.dat`` beside its ``bin/``). This script
never builds or fetches Edax. To build it: the source of abulmo/edax-reversi,
``make build CC=gcc ARCH=x86-64-v3`` in ``src/``. Without its weights (a release download), give it
``data/eval.dat`` of 13,952,436 bytes: the header ``XADELAVE``, 4, 4 (16 bytes) and zeros. That Edax
still solves exactly but loses its evaluation-based move ordering, so the real Edax is faster than the
figures this prints.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from solvers import othello as rules
from solvers import othello_engine as engine
from solvers.common import BudgetExceeded, Deadline

FFO = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello" / "ffo.obf"
BUDGET_SECONDS = 20.0  # the service's solve budget
EDAX_CPU = re.compile(r"(\d+) nodes in .*\(cpu =\s*(?:(\d+):)?(\d+):(\d+\.\d+)")


def ffo_lines() -> list[str]:
    return [line for line in FFO.read_text().splitlines() if line.strip() and not line.startswith("%")]


def wall_and_cpu_seconds(run) -> tuple[float, float, object]:  # noqa: ANN001
    started, cpu_started = time.perf_counter(), time.process_time()
    result = run()
    return time.perf_counter() - started, time.process_time() - cpu_started, result


def best_score(p: int, o: int) -> tuple[int, int]:
    engine.table().clear()
    counters = engine.Counters.with_limit(1 << 62)
    return engine.exact_value(p, o, -engine.SCORE_MAX, engine.SCORE_MAX, counters), counters.nodes


def all_moves(p: int, o: int, budget: float | None, threads: int | None) -> rules.MoveScores | None:
    engine.table().clear()
    scorer = rules.MoveScorer(p, o, Deadline.after(budget), threads=threads)
    try:
        scorer.settle()
    except BudgetExceeded:
        return None
    return scorer.scores()


def edax_solve(edax: Path, eval_file: Path, line: str) -> tuple[float, int]:
    """(CPU seconds, nodes) Edax reports for solving one position."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf") as problem:
        problem.write(line + "\n")
        problem.flush()
        out = subprocess.run([str(edax), "-solve", problem.name, "-n", "1", "-l", "60", "-eval-file", str(eval_file)],
                             cwd=edax.parent, capture_output=True, text=True, check=True).stdout
    found = EDAX_CPU.search(out)
    if found is None:
        raise RuntimeError(f"unexpected Edax output:\n{out}")
    if "erroneous score" in out:
        raise RuntimeError(f"Edax's score differs from the published one:\n{out}")
    nodes, hours, minutes, seconds = found.groups()
    return 3600 * int(hours or 0) + 60 * int(minutes) + float(seconds), int(nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, default=20)
    parser.add_argument("--to", dest="last", type=int, default=39)
    parser.add_argument("--all-moves", action="store_true", help="also score every move exactly")
    parser.add_argument("--budget", type=float, default=None,
                        help="time budget for --all-moves (default: none, to measure the full cost)")
    parser.add_argument("--threads", type=int, default=None,
                        help=f"searches side by side for --all-moves (default: as the service, {rules.SCORING_THREADS} "
                             f"from {rules.THREADS_MIN_EMPTIES} empties, else 1)")
    parser.add_argument("--edax", type=Path, help="path to an Edax binary, to run side by side")
    parser.add_argument("--edax-eval", type=Path, help="Edax's eval.dat (default: ../data/eval.dat from the binary)")
    args = parser.parse_args()
    engine.warm_up()
    eval_file = args.edax_eval or (args.edax.parent.parent / "data" / "eval.dat" if args.edax else None)
    totals: dict[str, float] = {"best": 0.0, "edax": 0.0, "all": 0.0, "all cpu": 0.0}
    ratios, over_budget = [], []
    print(f"{'#':>3} {'empties':>7} {'best s':>8} {'nodes':>7} {'M/s':>5}"
          + (" {:>8} {:>7} {:>6}".format("edax s", "nodes", "ratio") if args.edax else "")
          + (f" {'all s':>8} {'cpu s':>8} {'nodes':>7}" if args.all_moves else ""))
    lines = ffo_lines()
    for number in range(args.first, args.last + 1):
        line = lines[number - 1]
        board, side = line.split()[:2]
        side = side.rstrip(";")
        p, o = rules.position(board, side)
        _, seconds, (value, nodes) = wall_and_cpu_seconds(lambda: best_score(p, o))  # noqa: B023
        totals["best"] += seconds
        row = f"{number:>3} {board.count('-'):>7} {seconds:8.2f} {nodes / 1e6:6.1f}M {nodes / 1e6 / seconds:5.1f}"
        if args.edax:
            edax_seconds, edax_nodes = edax_solve(args.edax, eval_file, line)
            totals["edax"] += edax_seconds
            ratios.append(seconds / max(edax_seconds, 1e-3))
            row += f" {edax_seconds:8.2f} {edax_nodes / 1e6:6.1f}M {ratios[-1]:6.2f}"
        if args.all_moves:
            seconds, cpu, scores = wall_and_cpu_seconds(lambda: all_moves(p, o, args.budget, args.threads))  # noqa: B023
            totals["all"] += seconds
            totals["all cpu"] += cpu
            if scores is None or seconds > BUDGET_SECONDS:
                over_budget.append(number)
            row += f" {seconds:8.2f} {cpu:8.2f} " + (f"{scores.nodes / 1e6:6.1f}M" if scores else "budget")
        print(row, flush=True)
    print(f"total CPU: best score {totals['best']:.1f} s"
          + (f", Edax {totals['edax']:.1f} s (ratio {totals['best'] / totals['edax']:.2f}, "
             f"median per position {statistics.median(ratios):.2f})" if args.edax else "")
          + (f"; every move {totals['all']:.1f} s wall, {totals['all cpu']:.1f} s CPU; "
             f"over {BUDGET_SECONDS:.0f} s wall: {over_budget or 'none'}" if args.all_moves else ""))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if args.edax:
        print(f"(Edax child processes: {usage.ru_utime + usage.ru_stime:.1f} s CPU in all, start-up included)")


if __name__ == "__main__":
    main()
