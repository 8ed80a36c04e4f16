"""Othello engine on the FFO endgame suite: best score, every move scored exactly, and (if given a
path to them) Edax and Egaroucid solving the same positions side by side in the same run.

    PYTHONPATH=. python -m bench.bench_othello_ffo [--from 20] [--to 39] [--all-moves] [--verify [--http URL]]
        [--edax PATH] [--egaroucid PATH [--egaroucid-eval FILE]]

``--http URL`` sends verify's requests to a running service (``POST URL/verify/othello``, one at a time) instead of
running them here: its wall seconds, a 503 counted as out of budget; the service's table is not cleared between them.

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

``--egaroucid PATH`` runs Egaroucid for Console (Nyanyan/Egaroucid) the same way: one thread (``-t 1``),
level 60 (``-l 60``, exact from the root: its lower levels search 24+ empties selectively), no book
(``-nobook``), its transposition table as large as it likes (2^25 entries, 768 MB; ours has 2^20, 24 MB;
``--egaroucid-hash 20`` gives it ours). It is kept running for the whole run and fed ``clearcache`` (its
transposition table emptied, as its own ``-solve`` does before each problem), ``setboard`` and ``go`` on
standard input, so its time is the CPU time of its process (``/proc/PID/stat``) across ``go`` alone,
without its start-up (about 2 s, mostly the 768 MB table it allocates); its own wall-clock time is printed
beside it. Its best score must equal the published one, and its best move be one of the moves that reach
it. This script never builds or fetches Egaroucid. It is built from the source of Nyanyan/Egaroucid as its
own console documentation says (one file, ``src/Egaroucid_for_Console.cpp``, with its AVX-512 and AMD
options where the CPU has them), the binary in its ``bin/``. It reads ``resources/`` beside the binary:
the endgame move-ordering weights ``eval_move_ordering_end.egev`` (fixed name; without them it will not
start) and its evaluation weights, ``--egaroucid-eval`` (default ``resources/eval.egev2``; without them it
will not start either). When that file is absent (it is over 4 MB, and some copies of the repository lack
it), this script writes zero weights in its format and says so: an int32 count, then int16 codes, a code
c >= 4096 standing for c - 4096 zeros; 60 phases x (612,360 pattern weights + 65 disc-count weights) =
36,745,500 zeros (the count of version 7.8; Egaroucid does not check it). That Egaroucid still solves
exactly, with its endgame move-ordering weights, but its midgame evaluation is zero: the shallow searches
that order moves far from the end, and the selective pre-searches it runs before the exact one, learn
nothing from it, so the real Egaroucid is faster than the figures this prints (its own
benchmark/ffo_endgame_test.txt gives #40-#49 at one thread with its weights: 0.56 billion nodes, about
10 s on a Core i9-13900K).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import resource
import signal
import statistics
import struct
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

from solvers.common import BudgetExceeded, Deadline
from solvers.othello import engine, rules

FFO = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello" / "ffo.obf"
BUDGET_SECONDS = 20.0  # the service's solve budget
EDAX_CPU = re.compile(r"(\d+) nodes in .*\(cpu =\s*(?:(\d+):)?(\d+):(\d+\.\d+)")
# Egaroucid's answer to go: |level|depth@probability%|move|score|time|nodes|NPS|
EGAROUCID_ROW = re.compile(r"^\|\s*(\d+)\|\s*(\d+)@([\d.]+)%\|\s*(\w+)\|\s*([+-]?\d+)\|\s*(\d+):(\d+):(\d+\.\d+)\|"
                           r"\s*(\d+)\|")
EGAROUCID_ZEROS_PLUS = 4096  # a code >= this in an .egev2 file stands for (code - 4096) zeros
EGAROUCID_EVAL_ZEROS = 60 * (612_360 + 65)  # phases x (pattern weights + disc-count weights), version 7.8


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


def verify_best(board: str, side: str, line: str, http: str | None = None) -> tuple[float, float | None]:
    """Verify of the published best move with ``task`` best, as ``POST /verify/othello`` runs it (its threads
    and the service's verify budget), or through the service at ``http``; wall and CPU seconds (no CPU through
    the service). Raises if a fact differs from the published ones, BudgetExceeded when the budget ran out."""
    moves = published_moves(line)
    best = max(moves.values())
    move = min(m for m, score in moves.items() if score == best)
    puzzle = rules.OthelloPuzzle(board=board, to_move=side, task="best")
    cpu: float | None
    if http is None:
        engine.table().clear()
        wall, cpu, (violations, facts) = wall_and_cpu_seconds(
            lambda: rules.assess(puzzle, rules.OthelloAnswer(move=move), Deadline.after(BUDGET_SECONDS)))
    else:
        started, cpu = time.perf_counter(), None
        reply = httpx.post(f"{http}/verify/othello", json={"puzzle": puzzle.model_dump(), "answer": {"move": move}},
                           timeout=BUDGET_SECONDS + 60)
        wall = time.perf_counter() - started
        if reply.status_code == 503:
            raise BudgetExceeded(reply.text)
        reply.raise_for_status()
        facts = reply.json()
        violations = facts["violations"]
    only = list(moves.values()).count(best) == 1
    if violations or facts["score"] != best or facts["best_score"] != best or facts["only_solving_move"] != only:
        raise RuntimeError(f"verify of {move}: {violations} {facts}, published best {best:+d}, only {only}")
    return wall, cpu


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


def write_zero_egaroucid_eval(path: Path) -> None:
    """Egaroucid's evaluation weights, all zero, in its compressed .egev2 format."""
    codes, left = [], EGAROUCID_EVAL_ZEROS
    while left:
        run = min(left, 0x7FFF - EGAROUCID_ZEROS_PLUS)
        codes.append(EGAROUCID_ZEROS_PLUS + run)
        left -= run
    path.write_bytes(struct.pack(f"<i{len(codes)}h", len(codes), *codes))


