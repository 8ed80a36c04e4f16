"""Ready pools the refiller keeps full: each pool's target, its next slots, and what to enqueue."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from celery import Celery

from app.fleet.broker import FleetSettings, queue_depth
from app.fleet.tasks import Item, enqueue
from app.service import identity, pool_key
from app.store import PuzzleStore, derive_id, derive_seed
from generators.registry import TYPES

log = logging.getLogger("puzzlegen.fleet")

@dataclass(frozen=True)
class PoolTarget:
    type_name: str
    params: dict[str, Any]
    target: int

    @classmethod
    def of(cls, type_name: str, target: int, **params: Any) -> PoolTarget:
        """A pool of ``type_name`` with these parameters (the rest default), as requests name it."""
        return cls(type_name, identity(TYPES[type_name].params_model(**params)), target)

    @property
    def key(self) -> str:
        return pool_key(TYPES[self.type_name], self.params)


def parse_pools(spec: str) -> list[PoolTarget]:
    """``dabuhamienai:hard=500,battleship=100``: a type's default parameters at a level, and a target size."""
    targets = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, count = part.partition("=")
        type_name, _, level = name.partition(":")
        if type_name not in TYPES or not count.isdigit():
            raise ValueError(f"{part!r}: expected type[:difficulty]=target with a type among {', '.join(TYPES)}")
        difficulty = TYPES[type_name].difficulty
        if level and (difficulty is None or level not in difficulty.names):
            raise ValueError(f"{part!r}: {type_name} has no difficulty {level!r}")
        targets.append(PoolTarget.of(type_name, int(count), **({"difficulty": level} if level else {})))
    return targets


def pool_slots(target: PoolTarget, first: int, count: int) -> list[Item]:
    """Pool slots ``first .. first+count-1``: seed and id derived as `pregenerate` derives them."""
    puzzle_type = TYPES[target.type_name]
    return [Item(derive_id(puzzle_type.id_prefix, "pool", target.key, slot), target.params, target.params,
                 derive_seed("pool", puzzle_type.name, target.params, slot), pool=target.key)
            for slot in range(first, first + count)]


def pool_totals(store: PuzzleStore) -> dict[str, int]:
    """Puzzles ever stored per pool, served or not: the next free slot of each."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from app.store import PuzzleRow

    with Session(store.engine) as session:
        rows = session.execute(select(PuzzleRow.pool_key, func.count()).where(PuzzleRow.pool_key.is_not(None))
                               .group_by(PuzzleRow.pool_key))
        return {key: count for key, count in rows}


def refill_once(store: PuzzleStore, targets: list[PoolTarget], settings: FleetSettings, engine: Celery | None = None) -> int:
    """Enqueue what each pool lacks, unless earlier work still waits in the queue (it would be the same
    slots: enqueuing them again costs generation time, though it stores nothing twice)."""
    if queue_depth(engine) > 0:
        return 0
    ready = store.pool_sizes()
    made = pool_totals(store)
    sent = 0
    for target in targets:
        missing = target.target - ready.get(target.key, 0)
        if missing > 0:
            items = pool_slots(target, made.get(target.key, 0), missing)
            size = settings.fleet_chunk_size
            sent += enqueue([(target.type_name, items[i:i + size]) for i in range(0, len(items), size)],
                            settings.fleet_budget_seconds, engine)
    return sent


def refill_forever(store: PuzzleStore, targets: list[PoolTarget], settings: FleetSettings) -> None:
    while True:
        sent = refill_once(store, targets, settings)
        if sent:
            log.info("refill: %d chunks enqueued", sent)
        time.sleep(settings.fleet_refill_seconds)
