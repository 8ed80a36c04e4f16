"""The scaling table: every type, level and size band (smallest, default, largest), in one run.

    PYTHONPATH=. python -m bench.bench_levels [--seeds 20] [--types dabuhamienai,...] [--markdown]
    PYTHONPATH=. python -m bench.bench_levels --http http://127.0.0.1:8000 [--seeds 50]

In-process (default): per type, level and size (the smallest, default and largest at which the level is
offered), generation at that level over seeds 0..N-1 (median and
p95 of CPU time, this process's, the fair figure on a shared machine; wall time's median beside it), the
work it took (draws, adjustments, solver calls), then grading the generated puzzles and a hint from the
empty state (medians). Per type it also times the ungraded pipeline (a unique puzzle with no level) at
the default size, beside the default level: the issue's "within 2×" figure (``--default-level``: only
those two rows per size band, measured seed by seed in turn, and the ratio of their medians).

``--http``: against a running service (``make serve``), ``POST /generate/{type}`` with a seed for the
hardest level of every type at the largest size it is offered at (every level with ``--every-level``),
one request at a time, counting status codes: the "zero 503s in 50 seeds" check, in wall time as a
client sees it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from bench.stats import percentile
from generators import (
    battleship,
    dabuhamienai,
    fillomino,
    hashi,
    hitori,
    kakuro,
    kenken,
    kit,
    light_up,
    masyu,
    nonogram,
    number_sums,
    nurikabe,
    othello,
    shikaku,
    skyscrapers,
    slitherlink,
    sudoku,
    takuzu,
    tents,
    ubongo,
)
from generators.registry import TYPES
from generators.spec import PuzzleType
from solvers.common import Deadline


@dataclass(frozen=True)
class Band:
    """How a type's size is asked for, and the sizes a table row covers."""

    name: str  # the size parameter
    smallest: int
    default: int
    largest: int
    fixed: dict[str, Any]  # other parameters of the row (e.g. mode, regions)


BANDS: dict[str, list[Band]] = {
    "dabuhamienai": [Band("size", 4, 8, 30, {})],
    "battleship": [Band("size", 6, 10, 15, {})],
    "number-sums": [Band("size", 3, 7, 12, {}), Band("size", 3, 7, 12, {"regions": True})],
    "ubongo": [Band("pieces", 3, 3, 5, {"mode": "given"}), Band("pieces", 3, 3, 5, {"mode": "hidden"})],
    "othello": [Band("empties", 6, 12, 20, {})],
    "sudoku": [Band("size", 4, 9, 16, {})],
    "nonogram": [Band("size", 5, 15, 30, {})],
    "light-up": [Band("size", 5, 10, 14, {})],
    "slitherlink": [Band("size", 5, 10, 15, {})],
    "masyu": [Band("size", 5, 8, 12, {})],
    "skyscrapers": [Band("size", 4, 6, 9, {})],
    "kenken": [Band("size", 4, 6, 9, {})],
    "killer-sudoku": [],
    "hashi": [Band("size", 5, 10, 15, {})],
    "tents": [Band("size", 5, 10, 15, {})],
    "hitori": [Band("size", 4, 8, 12, {})],
    "takuzu": [Band("size", 6, 8, 14, {})],
    "shikaku": [Band("size", 5, 9, 19, {})],
    "nurikabe": [Band("size", 5, 7, 10, {})],
    "kakuro": [Band("size", 5, 10, 14, {})],
    "star-battle": [Band("size", 5, 8, 13, {}), Band("size", 10, 10, 12, {"stars": 2})],
    "fillomino": [Band("size", 4, 8, 13, {})],
}

