"""`python -m app.warm`: compile every type's numba code into numba's on-disk cache before a server starts,
with a progress bar that names what is being compiled (`make serve`, `make test` and the Docker build run it).

The types compile side by side, one process per core, as their warm-ups take separate locks
(``solvers.common.compile_lock``). Two processes may still compile a function that several genres share and
write its cache index at the same moment, which can lose one of the two entries; so a last pass in this
process loads every type once more, which compiles whatever is missing and leaves the cache complete.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from tqdm import tqdm

from app.work import warm_up_worker
from generators.registry import TYPES


def _warm(name: str) -> float:
    started = time.perf_counter()
    TYPES[name].warm_up()  # type: ignore[misc]
    return time.perf_counter() - started


def warm_every_type(processes: int | None = None) -> dict[str, float]:
    """Each type's warm-up in a pool of ``processes`` (default: every core); the seconds each took."""
    names = [name for name, puzzle_type in TYPES.items() if puzzle_type.warm_up is not None]
    seconds: dict[str, float] = {}
    workers = min(processes or os.cpu_count() or 1, len(names))
    with ProcessPoolExecutor(workers) as pool, \
            tqdm(total=len(names), unit="type", desc="compiling", file=sys.stderr) as bar:
        waiting = list(reversed(names))
        running: dict[Future[float], str] = {}
        while waiting or running:
            while waiting and len(running) < workers:
                name = waiting.pop()
                running[pool.submit(_warm, name)] = name
            bar.set_postfix_str(", ".join(sorted(running.values())))
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                seconds[running.pop(future)] = future.result()
                bar.update(1)
        bar.set_postfix_str("checking the cache")
        warm_up_worker()
        bar.set_postfix_str("done")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m app.warm", description="Compile every type's numba code into numba's cache.")
    parser.add_argument("--processes", type=int, default=None, help="compiling processes (default: every core)")
    started = time.perf_counter()
    seconds = warm_every_type(parser.parse_args().processes)
    slowest = ", ".join(f"{name} {value:.0f} s" for name, value in sorted(seconds.items(), key=lambda item: -item[1])[:3])
    print(f"numba's cache is ready for {len(seconds)} types in {time.perf_counter() - started:.0f} s "
          f"(slowest: {slowest})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