def _die_with_parent() -> None:
    """In the child: SIGKILL when this script ends, however it ends (at the end of its input Egaroucid
    would spin, reading empty commands forever)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Egaroucid:
    """One Egaroucid for Console process, one thread, level 60, no book, driven on its standard input."""

    def __init__(self, binary: Path, eval_file: Path, work: Path, hash_level: int | None = None):
        binary = binary.resolve()
        self.stderr = (work / "egaroucid.stderr").open("w+")
        self.options = ["-t", "1", "-l", "60", "-nobook"] + (["-hash", str(hash_level)] if hash_level is not None else [])
        self.process = subprocess.Popen(
            [str(binary), *self.options, "-noboard", "-eval", str(eval_file)],
            cwd=binary.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, text=True,
            bufsize=1, preexec_fn=_die_with_parent)
        self.version = self._sync()[0]
        self.ticks = os.sysconf("SC_CLK_TCK")

    def _send(self, *commands: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(command + "\n" for command in commands))
        self.process.stdin.flush()

    def _read_line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            self.stderr.seek(0)
            raise RuntimeError(f"Egaroucid ended (exit status {self.process.returncode}):\n{self.stderr.read()[-2000:]}")
        return line.rstrip("\n")

    def _sync(self) -> list[str]:
        """Everything it printed until it has read and carried out every command sent so far."""
        self._send("version")
        lines = [self._read_line()]
        while not lines[-1].strip().startswith("@website"):
            lines.append(self._read_line())
        return lines[-6:]

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.ticks  # utime, stime

    def solve(self, board: str, side: str) -> tuple[float, float, int, str, int, int]:
        """(CPU seconds, its own wall seconds, nodes, best move, best score, depth) for one position,
        from an empty transposition table."""
        self._send("clearcache", f"setboard {board}{side}")
        self._sync()
        cpu_started = self.cpu_seconds()
        self._send("go")
        output = []
        while (found := EGAROUCID_ROW.match(output[-1] if output else "")) is None:
            output.append(self._read_line())
            if output[-1].startswith("[ERROR]"):
                raise RuntimeError(f"Egaroucid: {output[-1]}")
        cpu = self.cpu_seconds() - cpu_started
        _, depth, probability, move, score, hours, minutes, seconds, nodes = found.groups()
        if float(probability) != 100:
            raise RuntimeError(f"Egaroucid searched selectively, not exactly: {output[-1]}")
        wall = 3600 * int(hours) + 60 * int(minutes) + float(seconds)
        return cpu, wall, int(nodes), move.upper(), int(score), int(depth)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._send("quit")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.stderr.close()


def published_moves(line: str) -> dict[str, int]:
    """The FFO line's moves and their exact scores, e.g. {"A2": 38, "C7": 36, ...}."""
    return {move: int(score) for move, score in re.findall(r"([A-H][1-8]):([+-]\d+)", line)}


