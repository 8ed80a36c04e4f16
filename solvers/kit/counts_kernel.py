"""The kit's level check (``solvers.kit.arrays.solves``) and grade (``solvers.kit.arrays.grade``) compiled with
numba, for a model whose rules are plain counts (each a ``Count`` with no ``allowed``), counts of 1s kept apart
along a line (``Spaced``), pairings (``Matching``), groups held apart (``Distinct``) and digit groups forming one of
their tuples (``Tuples``), read with no ``deeper`` or with the tuples' own group reading (``tuples.analysed``): the
generator's thousands of checks of one board with different clues shown, most of them failing only after a trial of
every open key.

It makes the same deductions in the same order as ``solvers.kit.arrays.State`` (``follow`` round by round,
``trials`` key by key, ``solved``), so it gives the same answer for every input, and the grade the same steps.
The model is packed once into arrays (``Packed``): rule ``k``'s keys are ``rule_keys[rule_from[k]:rule_from[k +
1]]``, key ``i``'s rules ``key_rules[key_from[i]:key_from[i + 1]]``, and what count ``k`` decides with ``ones``
keys at 1 and ``open_`` keys open is ``tables[table_from[k] + ones * width[k] + open_]`` (``count_table``,
padded square, one for all counts alike). A spaced rule's key ``j`` stands at ``place[j]`` of its line; a
pairing's owners are ``owner_from[k]:owner_from[k + 1]``, owner ``o``'s keys (positions in its rule)
``options[option_from[o]:option_from[o + 1]]``; a distinct rule's groups are its keys in runs of ``count[k]``; a
tuple rule's keys are its cells' ``count[k]`` digits in turn, its tuples ``tuple_digits[tuple_from[k]:tuple_from[k +
1]]`` a cell's digit after another, and ``candidates[k]`` says whether its look reads what its cells may still hold.
With a group reading (``deep``), a round in which the rules decide nothing reads the rules that are not counts
changed since it last did, the tuples with their candidates (as ``State.follow`` with ``deeper``).
Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import cache
from itertools import chain, pairwise
from typing import NamedTuple

import numpy as np
from numba import njit

from solvers.common import compile_lock
from solvers.kit.distinct import Distinct
from solvers.kit.known import Known
from solvers.kit.matching import Matching
from solvers.kit.rules import Cells, Count, Model, for_the_last_model, shows
from solvers.kit.spaced import Spaced
from solvers.kit.tuples import Tuples, analysed

BROKEN, NOTHING = -2, -1  # what a count's table says besides the value of its open keys
COUNT, SPACED, PAIRING, DISTINCT, TUPLES = 0, 1, 2, 3, 4  # the kinds of rule the kernel reads
RULE, SHORT_TRIAL, TRIAL, DEEPER = 0, 1, 2, 3  # a grade's steps, numbered as ``solvers.kit.arrays.Step``
TALLYING, READING_DEEP = 0, 1  # a solve's modes (``Work.mode``): its steps tallied now; its rounds read deep
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
    kind: np.ndarray
    count: np.ndarray
    place: np.ndarray
    owner_from: np.ndarray
    option_from: np.ndarray
    options: np.ndarray
    quiet: np.ndarray  # a rule with more keys open than this decides nothing (``quiet_above``; else its length)
    tuple_from: np.ndarray
    tuple_digits: np.ndarray
    candidates: np.ndarray


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
    forced_key: np.ndarray  # what one rule decides (``decide``)
    forced_value: np.ndarray
    run: np.ndarray  # a spaced rule's open keys, by runs
    tally: np.ndarray  # a grade's steps by technique (RULE, SHORT_TRIAL, TRIAL, DEEPER): how many, their total effort
    mode: np.ndarray  # [TALLYING, READING_DEEP]: whether each is on
    deep: np.ndarray  # the rules a deep round would read, and whether each is among them
    in_deep: np.ndarray
    allowed: np.ndarray  # a tuple rule's cells: the digits each may hold (bits), the digits its fitting tuples put there
    support: np.ndarray


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


@for_the_last_model
def takes(model: Model) -> bool:
    """Whether the kernel reads ``model`` (kept for the last model asked: the generator asks before each check):
    every rule a plain count (a ``Count`` over distinct keys with no ``allowed``), a ``Spaced`` line of distinct keys
    in order along it (the kernel finds a key's neighbours by position), a ``Matching``, or a ``Distinct`` or
    ``Tuples`` over distinct keys."""
    flat = model.flat
    return bool(model.keys) and (flat.counts_only or all(
        _in_order(rule) if isinstance(rule, Spaced) else
        len(set(rule.cells)) == len(rule.cells) if isinstance(rule, Distinct | Tuples) else
        isinstance(rule, Matching) or counted and rule.allowed is None  # type: ignore[attr-defined]
        for rule, counted in zip(model.rules, flat.counts, strict=True)))


def reads_deeper(deeper: object) -> bool:
    """Whether the kernel reads the rules as ``deeper`` does: the tuples' group reading, ``tuples.analysed``."""
    return deeper is analysed


def _in_order(rule: Spaced) -> bool:
    return len(set(rule.cells)) == len(rule.cells) and all(a < b for a, b in pairwise(rule.at))


def pack(model: Model) -> Packed:
    """``model``'s arrays (``takes(model)``)."""
    flat = model.flat
    rule_keys, rule_from = _csr(flat.cells)
    key_rules, key_from = _csr(flat.at)
    width = np.diff(rule_from) + 1
    shared: dict[tuple[int, int, int], int] = {}  # each count's table, written once for all rules alike
    squares: list[np.ndarray] = [np.zeros(0, np.int64)]
    table_from = np.zeros(len(width), np.int64)
    end = 0
    for k, shape in enumerate(zip(flat.low, flat.high, map(len, flat.cells), strict=True)):
        if shape not in shared:
            shared[shape] = end
            squares.append(_square(*shape))
            end += len(squares[-1])
        table_from[k] = shared[shape]
    tables = np.concatenate(squares)
    given_rule, given_key, given_value = np.array(flat.given_by, np.int64).reshape(-1, 3).T.copy()
    kind = np.array([SPACED if isinstance(r, Spaced) else PAIRING if isinstance(r, Matching) else
                     DISTINCT if isinstance(r, Distinct) else TUPLES if isinstance(r, Tuples) else COUNT
                     for r in model.rules], np.int64)
    count = np.array([len(r.groups[0]) if isinstance(r, Distinct) and r.groups else r.digits if isinstance(r, Tuples)
                      else low for r, low in zip(model.rules, flat.low, strict=True)], np.int64)
    place = np.zeros(len(rule_keys), np.int64)
    for k in np.flatnonzero(kind == SPACED):
        place[rule_from[k]:rule_from[k + 1]] = model.rules[k].at  # type: ignore[attr-defined]
    owners = [r.options if isinstance(r, Matching) else () for r in model.rules]
    owner_from = np.zeros(len(owners) + 1, np.int64)
    np.cumsum([len(o) for o in owners], out=owner_from[1:])
    options, option_from = _csr([keys for o in owners for keys in o])
    quiet = np.array([getattr(r, "quiet_above", len(cells)) for r, cells in zip(model.rules, flat.cells, strict=True)],
                     np.int64)
    tuple_digits, tuple_from = _csr([list(chain.from_iterable(r.tuples)) if isinstance(r, Tuples) else []
                                     for r in model.rules])
    candidates = np.array([isinstance(r, Tuples) and not r.placed_only for r in model.rules], np.bool_)
    return Packed(rule_keys, rule_from, key_rules, key_from, tables, table_from, width, given_rule, given_key, given_value,
                  kind, count, place, owner_from, option_from, options, quiet, tuple_from, tuple_digits, candidates)


class Clued(NamedTuple):
    """A model's distinct clues, and each rule's among them (-1: none): which rules a set of clues shown
    keeps is then one look per clue, not per rule."""

    clues: list[Hashable]
    of_rule: np.ndarray

    @classmethod
    def of(cls, model: Model) -> Clued:
        number = {clue: n for n, clue in enumerate(dict.fromkeys(c for c in model.flat.clue if c is not None))}
        return cls(list(number), np.array([-1 if c is None else number[c] for c in model.flat.clue], np.int64))

    def active(self, shown: frozenset[Hashable] | None) -> np.ndarray:
        """Whether each rule stands when ``shown`` are (``solvers.kit.rules.shows``)."""
        on = np.array([shows(clue, shown) for clue in self.clues] + [True], np.bool_)
        return on[self.of_rule]


@for_the_last_model
def packed(model: Model) -> tuple[Packed, Clued, Known]:
    """The model's packed form, its clues and its answer once a solve finds it, kept for the last model asked (the
    generator asks about one at a time)."""
    p = pack(model)
    return p, Clued.of(model), Known(p.key_from.shape[0] - 1)


@njit(cache=True)
def work(p: Packed) -> Work:
    """A fresh state: every key open, no key at 1."""
    keys, rules = p.key_from.shape[0] - 1, p.rule_from.shape[0] - 1
    values = np.full(keys, -1, np.int64)
    open_ = p.rule_from[1:] - p.rule_from[:-1]
    longest = max(1, open_.max()) if rules else 1
    return Work(values, np.zeros(rules, np.int64), open_, values.copy(), np.zeros(rules, np.int64), open_.copy(),
                np.full(keys, -1, np.int64), np.zeros(keys, np.int64), np.zeros(rules, np.int64),
                np.zeros(rules, np.bool_), np.zeros(longest, np.int64), np.zeros(longest, np.int64),
                np.zeros(longest, np.int64), np.zeros((4, 2), np.float64), np.zeros(2, np.bool_),
                np.zeros(max(1, rules), np.int64), np.zeros(max(1, rules), np.bool_), np.zeros(longest, np.int64),
                np.zeros(longest, np.int64))


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
    """The active rules of the first ``count`` of ``keys``, each once, into ``w.looking``; how many. A rule with more
    keys open than its ``quiet`` decides nothing and breaks nothing: it is left out (``State`` skips it too)."""
    found = 0
    for n in range(count):
        i = keys[n]
        for j in range(p.key_from[i], p.key_from[i + 1]):
            k = p.key_rules[j]
            if active[k] and not w.marked[k] and w.open_[k] <= p.quiet[k]:
                w.marked[k] = True
                w.looking[found] = k
                found += 1
    for n in range(found):
        w.marked[w.looking[n]] = False
    return found


@njit(cache=True, inline="always")
def _force(w: Work, found: int, i: int, value: int) -> int:
    w.forced_key[found] = i
    w.forced_value[found] = value
    return found + 1


@njit(cache=True)
def _spaced(p: Packed, w: Work, k: int) -> int:
    """``solvers.kit.spaced.spaced`` of rule ``k``: what it decides into ``w.forced_*`` (how many), -1 broken."""
    start, end = p.rule_from[k], p.rule_from[k + 1]
    ones, found, runs, room, length = 0, 0, 0, 0, 0
    for j in range(start, end):
        value = w.values[p.rule_keys[j]]
        touches_left = j > start and p.place[j - 1] == p.place[j] - 1
        touches_right = j + 1 < end and p.place[j + 1] == p.place[j] + 1
        if value == 1:
            ones += 1
            if touches_right and w.values[p.rule_keys[j + 1]] == 1:
                return -1
        if value != -1:
            continue
        if (touches_left and w.values[p.rule_keys[j - 1]] == 1) or (touches_right and w.values[p.rule_keys[j + 1]] == 1):
            found = _force(w, found, p.rule_keys[j], 0)
            continue
        if not (length and touches_left and w.run[runs - 1] == j - 1):  # a new run
            room += (length + 1) // 2
            length = 0
        w.run[runs] = j
        runs += 1
        length += 1
    room += (length + 1) // 2
    needed = p.count[k] - ones
    if needed < 0 or needed > room:
        return -1
    if needed == 0:
        for n in range(runs):
            found = _force(w, found, p.rule_keys[w.run[n]], 0)
    elif needed == room:
        first = 0
        for n in range(runs + 1):
            if n == runs or (n > first and p.place[w.run[n]] != p.place[w.run[n - 1]] + 1):
                if (n - first) % 2:
                    for m in range(first, n):
                        found = _force(w, found, p.rule_keys[w.run[m]], 1 - (m - first) % 2)
                first = n
    return found


@njit(cache=True)
def _perfect(p: Packed, w: Work, k: int, edges: np.ndarray) -> bool:
    """Whether the owners of pairing ``k`` take distinct 1-keys (``edges``: owner by key position), every
    1-key taken (``solvers.kit.matching.perfect``): augmenting paths found breadth first."""
    owners, size = edges.shape
    ones = 0
    for j in range(size):
        ones += w.values[p.rule_keys[p.rule_from[k] + j]] == 1
    if ones != owners:
        return False
    owner_of = np.full(size, -1, np.int64)
    key_of = np.full(owners, -1, np.int64)
    via = np.empty(size, np.int64)
    queue = np.empty(owners, np.int64)
    for start in range(owners):
        via[:] = -1
        queue[0], head, tail, free = start, 0, 1, -1
        while head < tail and free < 0:
            o = queue[head]
            head += 1
            for j in range(size):
                if edges[o, j] and via[j] < 0 and w.values[p.rule_keys[p.rule_from[k] + j]] == 1:
                    via[j] = o
                    if owner_of[j] < 0:
                        free = j
                        break
                    queue[tail] = owner_of[j]
                    tail += 1
        if free < 0:
            return False
        while free >= 0:
            o = via[free]
            previous = key_of[o]
            owner_of[free], key_of[o] = o, free
            free = previous
    return True


@njit(cache=True)
def _pairing(p: Packed, w: Work, k: int) -> int:
    """``solvers.kit.matching.Matching.look`` of rule ``k``: owners with one key left and 1-keys with one owner
    left linked until nothing changes (a work list of the owners and keys whose edges changed), then what that
    decides, into ``w.forced_*`` (how many), -1 broken."""
    start, first, owners = p.rule_from[k], p.owner_from[k], p.owner_from[k + 1] - p.owner_from[k]
    size = p.rule_from[k + 1] - start
    edges = np.zeros((owners, size), np.bool_)
    owner_left, key_left = np.zeros(owners, np.int64), np.zeros(size, np.int64)
    for o in range(owners):
        for n in range(p.option_from[first + o], p.option_from[first + o + 1]):
            j = p.options[n]
            if w.values[p.rule_keys[start + j]] != 0 and not edges[o, j]:
                edges[o, j] = True
                owner_left[o] += 1
                key_left[j] += 1
    linked_owner, linked_key = np.zeros(owners, np.bool_), np.zeros(size, np.bool_)
    work_list = np.empty(owners + size + owner_left.sum() + 1, np.int64)  # an owner o as o, a key j as owners + j
    waiting = 0
    for o in range(owners):
        work_list[waiting] = o
        waiting += 1
    for j in range(size):
        if w.values[p.rule_keys[start + j]] == 1:
            work_list[waiting] = owners + j
            waiting += 1
    while waiting:
        waiting -= 1
        x = work_list[waiting]
        o, j = -1, -1
        if x < owners:
            if owner_left[x] == 0:
                return -1
            if owner_left[x] == 1 and not linked_owner[x]:
                o = x
                for n in range(p.option_from[first + o], p.option_from[first + o + 1]):
                    if edges[o, p.options[n]]:
                        j = p.options[n]
        else:
            j = x - owners
            if w.values[p.rule_keys[start + j]] != 1 or linked_key[j]:
                continue
            if key_left[j] == 0:
                return -1
            if key_left[j] == 1:
                for n in range(owners):
                    if edges[n, j]:
                        o = n
        if o < 0 or j < 0:
            continue
        linked_owner[o], linked_key[j] = True, True
        for n in range(p.option_from[first + o], p.option_from[first + o + 1]):
            other = p.options[n]
            if other != j and edges[o, other]:
                edges[o, other] = False
                owner_left[o] -= 1
                key_left[other] -= 1
                work_list[waiting] = owners + other
                waiting += 1
        for other in range(owners):
            if other != o and edges[other, j]:
                edges[other, j] = False
                key_left[j] -= 1
                owner_left[other] -= 1
                work_list[waiting] = other
                waiting += 1
    found, decided = 0, True
    for j in range(size):
        i = p.rule_keys[start + j]
        if w.values[i] < 0:
            decided = False
            if linked_key[j]:
                found = _force(w, found, i, 1)
            elif key_left[j] == 0:
                found = _force(w, found, i, 0)
    if found == 0 and decided and not _perfect(p, w, k, edges):
        return -1
    return found


@njit(cache=True)
def _alike(p: Packed, w: Work, a: int, b: int, size: int, skip: int) -> bool:
    """Whether the groups starting at ``a`` and ``b`` of a distinct rule's keys hold the same values, but at ``skip``."""
    for n in range(size):  # noqa: SIM110 (numba)
        if n != skip and w.values[p.rule_keys[a + n]] != w.values[p.rule_keys[b + n]]:
            return False
    return True


@njit(cache=True)
def _distinct(p: Packed, w: Work, k: int) -> int:
    """``solvers.kit.distinct.Distinct.look`` of rule ``k``: with no key open, broken when two groups are alike;
    with one, a group alike to the open key's but there decides it the other way (the first such group)."""
    start, end, size = p.rule_from[k], p.rule_from[k + 1], p.count[k]
    if w.open_[k] > 1 or size == 0:
        return 0
    if w.open_[k] == 0:
        for a in range(start, end, size):
            for b in range(a + size, end, size):
                if _alike(p, w, a, b, size, -1):
                    return -1
        return 0
    at = start
    while w.values[p.rule_keys[at]] >= 0:
        at += 1
    mine, skip = at - (at - start) % size, (at - start) % size
    for other in range(start, end, size):
        if other != mine and _alike(p, w, mine, other, size, skip):
            return _force(w, 0, p.rule_keys[at], 1 - w.values[p.rule_keys[other + skip]])
    return 0


@njit(cache=True)
def _tuples(p: Packed, w: Work, k: int, candidates: bool) -> int:
    """``solvers.kit.tuples.Tuples.read`` of rule ``k``: the open keys every tuple that still fits agrees on, into
    ``w.forced_*`` (how many), -1 when no tuple fits. A cell may hold its placed digit, else any digit, or with
    ``candidates`` those still open."""
    start, end, digits = p.rule_from[k], p.rule_from[k + 1], p.count[k]
    cells = (end - start) // digits
    for c in range(cells):
        placed, mask = -1, 0
        for d in range(digits):
            value = w.values[p.rule_keys[start + c * digits + d]]
            if value == 1 and placed < 0:
                placed = d
            if value < 0 or not candidates:
                mask |= 2 << d
        w.allowed[c] = 2 << placed if placed >= 0 else mask
        w.support[c] = 0
    fits = False
    for t in range(p.tuple_from[k], p.tuple_from[k + 1], cells):
        c = 0
        while c < cells and w.allowed[c] >> p.tuple_digits[t + c] & 1:
            c += 1
        if c == cells:
            fits = True
            for c in range(cells):
                w.support[c] |= 1 << p.tuple_digits[t + c]
    if not fits:
        return -1
    found = 0
    for j in range(start, end):
        i = p.rule_keys[j]
        if w.values[i] < 0:
            bits, d = w.support[(j - start) // digits], (j - start) % digits + 1
            if not bits >> d & 1:
                found = _force(w, found, i, 0)
            elif bits == 1 << d:
                found = _force(w, found, i, 1)
    return found


@njit(cache=True)
def decide(p: Packed, w: Work, k: int, deep: bool) -> int:
    """What rule ``k``, a spaced line, a pairing, a distinct or a tuple rule, decides of its open keys now, into
    ``w.forced_key`` and ``w.forced_value``: how many, -1 when it is broken (as ``State.look``; ``deep``: a tuple
    rule read with its candidates, as the group reading does). A count is read inline by its table."""
    kind = p.kind[k]
    if kind == SPACED:
        return _spaced(p, w, k)
    if kind == TUPLES:
        return _tuples(p, w, k, deep or p.candidates[k])
    return _pairing(p, w, k) if kind == PAIRING else _distinct(p, w, k)


@njit(cache=True, inline="always")
def _tally(w: Work, technique: int, effort: float) -> None:
    if w.mode[TALLYING]:
        w.tally[technique, 0] += 1.0
        w.tally[technique, 1] += effort


@njit(cache=True, inline="always")
def _merge(w: Work, decided: int, i: int, value: int) -> int:
    """Key ``i`` decided ``value`` in this round: how many keys the round has decided, -1 when it decided ``i``
    the other way already."""
    if w.decision[i] < 0:
        w.decision[i] = value
        w.decided[decided] = i
        return decided + 1
    return decided if w.decision[i] == value else -1


@njit(cache=True)
def round_(p: Packed, w: Work, count: int, deep: bool) -> int:
    """What the first ``count`` rules of ``w.looking`` decide together, from the state before any of it: how many
    keys (in ``w.decided``, their values in ``w.decision``), -1 when one breaks or two decide a key both ways. A
    rule that decides something is a step of the grade (a deep round's, of the group reading)."""
    decided, broken = 0, False
    for n in range(count):
        k = w.looking[n]
        if w.open_[k] > p.quiet[k]:
            continue
        if p.kind[k] == COUNT:  # most looks: the count's table, inline
            value = action(p, w, k)
            if value == NOTHING:
                continue
            if value == BROKEN:
                broken = True
                break
            _tally(w, RULE, 1.0)  # a table decides only while keys are open
            for j in range(p.rule_from[k], p.rule_from[k + 1]):
                if w.values[p.rule_keys[j]] < 0:
                    got = _merge(w, decided, p.rule_keys[j], value)
                    broken, decided = got < 0, max(got, decided)
                    if broken:
                        break
        else:
            found = decide(p, w, k, deep)
            if found < 0:
                broken = True
                break
            if found:
                _tally(w, DEEPER if deep else RULE, 1.0)
            for m in range(found):
                got = _merge(w, decided, w.forced_key[m], w.forced_value[m])
                broken, decided = got < 0, max(got, decided)
                if broken:
                    break
        if broken:
            break
    if broken:
        for n in range(decided):
            w.decision[w.decided[n]] = -1
        return -1
    return decided


@njit(cache=True)
def _deepen(p: Packed, w: Work, count: int, deep: int) -> int:
    """The rules that are not counts among the first ``count`` of ``w.looking`` joined to the ``deep`` read next by
    the group reading (each once); how many there are now."""
    for n in range(count):
        k = w.looking[n]
        if p.kind[k] != COUNT and not w.in_deep[k]:
            w.in_deep[k] = True
            w.deep[deep] = k
            deep += 1
    return deep


@njit(cache=True)
def follow(p: Packed, w: Work, active: np.ndarray, count: int, rounds: int) -> int:
    """Apply the first ``count`` rules of ``w.looking``, then round after round the active rules of the keys the
    last round decided, at most ``rounds`` rounds (UNLIMITED: while they decide something): the round a rule
    broke in, else 0 (as ``State.follow``). Reading deep (``w.mode[READING_DEEP]``), a round in which they decide nothing
    reads instead the rules that are not counts among those looked at since the last such round."""
    reading_deep = w.mode[READING_DEEP]
    deep = _deepen(p, w, count, 0) if reading_deep else 0
    done, broke = 0, 0
    while (count > 0 or deep > 0) and (rounds == UNLIMITED or done < rounds):
        done += 1
        decided = round_(p, w, count, False)
        if decided == 0 and deep > 0:
            for n in range(deep):
                w.looking[n] = w.deep[n]
                w.in_deep[w.deep[n]] = False
            decided, deep = round_(p, w, deep, True), 0
        if decided < 0:
            broke = done
            break
        for n in range(decided):
            i = w.decided[n]
            set_key(p, w, i, w.decision[i])
            w.decision[i] = -1
        count = near(p, w, active, w.decided, decided)
        if reading_deep:
            deep = _deepen(p, w, count, deep)
    for n in range(deep):
        w.in_deep[w.deep[n]] = False
    return broke


@njit(cache=True)
def follow_key(p: Packed, w: Work, active: np.ndarray, i: int, rounds: int) -> int:
    """``follow`` from the active rules of key ``i``."""
    w.decided[0] = i
    return follow(p, w, active, near(p, w, active, w.decided, 1), rounds)


@njit(cache=True)
def attempt(p: Packed, w: Work, active: np.ndarray, i: int, value: int, rounds: int) -> int:
    """Assume key ``i`` is ``value`` and follow it ``rounds`` rounds: 1 when a rule broke (``i`` is then the other
    value, followed as far as the rules go), 0 when none did, -1 when the rules then break (as ``State.attempt``).
    A trial that broke is a step of the grade, with the round it broke in as its effort; its own rules are not."""
    w.kept_values[:] = w.values
    w.kept_ones[:] = w.ones
    w.kept_open[:] = w.open_
    tallying = w.mode[TALLYING]
    w.mode[TALLYING] = False
    set_key(p, w, i, value)
    broke = follow_key(p, w, active, i, rounds)
    w.mode[TALLYING] = tallying
    w.values[:] = w.kept_values
    w.ones[:] = w.kept_ones
    w.open_[:] = w.kept_open
    if not broke:
        return 0
    _tally(w, TRIAL if rounds == UNLIMITED else SHORT_TRIAL, float(broke))
    set_key(p, w, i, 1 - value)
    return -1 if follow_key(p, w, active, i, UNLIMITED) else 1


@njit(cache=True)
def trials(p: Packed, w: Work, active: np.ndarray, rounds: int, answer: np.ndarray) -> bool:
    """Each open key assumed 1 then 0 and followed ``rounds`` rounds, in key order, again while one is decided;
    False when the rules break (as ``State.trials``). A trial that agrees with the ``answer`` (-1: unknown) is not
    followed: it would not break (``solvers.kit.known``)."""
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
                if answer[i] == value:
                    continue
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
    for k in range(active.shape[0]):
        if active[k] and (action(p, w, k) == BROKEN if p.kind[k] == COUNT else decide(p, w, k, False) < 0):
            return False
    return True


@njit(cache=True)
def _all(w: Work, active: np.ndarray) -> int:
    """Every active rule into ``w.looking``; how many."""
    count = 0
    for k in range(active.shape[0]):
        if active[k]:
            w.looking[count] = k
            count += 1
    return count


@njit(cache=True)
def start(p: Packed, active: np.ndarray, tallying: bool, deep: bool) -> tuple[Work, bool]:
    """A state with the active given rules' keys set (a key given twice takes the last rule's value), and the
    active rules followed to the end (their steps tallied from here on when ``tallying``; read deep too with
    ``deep``); whether no rule broke."""
    w = work(p)
    w.mode[TALLYING], w.mode[READING_DEEP] = tallying, deep
    for n in range(p.given_rule.shape[0]):
        if active[p.given_rule[n]]:
            w.decision[p.given_key[n]] = p.given_value[n]
    for i in range(w.values.shape[0]):
        if w.decision[i] >= 0:
            set_key(p, w, i, w.decision[i])
            w.decision[i] = -1
    return w, not follow(p, w, active, _all(w, active), UNLIMITED)


@njit(cache=True)
def solve(p: Packed, active: np.ndarray, rounds: np.ndarray, deep: bool, answer: np.ndarray, found: np.ndarray
          ) -> bool:
    """``solvers.kit.arrays.solves``: from ``start``, trials of each of ``rounds`` in turn (told the ``answer``
    where it is known); with ``deep``, the group reading throughout. The keys it solves to go into ``found``."""
    w, whole = start(p, active, False, deep)
    if not whole:
        return False
    for r in rounds:
        if w.values.min() < 0 and not trials(p, w, active, r, answer):
            return False
    found[:] = w.values
    return solved(p, w, active)


@njit(cache=True)
def grade(p: Packed, rounds: np.ndarray, deep: bool) -> tuple[bool, np.ndarray]:
    """``solvers.kit.arrays.grade``: the rules, then (with ``deep``) the group reading, then trials of each of
    ``rounds`` in turn, each level going on from the state the one below left; whether that solves it, and the steps
    tallied."""
    active = np.ones(p.rule_from.shape[0] - 1, np.bool_)
    w, whole = start(p, active, True, False)
    broken = not whole
    for level in range(rounds.shape[0] + 1 + deep):
        if level and not broken and w.values.min() < 0:
            if deep and level == 1:
                w.mode[READING_DEEP] = True
                broken = follow(p, w, active, _all(w, active), UNLIMITED) > 0
            else:
                broken = not trials(p, w, active, rounds[level - 1 - deep], np.full(w.values.shape[0], -1, np.int64))
        if not broken and solved(p, w, active):
            return True, w.tally
    return False, w.tally


def _rounds(trials_rounds: Sequence[int | None]) -> np.ndarray:
    return np.array([UNLIMITED if r is None else r for r in trials_rounds], np.int64)


def solves(model: Model, shown: frozenset[Hashable] | None, trials_rounds: Sequence[int | None],
           deep: bool = False) -> bool:
    """``solvers.kit.arrays.solves`` for a model the kernel takes (``takes``), with no ``deeper`` or (``deep``) the
    one it reads (``reads_deeper``)."""
    p, clued, known = packed(model)
    found = known.blank.copy()
    if not solve(p, clued.active(shown), _rounds(trials_rounds), deep, known.on(shown), found):
        return False
    known.learn(shown, found)
    return True


def graded(model: Model, trials_rounds: Sequence[int | None], deep: bool = False
           ) -> tuple[bool, list[tuple[int, int, float]]]:
    """``solvers.kit.arrays.grade``'s solve for a model the kernel takes: whether it is solved, and for each
    technique (RULE, SHORT_TRIAL, TRIAL, and DEEPER when ``deep``) its steps and their total effort."""
    solved_, tally = grade(packed(model)[0], _rounds(trials_rounds), deep)
    return bool(solved_), [(t, int(n), float(effort)) for t, (n, effort) in enumerate(tally[:DEEPER + deep])]


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on two keys, three counts, a spaced line and a
    pairing."""
    with compile_lock(__name__):
        model = Model(Cells("keys", 1, 2, "one", "zero"),
                      (Count(((0, 0), (0, 1)), 1, 1, "one", ""), Count(((0, 0),), 0, 0, "given", "", given=True),
                       Count(((0, 1),), 1, 1, "clue", "", clue="clue")))
        lines = Model(Cells("keys", 1, 3, "one", "zero"),
                      (Spaced(((0, 0), (0, 1), (0, 2)), (0, 1, 2), 1, "line", ""),
                       Matching(((((0, 0)), ((0, 1), (0, 2))),), "pairs", "")))
        for shown in (None, frozenset()):
            solves(model, shown, (2, None))
            solves(lines, shown, (2, None))
        graded(lines, (2, None))