UNGRADED: dict[str, Callable[[BaseModel, int, Deadline], Any]] = {
    "dabuhamienai": lambda p, seed, deadline: dabuhamienai.generate_unique(p.size, seed, deadline),
    "battleship": battleship.generate_unique,
    "number-sums": number_sums.generate_unique,
    "ubongo": ubongo.generate_unique,
    "othello": othello.generate_unique,
    "sudoku": sudoku.generate_unique,
    "nonogram": lambda p, seed, deadline: nonogram.generate_unique(*p.shape(), seed, deadline),
    "light-up": lambda p, seed, deadline: kit.make(light_up.LightUpGenre(), light_up.LightUpAnswer, p, seed, deadline),
    "slitherlink": lambda p, seed, deadline: kit.make(slitherlink.SlitherlinkGenre(), slitherlink.SlitherlinkAnswer, p,
                                                      seed, deadline),
    "skyscrapers": lambda p, seed, deadline: kit.make(skyscrapers.SkyscrapersGenre(), skyscrapers.SkyscrapersAnswer, p,
                                                      seed, deadline),
    "kenken": lambda p, seed, deadline: kit.make(kenken.KenkenGenre(), kenken.KenkenAnswer, p, seed, deadline),
    "hashi": lambda p, seed, deadline: kit.make(hashi.HashiGenre(), hashi.HashiAnswer, p, seed, deadline),
    "tents": lambda p, seed, deadline: kit.make(tents.TentsGenre(False), tents.TentsAnswer, p, seed, deadline),
    "hitori": lambda p, seed, deadline: hitori.generate_unique(p.size, seed, deadline),
    "takuzu": lambda p, seed, deadline: kit.make(takuzu.TakuzuGenre(p.unique_lines), takuzu.TakuzuAnswer, p, seed,
                                                 deadline),
    "shikaku": lambda p, seed, deadline: kit.make(shikaku.ShikakuGenre(), shikaku.ShikakuAnswer, p, seed, deadline),
    "nurikabe": lambda p, seed, deadline: nurikabe.generate_unique(*p.shape(), seed, deadline),
    "masyu": lambda p, seed, deadline: kit.make(masyu.MasyuGenre(), masyu.MasyuAnswer, p, seed, deadline),
    "kakuro": lambda p, seed, deadline: kit.make(kakuro.KakuroGenre("medium", deadline), kakuro.KakuroAnswer, p, seed,
                                                 deadline, kakuro._drawn),
    "fillomino": lambda p, seed, deadline: kit.make(fillomino.FillominoGenre(p.difficulty), fillomino.FillominoAnswer, p,
                                                    seed, deadline),
}


def empty_state(kind: PuzzleType, solution: BaseModel) -> BaseModel:
    """The player's state before any move: every cell undecided, no piece placed, the first hint."""
    difficulty = kind.difficulty
    assert difficulty is not None
    field = next(iter(difficulty.state_model.model_fields))
    value = getattr(solution, field, None)
    if isinstance(value, list) and value and isinstance(value[0], list):
        return difficulty.state_model(**{field: [[None] * len(row) for row in value]})
    return difficulty.state_model()


def params_for(kind: PuzzleType, band: Band, size: int, level: str | None) -> BaseModel | str:
    """The params model, or the 422's reason when the level cannot be asked at that size."""
    values = {band.name: size, **band.fixed, **({"difficulty": level} if level else {})}
    try:
        return kind.params_model(**values)
    except ValidationError as exc:
        return exc.errors()[0]["msg"].removeprefix("Value error, ")


def offered(kind: PuzzleType, band: Band, level: str) -> dict[int, BaseModel]:
    """The params of each of the band's sizes at which ``level`` may be asked for (the others are 422s)."""
    asked = {size: params_for(kind, band, size, level) for size in range(band.smallest, band.largest + 1)}
    return {size: params for size, params in asked.items() if not isinstance(params, str)}


def ms(values: list[float]) -> str:
    return f"{1000 * statistics.median(values):7.2f} / {1000 * percentile(values, 95):7.2f}"


def measure(kind: PuzzleType, params: BaseModel, seeds: int, make: Callable[..., Any] | None = None) -> dict[str, Any]:
    return measure_together(kind, [(params, make)], seeds)[0]


def measure_together(kind: PuzzleType, runs: list[tuple[BaseModel, Callable[..., Any] | None]], seeds: int
                     ) -> list[dict[str, Any]]:
    """Each run (params, and the generator if not the type's own) over seeds 0..N-1, the runs taking turns
    seed by seed: a ratio between them then holds while the machine's speed drifts during the run."""
    results: list[dict[str, Any]] = [{"cpu": [], "wall": [], "grade": [], "hint": [], "work": Counter()} for _ in runs]
    for seed in range(seeds):
        for (params, make), result in zip(runs, results, strict=True):
            started, cpu_started = time.perf_counter(), time.process_time()
            made = (make or kind.generate)(params, seed, Deadline.never())
            result["cpu"].append(time.process_time() - cpu_started)
            result["wall"].append(time.perf_counter() - started)
            for name in ("draws", "adjustments", "solver_calls"):
                result["work"][name] += getattr(made.stats, name, 0)
            if kind.difficulty is not None:
                cpu_started = time.process_time()
                kind.difficulty.grade(made.puzzle, Deadline.never())
                result["grade"].append(time.process_time() - cpu_started)
                state = empty_state(kind, made.solution)
                cpu_started = time.process_time()
                kind.difficulty.hint(made.puzzle, state, made.solution, Deadline.never())
                result["hint"].append(time.process_time() - cpu_started)
    for result in results:
        result["work"] = {name: total / seeds for name, total in result["work"].items()}
    return results


