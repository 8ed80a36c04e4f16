"""Cost of one cache hit and one insert: the replay store (hand-made, per-item expiry) against
cachetools' TLRUCache and LRUCache, and the record cache. Prints the median over repeats, in ns.

    .venv/bin/python -m bench.cache_lookup
"""

from __future__ import annotations

import math
import statistics
import time
import timeit

from cachetools import LRUCache, TLRUCache

from app.middleware.replay import Kept, ReplayStore

SIZE = 1024
KEPT = Kept(None, [], b"{}", math.inf)
KEYS = [(f"/puzzles/p{i}", b"") for i in range(SIZE)]


def hits(get) -> float:
    def run() -> None:
        for key in KEYS:
            get(key)

    runs = timeit.repeat(run, number=50, repeat=9)
    return statistics.median(runs) / (50 * SIZE) * 1e9


def inserts(make, put) -> float:
    def run() -> None:
        cache = make()
        for i in range(4 * SIZE):  # three quarters of them evict
            put(cache, (str(i), b""), KEPT)

    return statistics.median(timeit.repeat(run, number=5, repeat=9)) / (5 * 4 * SIZE) * 1e9


def expiring(size: int) -> TLRUCache:
    return TLRUCache(size, ttu=lambda _key, kept, _now: kept.until, timer=time.time)


def main() -> None:
    replay, tlru, lru = ReplayStore(SIZE), expiring(SIZE), LRUCache(SIZE)
    for key in KEYS:
        replay.put(key, KEPT)
        tlru[key] = lru[key] = KEPT
    print(f"hit    ReplayStore {hits(replay.get):6.0f} ns   TLRUCache {hits(tlru.get):6.0f} ns   "
          f"LRUCache {hits(lru.get):6.0f} ns")
    print(f"insert ReplayStore {inserts(lambda: ReplayStore(SIZE), ReplayStore.put):6.0f} ns   "
          f"TLRUCache {inserts(lambda: expiring(SIZE), TLRUCache.__setitem__):6.0f} ns")


if __name__ == "__main__":
    main()
