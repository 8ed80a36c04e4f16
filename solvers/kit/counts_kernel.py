"""The kit's level check (``solvers.kit.arrays.solves``) compiled with numba, for a model of plain counts alone
(each rule a ``Count`` with no ``allowed``) and no ``deeper`` reading: the generator's thousands of checks
of one board with different clues shown, most of them failing only after a trial of every open key.

It makes the same deductions in the same order as ``solvers.kit.arrays.State`` (``follow`` round by round,
``trials`` key by key, ``solved``), so it gives the same answer for every input. The model is packed once
into arrays (``Packed``): rule ``k``'s keys are ``rule_keys[rule_from[k]:rule_from[k + 1]]``, key ``i``'s
rules ``key_rules[key_from[i]:key_from[i + 1]]``, and what rule ``k`` decides with ``ones`` keys at 1 and
``open_`` keys open is ``tables[table_from[k] + ones * width[k] + open_]`` (``count_table``,
padded square). Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache
from itertools import chain
from typing import NamedTuple

import numpy as np
from numba import njit

from solvers.common import compile_lock
from solvers.kit.rules import Cells, Count, Model, shows

BROKEN, NOTHING = -2, -1  # what a count's table says besides the value of its open keys
Table = tuple[tuple[int, ...], ...]
UNLIMITED = -1  # ``rounds`` of a follow (or a trial) that goes on while the rules decide something


class Packed(NamedTuple):
    """A model's rules as arrays (see the module's docstring); the given rules as (rule, key, value) columns."""

    rule_keys: np.ndarray
    rule_from: np.ndarray
    key_rules: np.ndarray
    key_from: np.ndarray
    tables: np.ndarray
    table_from: np.ndarray
    width: np.ndarray
    given_rule: np.ndarray
    given_key: np.ndarray
    given_value: np.ndarray


class Work(NamedTuple):
    """A solve's state (each key's value, -1 open; each rule's keys at 1 and open keys), the copy a trial puts
    back, and the scratch of a round: each key's decision (-1 none), the keys decided, the rules to look at."""

    values: np.ndarray
    ones: np.ndarray
    open_: np.ndarray
    kept_values: np.ndarray
    kept_ones: np.ndarray
    kept_open: np.ndarray
    decision: np.ndarray
    decided: np.ndarray
    looking: np.ndarray
    marked: np.ndarray


def _csr(lists: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Lists of integers as one array and each list's start (and the end of the last)."""
    starts = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(members) for members in lists], out=starts[1:])
    return np.fromiter(chain.from_iterable(lists), np.int64, int(starts[-1])), starts


@cache
def count_table(low: int, high: int, allowed: frozenset[int] | None, size: int) -> Table:
    """What a count decides, by [ones][open keys]: BROKEN, NOTHING, 0 (its open keys are 0) or 1. The kernel reads
    it, and so does the Python state of ``solvers.kit.arrays`` for the models the kernel does not take."""
    rule = Count((), low, high, "", "", allowed=allowed)

    def decides(ones: int, open_: int) -> int:
        totals = rule.feasible(ones, open_)
        return (BROKEN if not totals else 0 if open_ and totals[-1] == ones
                else 1 if open_ and totals[0] == ones + open_ else NOTHING)

    return tuple(tuple(decides(ones, open_) for open_ in range(size - ones + 1)) for ones in range(size + 1))


@cache
def _square(low: int, high: int, size: int) -> np.ndarray:
    """A count's table (``count_table``) as one array, ``size + 1`` entries a row, BROKEN past a row's end (never read)."""
    square = np.full((size + 1, size + 1), BROKEN, np.int64)
    for ones, row in enumerate(count_table(low, high, None, size)):
        square[ones, :len(row)] = row
    return square.reshape(-1)