def in_process(types: list[str], seeds: int, markdown: bool, default_only: bool = False) -> None:
    header = ("| type | level | size | generate median / p95 ms (CPU) | wall median ms | grade median ms | "
              "hint median ms | draws | adjustments | solver calls |")
    print(header if markdown else header.replace("|", " "))
    if markdown:
        print("|" + " --- |" * 10)
    for name in types:
        kind = TYPES[name]
        assert kind.difficulty is not None
        for band in BANDS[name]:
            label = ", ".join(f"{k}={v}" for k, v in band.fixed.items())
            default_params = params_for(kind, band, band.default, None)
            assert not isinstance(default_params, str)
            level = kind.difficulty.default
            if default_only and level is not None:  # Othello: a request without a level gets any level
                level_params = params_for(kind, band, band.default, level)
                assert not isinstance(level_params, str)
                ungraded, graded = measure_together(kind, [(default_params, UNGRADED[name]), (level_params, None)], seeds)
                print(row(name, "(ungraded)", f"{band.default} {label}", ungraded, markdown), flush=True)
                print(row(name, level, f"{band.default} {label}", graded, markdown), flush=True)
                print(f"  ratio of medians {statistics.median(graded['cpu']) / statistics.median(ungraded['cpu']):.2f}")
                continue
            if name in UNGRADED:  # Star Battle has no ungraded pipeline: its map is drawn toward a level
                ungraded = measure(kind, default_params, seeds, UNGRADED[name])
                print(row(name, "(ungraded)", f"{band.default} {label}", ungraded, markdown), flush=True)
            if default_only:
                continue
            for level in kind.difficulty.names:
                sizes = offered(kind, band, level)
                for size in sorted({min(sizes), max(sizes)} | ({band.default} & sizes.keys())) if sizes else []:
                    print(row(name, level, f"{size} {label}", measure(kind, sizes[size], seeds), markdown), flush=True)


def row(name: str, level: str, size: str, m: dict[str, Any], markdown: bool) -> str:
    work = m["work"]
    cells = [name, level, size.strip(), ms(m["cpu"]), f"{1000 * statistics.median(m['wall']):.1f}",
             f"{1000 * statistics.median(m['grade']):.1f}" if m["grade"] else "-",
             f"{1000 * statistics.median(m['hint']):.1f}" if m["hint"] else "-",
             f"{work.get('draws', 0):.1f}", f"{work.get('adjustments', 0):.1f}", f"{work.get('solver_calls', 0):.1f}"]
    return "| " + " | ".join(cells) + " |" if markdown else "  ".join(f"{c:<14}" for c in cells)


def over_http(url: str, types: list[str], seeds: int, every_level: bool) -> None:
    import httpx

    with httpx.Client(base_url=url, timeout=60) as client:
        for name in types:
            kind = TYPES[name]
            assert kind.difficulty is not None
            for band in BANDS[name]:
                levels = kind.difficulty.names if every_level else kind.difficulty.names[-1:]
                for level in levels:
                    sizes = offered(kind, band, level)
                    if not sizes:  # a level this band's params refuse (two-star Star Battle at easy)
                        continue
                    query = {band.name: max(sizes), **band.fixed, "difficulty": level}
                    statuses: Counter[int] = Counter()
                    seconds = []
                    for seed in range(seeds):
                        started = time.perf_counter()
                        response = client.post(f"/generate/{name}", params={**query, "seed": 10_000 + seed})
                        seconds.append(time.perf_counter() - started)
                        statuses[response.status_code] += 1
                    print(f"{name:<13} {str(query):<60} median {ms([statistics.median(seconds)])[:7]} ms  p95 "
                          f"{1000 * percentile(seconds, 95):7.1f} ms  max {1000 * max(seconds):7.1f} ms  "
                          f"statuses {dict(statuses)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--types", default=",".join(t for t in BANDS if TYPES[t].difficulty is not None))
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for the README)")
    parser.add_argument("--http", help="base URL of a running service: time POST /generate at the largest size")
    parser.add_argument("--every-level", action="store_true", help="with --http: every level, not only the hardest")
    parser.add_argument("--default-level", action="store_true",
                        help="only the default level and the ungraded pipeline at the default size, and their ratio")
    args = parser.parse_args()
    types = args.types.split(",")
    if args.http:
        over_http(args.http, types, args.seeds, args.every_level)
    else:
        for kind in (TYPES[t] for t in types):
            if kind.warm_up is not None:
                kind.warm_up()
        in_process(types, args.seeds, args.markdown, args.default_level)


if __name__ == "__main__":
    main()