def egaroucid_check(number: int, line: str, move: str, score: int, depth: int) -> None:
    moves = published_moves(line)
    best = max(moves.values())
    if depth != line.split()[0].count("-") or score != best or moves.get(move) != best:
        raise RuntimeError(f"FFO #{number}: Egaroucid gives {move} {score:+d} (depth {depth}); published best "
                           f"{best:+d} by {[m for m, s in moves.items() if s == best]}")


def egaroucid_eval(args: argparse.Namespace, work: Path) -> tuple[Path, str]:
    """The evaluation file to give Egaroucid, and what it is."""
    resources = args.egaroucid.resolve().parent / "resources"
    ordering = resources / "eval_move_ordering_end.egev"
    ordering_said = (f"endgame move ordering {ordering} ({ordering.stat().st_size:,} bytes)" if ordering.exists()
                     else f"endgame move ordering {ordering} absent (it will not start)")
    eval_file = args.egaroucid_eval or resources / "eval.egev2"
    if eval_file.exists():
        return eval_file, f"evaluation {eval_file} ({eval_file.stat().st_size:,} bytes), {ordering_said}"
    zeros = work / "zero.egev2"
    write_zero_egaroucid_eval(zeros)
    return zeros, f"evaluation: zero weights ({eval_file} absent), {ordering_said}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, default=20)
    parser.add_argument("--to", dest="last", type=int, default=39)
    parser.add_argument("--all-moves", action="store_true", help="also score every move exactly")
    parser.add_argument("--verify", action="store_true",
                        help="also verify the published best move (task best) as POST /verify/othello does, in its budget")
    parser.add_argument("--http", help="with --verify: a running service's base URL, to verify through it")
    parser.add_argument("--budget", type=float, default=None,
                        help="time budget for --all-moves (default: none, to measure the full cost)")
    parser.add_argument("--threads", type=int, default=None,
                        help=f"searches side by side for --all-moves (default: as the service, {rules.SCORING_THREADS} "
                             f"from {rules.THREADS_MIN_EMPTIES} empties, else 1)")
    parser.add_argument("--edax", type=Path, help="path to an Edax binary, to run side by side")
    parser.add_argument("--edax-eval", type=Path, help="Edax's eval.dat (default: ../data/eval.dat from the binary)")
    parser.add_argument("--egaroucid", type=Path, help="path to an Egaroucid for Console binary, to run side by side")
    parser.add_argument("--egaroucid-eval", type=Path,
                        help="Egaroucid's evaluation weights (default: resources/eval.egev2 beside the binary; "
                             "zero weights if that is absent)")
    parser.add_argument("--egaroucid-hash", type=int,
                        help="Egaroucid's table of 2^LEVEL entries of 24 bytes (default: its own, 25, 768 MB; "
                             f"ours has 2^{engine.TT_BITS})")
    args = parser.parse_args()
    if args.egaroucid_eval and not args.egaroucid_eval.exists():
        parser.error(f"no file {args.egaroucid_eval}")
    with tempfile.TemporaryDirectory() as work:
        egaroucid = None
        if args.egaroucid:
            eval_file, said = egaroucid_eval(args, Path(work))
            egaroucid = Egaroucid(args.egaroucid, eval_file, Path(work), args.egaroucid_hash)
            print(f"Egaroucid: {args.egaroucid.resolve()}, {egaroucid.version}; {' '.join(egaroucid.options)}; {said}",
                  flush=True)
        try:
            run(args, egaroucid)
        finally:
            if egaroucid:
                egaroucid.close()