def pack(model: Model) -> Packed:
    """``model``'s arrays; its rules must all be plain counts (``model.flat.counts_only``: each key's counts are
    its rules, each table ``count_table`` with no ``allowed``)."""
    flat = model.flat
    rule_keys, rule_from = _csr(flat.cells)
    key_rules, key_from = _csr(flat.at)
    width = np.diff(rule_from) + 1
    table_from = np.zeros(len(width), np.int64)
    np.cumsum((width * width)[:-1], out=table_from[1:])
    tables = np.concatenate([np.zeros(0, np.int64), *(_square(low, high, len(cells))
                                                      for low, high, cells in zip(flat.low, flat.high, flat.cells, strict=True))])
    given_rule, given_key, given_value = np.array(flat.given_by, np.int64).reshape(-1, 3).T.copy()
    return Packed(rule_keys, rule_from, key_rules, key_from, tables, table_from, width, given_rule, given_key, given_value)


_last: list[tuple[Model, Packed]] = []


def packed(model: Model) -> Packed:
    """The model's packed form, kept for the last model asked (the generator asks about one at a time)."""
    if not _last or _last[0][0] is not model:
        _last[:] = [(model, pack(model))]
    return _last[0][1]


@njit(cache=True)
def work(p: Packed) -> Work:
    """A fresh state: every key open, no key at 1."""
    keys, rules = p.key_from.shape[0] - 1, p.rule_from.shape[0] - 1
    values = np.full(keys, -1, np.int64)
    open_ = p.rule_from[1:] - p.rule_from[:-1]
    return Work(values, np.zeros(rules, np.int64), open_, values.copy(), np.zeros(rules, np.int64), open_.copy(),
                np.full(keys, -1, np.int64), np.zeros(keys, np.int64), np.zeros(rules, np.int64),
                np.zeros(rules, np.bool_))


@njit(cache=True)
def set_key(p: Packed, w: Work, i: int, value: int) -> None:
    """Key ``i`` is ``value``: each of its rules has one key fewer open (and one more at 1)."""
    w.values[i] = value
    for j in range(p.key_from[i], p.key_from[i + 1]):
        k = p.key_rules[j]
        w.open_[k] -= 1
        w.ones[k] += value


@njit(cache=True)
def action(p: Packed, w: Work, k: int) -> int:
    """What rule ``k`` decides now: BROKEN, NOTHING, or the value of its open keys."""
    return p.tables[p.table_from[k] + w.ones[k] * p.width[k] + w.open_[k]]


@njit(cache=True)
def near(p: Packed, w: Work, active: np.ndarray, keys: np.ndarray, count: int) -> int:
    """The active rules of the first ``count`` of ``keys``, each once, into ``w.looking``; how many."""
    found = 0
    for n in range(count):
        i = keys[n]
        for j in range(p.key_from[i], p.key_from[i + 1]):
            k = p.key_rules[j]
            if active[k] and not w.marked[k]:
                w.marked[k] = True
                w.looking[found] = k
                found += 1
    for n in range(found):
        w.marked[w.looking[n]] = False
    return found


@njit(cache=True)
def round_(p: Packed, w: Work, count: int) -> int:
    """What the first ``count`` rules of ``w.looking`` decide together, from the state before any of it: how many
    keys (in ``w.decided``, their values in ``w.decision``), -1 when one breaks or two decide a key both ways."""
    decided = 0
    broken = False
    for n in range(count):
        k = w.looking[n]
        value = action(p, w, k)
        if value == NOTHING:
            continue
        if value == BROKEN:
            broken = True
            break
        for j in range(p.rule_from[k], p.rule_from[k + 1]):
            i = p.rule_keys[j]
            if w.values[i] >= 0:
                continue
            if w.decision[i] < 0:
                w.decision[i] = value
                w.decided[decided] = i
                decided += 1
            elif w.decision[i] != value:
                broken = True
                break
        if broken:
            break
    if broken:
        for n in range(decided):
            w.decision[w.decided[n]] = -1
        return -1
    return decided


@njit(cache=True)
def follow(p: Packed, w: Work, active: np.ndarray, count: int, rounds: int) -> int:
    """Apply the first ``count`` rules of ``w.looking``, then round after round the active rules of the keys the
    last round decided, at most ``rounds`` rounds (UNLIMITED: while they decide something): the round a rule
    broke in, else 0 (as ``State.follow``)."""
    done = 0
    while count > 0 and (rounds == UNLIMITED or done < rounds):
        done += 1
        decided = round_(p, w, count)
        if decided < 0:
            return done
        for n in range(decided):
            i = w.decided[n]
            set_key(p, w, i, w.decision[i])
            w.decision[i] = -1
        count = near(p, w, active, w.decided, decided)
    return 0