def run(args: argparse.Namespace, egaroucid: Egaroucid | None) -> None:
    engine.warm_up()
    eval_file = args.edax_eval or (args.edax.parent.parent / "data" / "eval.dat" if args.edax else None)
    totals: dict[str, float] = {"best": 0.0, "edax": 0.0, "egaroucid": 0.0, "egaroucid wall": 0.0, "all": 0.0,
                                "all cpu": 0.0}
    ratios, egaroucid_ratios, over_budget = [], [], []
    print(f"{'#':>3} {'empties':>7} {'best s':>8} {'nodes':>7} {'M/s':>5}"
          + (" {:>8} {:>7} {:>6}".format("edax s", "nodes", "ratio") if args.edax else "")
          + (" {:>8} {:>8} {:>8} {:>5} {:>6}".format("egar s", "(wall)", "nodes", "M/s", "ratio") if egaroucid else "")
          + (f" {'all s':>8} {'cpu s':>8} {'nodes':>7}" if args.all_moves else "")
          + (f" {'verify s':>8} {'cpu s':>8}" if args.verify else ""))
    verify_totals, verify_over = [0.0, 0.0], []
    lines = ffo_lines()
    for number in range(args.first, args.last + 1):
        line = lines[number - 1]
        board, side = line.split()[:2]
        side = side.rstrip(";")
        p, o = rules.position(board, side)
        _, seconds, (value, nodes) = wall_and_cpu_seconds(lambda: best_score(p, o))  # noqa: B023
        if value != max(published_moves(line).values()):
            raise RuntimeError(f"FFO #{number}: best score {value:+d}, published {max(published_moves(line).values()):+d}")
        totals["best"] += seconds
        row = f"{number:>3} {board.count('-'):>7} {seconds:8.2f} {nodes / 1e6:6.1f}M {nodes / 1e6 / seconds:5.1f}"
        if args.edax:
            edax_seconds, edax_nodes = edax_solve(args.edax, eval_file, line)
            totals["edax"] += edax_seconds
            ratios.append(seconds / max(edax_seconds, 1e-3))
            row += f" {edax_seconds:8.2f} {edax_nodes / 1e6:6.1f}M {ratios[-1]:6.2f}"
        if egaroucid:
            cpu, wall, egaroucid_nodes, move, score, depth = egaroucid.solve(board, side)
            egaroucid_check(number, line, move, score, depth)
            totals["egaroucid"] += cpu
            totals["egaroucid wall"] += wall
            egaroucid_ratios.append(seconds / max(cpu, 1e-2))
            row += (f" {cpu:8.2f} {wall:8.2f} {egaroucid_nodes / 1e6:7.1f}M {egaroucid_nodes / 1e6 / max(cpu, 1e-2):5.1f}"
                    f" {egaroucid_ratios[-1]:6.2f}")
        if args.all_moves:
            seconds, cpu, scores = wall_and_cpu_seconds(lambda: all_moves(p, o, args.budget, args.threads))  # noqa: B023
            totals["all"] += seconds
            totals["all cpu"] += cpu
            if scores is None or seconds > BUDGET_SECONDS:
                over_budget.append(number)
            row += f" {seconds:8.2f} {cpu:8.2f} " + (f"{scores.nodes / 1e6:6.1f}M" if scores else "budget")
        if args.verify:
            try:
                seconds, cpu = verify_best(board, side, line, args.http)
                verify_totals[0] += seconds
                verify_totals[1] += cpu or 0.0
                row += f" {seconds:8.2f} " + (f"{cpu:8.2f}" if cpu is not None else f"{'-':>8}")
            except BudgetExceeded:
                verify_over.append(number)
                row += f" {'budget':>8} {'':>8}"
        print(row, flush=True)
    print(f"total CPU: best score {totals['best']:.1f} s"
          + (f", Edax {totals['edax']:.1f} s (ratio {totals['best'] / totals['edax']:.2f}, "
             f"median per position {statistics.median(ratios):.2f})" if args.edax else "")
          + (f", Egaroucid {totals['egaroucid']:.1f} s ({totals['egaroucid wall']:.1f} s wall by its own clock; "
             f"ratio {totals['best'] / totals['egaroucid']:.2f}, median per position "
             f"{statistics.median(egaroucid_ratios):.2f})" if egaroucid else "")
          + (f"; every move {totals['all']:.1f} s wall, {totals['all cpu']:.1f} s CPU; "
             f"over {BUDGET_SECONDS:.0f} s wall: {over_budget or 'none'}" if args.all_moves else "")
          + (f"; verify {verify_totals[0]:.1f} s wall" + ("" if args.http else f", {verify_totals[1]:.1f} s CPU")
             + f"; out of its {BUDGET_SECONDS:.0f} s budget: {verify_over or 'none'}" if args.verify else ""))
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if args.edax:
        print(f"(Edax child processes: {usage.ru_utime + usage.ru_stime:.1f} s CPU in all, start-up included)")


if __name__ == "__main__":
    main()