@njit(cache=True)
def follow_key(p: Packed, w: Work, active: np.ndarray, i: int, rounds: int) -> int:
    """``follow`` from the active rules of key ``i``."""
    w.decided[0] = i
    return follow(p, w, active, near(p, w, active, w.decided, 1), rounds)


@njit(cache=True)
def attempt(p: Packed, w: Work, active: np.ndarray, i: int, value: int, rounds: int) -> int:
    """Assume key ``i`` is ``value`` and follow it ``rounds`` rounds: 1 when a rule broke (``i`` is then the other
    value, followed as far as the rules go), 0 when none did, -1 when the rules then break (as ``State.attempt``)."""
    w.kept_values[:] = w.values
    w.kept_ones[:] = w.ones
    w.kept_open[:] = w.open_
    set_key(p, w, i, value)
    broke = follow_key(p, w, active, i, rounds)
    w.values[:] = w.kept_values
    w.ones[:] = w.kept_ones
    w.open_[:] = w.kept_open
    if not broke:
        return 0
    set_key(p, w, i, 1 - value)
    return -1 if follow_key(p, w, active, i, UNLIMITED) else 1


@njit(cache=True)
def trials(p: Packed, w: Work, active: np.ndarray, rounds: int) -> bool:
    """Each open key assumed 1 then 0 and followed ``rounds`` rounds, in key order, again while one is decided;
    False when the rules break (as ``State.trials``)."""
    keys = np.empty(w.values.shape[0], np.int64)
    progress = True
    while progress and w.values.min() < 0:
        progress = False
        count = 0
        for i in range(w.values.shape[0]):
            if w.values[i] < 0:
                keys[count] = i
                count += 1
        for n in range(count):
            i = keys[n]
            for value in (1, 0):
                if w.values[i] >= 0:
                    break
                found = attempt(p, w, active, i, value, rounds)
                if found < 0:
                    return False
                progress = progress or found > 0
    return True


@njit(cache=True)
def solved(p: Packed, w: Work, active: np.ndarray) -> bool:
    """Every key decided and no active rule broken."""
    if w.values.min() < 0:
        return False
    for k in range(active.shape[0]):  # noqa: SIM110 - numba
        if active[k] and action(p, w, k) == BROKEN:
            return False
    return True


@njit(cache=True)
def solve(p: Packed, active: np.ndarray, rounds: np.ndarray) -> bool:
    """``solvers.kit.arrays.solves`` with no ``deeper``: the active given rules' keys set (a key given twice takes
    the last rule's value), the active rules followed to the end, then trials of each of ``rounds`` in turn."""
    w = work(p)
    for n in range(p.given_rule.shape[0]):
        if active[p.given_rule[n]]:
            w.decision[p.given_key[n]] = p.given_value[n]
    for i in range(w.values.shape[0]):
        if w.decision[i] >= 0:
            set_key(p, w, i, w.decision[i])
            w.decision[i] = -1
    count = 0
    for k in range(active.shape[0]):
        if active[k]:
            w.looking[count] = k
            count += 1
    if follow(p, w, active, count, UNLIMITED):
        return False
    for r in rounds:
        if w.values.min() < 0 and not trials(p, w, active, r):
            return False
    return solved(p, w, active)


def solves(model: Model, shown: frozenset[Hashable] | None, trials_rounds: Sequence[int | None]) -> bool:
    """``solvers.kit.arrays.solves`` for a model of plain counts (``model.flat.counts_only``) and no ``deeper``."""
    active = np.array([shows(clue, shown) for clue in model.flat.clue], np.bool_)
    rounds = np.array([UNLIMITED if r is None else r for r in trials_rounds], np.int64)
    return bool(solve(packed(model), active, rounds))


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on two keys and three counts."""
    with compile_lock(__name__):
        model = Model(Cells("keys", 1, 2, "one", "zero"),
                      (Count(((0, 0), (0, 1)), 1, 1, "one", ""), Count(((0, 0),), 0, 0, "given", "", given=True),
                       Count(((0, 1),), 1, 1, "clue", "", clue="clue")))
        for shown in (None, frozenset()):
            solves(model, shown, (2, None))
