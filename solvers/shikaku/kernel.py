"""The Shikaku levels compiled with numba: the kit's deductions on ``model(puzzle)`` (the rules alone round by
round, short trials, trials followed to the end, as ``solvers.kit.arrays`` makes them) for the generator's walk,
which asks them for every number it moves; and a search for a second answer on the same rules (``other``), which
steers the numbers of a new tiling toward one answer.

A board is its numbers (an (R, C) int64 array, 0 for an empty cell). ``layout`` makes what ``model`` makes, on
arrays: each number's candidates (every rectangle of its area holding it and no other number), its keys (the cells
its candidates reach, its own cell among them), numbered cell by cell and, within a cell, number by number, as the
model's keys are. The rules are numbered ``cell`` for a cell's count (it lies in one rectangle), ``C + 2n`` for the
``n``-th number's own cell (given: in its rectangle) and ``C + 2n + 1`` for its rectangle (``Rectangle``), ``C``
the board's cells. A state is each key's value (-1 open) and each count's ones and open keys; a trial's writes are
kept on a trail and undone, as the arrays' ``State`` does. Within a round the rules look at the state the round
began with, so the order they look in decides nothing; the trials take the open keys in the model's order, each
assumed 1 then 0, as ``State.trials`` does: the same boards are solved, stuck or broken, with the same keys
decided. Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.common import compile_lock

UNLIMITED = -1  # rounds: follow until nothing changes
STAMP, COVER, MARK, TRAIL, TRYING = range(5)  # the counters' fields


@njit(cache=True)
def _candidates(numbers, seen, at, rects):  # noqa: ANN001, ANN202 (numba)
    """Every number's candidates in ``rects`` (rows: number, top, left, height, width), the numbers in reading
    order; an empty ``rects`` only counts them. How many there are, and the cells they cover in all."""
    rows, cols = numbers.shape
    found = spread = 0
    for n in range(at.shape[0]):
        r, c = at[n] // cols, at[n] % cols
        area = numbers[r, c]
        for h in range(1, rows + 1):
            if area % h or area // h > cols:
                continue
            w = area // h
            for top in range(max(0, r - h + 1), min(r, rows - h) + 1):
                for left in range(max(0, c - w + 1), min(c, cols - w) + 1):
                    b, rt = top + h, left + w
                    if seen[b, rt] - seen[top, rt] - seen[b, left] + seen[top, left] == 1:
                        if rects.shape[0]:
                            rects[found, 0], rects[found, 1], rects[found, 2] = n, top, left
                            rects[found, 3], rects[found, 4] = h, w
                        found += 1
                        spread += area
    return found, spread


@njit(cache=True)
def _join(i, rule, slot, p, rule_keys, key_rules):  # noqa: ANN001, ANN202 (numba)
    """Key ``i`` (none when below 0) into ``rule``, at place ``p`` of ``rule_keys`` and as the key's rule of kind
    ``slot`` (0 its cell's count, 1 its number's rectangle, 2 its number's own cell); the next place."""
    if i < 0:
        return p
    rule_keys[p] = i
    key_rules[i, slot] = rule
    return p + 1


@njit(cache=True)
def layout(numbers):  # noqa: ANN001, ANN201 (numba)
    """The board's keys and rules (see the module's note): the cells, the numbers, the keys, each rule's kind (1
    a rectangle, 0 a count) and keys (``rule_start``, ``rule_keys``), each key's rules (-1 for none), each
    number's candidates (``cand_start``) and each candidate's keys (``cand_key_start``, ``cand_keys``)."""
    rows, cols = numbers.shape
    cells = rows * cols
    seen = np.zeros((rows + 1, cols + 1), np.int64)  # numbers above and left of each corner
    count = 0
    for r in range(rows):
        for c in range(cols):
            here = 1 if numbers[r, c] > 0 else 0
            count += here
            seen[r + 1, c + 1] = seen[r, c + 1] + seen[r + 1, c] - seen[r, c] + here
    at = np.empty(count, np.int64)
    n = 0
    for cell in range(cells):
        if numbers[cell // cols, cell % cols] > 0:
            at[n] = cell
            n += 1
    found, spread = _candidates(numbers, seen, at, np.zeros((0, 5), np.int64))
    rects = np.zeros((found, 5), np.int64)
    _candidates(numbers, seen, at, rects)
    reach = np.zeros((count, cells), np.bool_)
    for n in range(count):
        reach[n, at[n]] = True
    for q in range(found):
        n, top, left, h, w = rects[q, 0], rects[q, 1], rects[q, 2], rects[q, 3], rects[q, 4]
        for r in range(top, top + h):
            for c in range(left, left + w):
                reach[n, r * cols + c] = True
    index = np.full((count, cells), -1, np.int64)
    keys = 0
    for cell in range(cells):
        for n in range(count):
            if reach[n, cell]:
                index[n, cell] = keys
                keys += 1
    rules = cells + 2 * count
    kind = np.zeros(rules, np.int64)
    rule_start = np.zeros(rules + 1, np.int64)
    rule_keys = np.empty(2 * keys + count, np.int64)
    key_rules = np.full((keys, 3), -1, np.int64)
    p = 0
    for cell in range(cells):
        rule_start[cell] = p
        for n in range(count):
            p = _join(index[n, cell], cell, 0, p, rule_keys, key_rules)
    for n in range(count):
        given, rect = cells + 2 * n, cells + 2 * n + 1
        rule_start[given] = p
        p = _join(index[n, at[n]], given, 2, p, rule_keys, key_rules)
        kind[rect] = 1
        rule_start[rect] = p
        for cell in range(cells):
            p = _join(index[n, cell], rect, 1, p, rule_keys, key_rules)
    rule_start[rules] = p
    cand_start = np.zeros(count + 1, np.int64)
    cand_key_start = np.zeros(found + 1, np.int64)
    cand_keys = np.empty(spread, np.int64)
    p = 0
    for q in range(found):
        n, top, left, h, w = rects[q, 0], rects[q, 1], rects[q, 2], rects[q, 3], rects[q, 4]
        cand_start[n + 1] = q + 1
        cand_key_start[q] = p
        for r in range(top, top + h):
            for c in range(left, left + w):
                cand_keys[p] = index[n, r * cols + c]
                p += 1
    cand_key_start[found] = p
    for n in range(count):  # a number with no candidate: its candidates end where the one before's do
        cand_start[n + 1] = max(cand_start[n + 1], cand_start[n])
    givens = np.empty(count, np.int64)
    for n in range(count):
        givens[n] = index[n, at[n]]
    return cells, keys, kind, rule_start, rule_keys, key_rules, cand_start, cand_key_start, cand_keys, givens


@njit(cache=True)
def _set(i, value, values, ones, open_, kind, key_rules, trail, counters):  # noqa: ANN001, ANN202 (numba)
    values[i] = value
    for j in range(3):
        k = key_rules[i, j]
        if k >= 0 and kind[k] == 0:
            open_[k] -= 1
            ones[k] += value
    if counters[TRYING]:
        trail[counters[TRAIL]] = i
        counters[TRAIL] += 1


@njit(cache=True)
def _undo(values, ones, open_, kind, key_rules, trail, counters, mark):  # noqa: ANN001, ANN202 (numba)
    """The writes since the trail's ``mark`` put back."""
    while counters[TRAIL] > mark:
        counters[TRAIL] -= 1
        i = trail[counters[TRAIL]]
        for j in range(3):
            k = key_rules[i, j]
            if k >= 0 and kind[k] == 0:
                open_[k] += 1
                ones[k] -= values[i]
        values[i] = -1


@njit(cache=True)
def _propose(i, action, stamp, pending, pending_value, pending_mark, waiting):  # noqa: ANN001, ANN202 (numba)
    """Key ``i`` to be ``action`` at the end of the round ``stamp`` (``waiting`` writes proposed so far): how many
    are then waiting, or -1 when another rule of this round proposed the other value."""
    if pending_mark[i] != stamp:
        pending_mark[i], pending_value[i] = stamp, action
        pending[waiting] = i
        return waiting + 1
    return waiting if pending_value[i] == action else -1


@njit(cache=True)
def _follow(g, s, looking, count, rounds):  # noqa: ANN001, ANN202 (numba)
    """The rules in ``looking[:count]`` look, then round after round those at the keys the round before decided,
    at most ``rounds`` rounds (``UNLIMITED``: until nothing changes); the round a rule broke in (or two rules
    decided a key both ways), else 0, as ``State.follow``."""
    cells, _, kind, rule_start, rule_keys, key_rules, cand_start, cand_key_start, cand_keys, _ = g
    values, ones, open_, other, pending, pending_value, pending_mark, cover, mark, trail, _, counters = s
    done = 0
    while count and (rounds < 0 or done < rounds):
        done += 1
        counters[STAMP] += 1
        stamp = counters[STAMP]
        waiting = 0
        for x in range(count):
            k = looking[x]
            if kind[k] == 0:  # a count of exactly one
                one, free = ones[k], open_[k]
                if one > 1 or (one == 0 and free == 0):
                    return done
                if one == 1 and free > 0:
                    action = 0
                elif one == 0 and free == 1:
                    action = 1
                else:
                    continue
                for p in range(rule_start[k], rule_start[k + 1]):
                    i = rule_keys[p]
                    if values[i] < 0:
                        waiting = _propose(i, action, stamp, pending, pending_value, pending_mark, waiting)
                        if waiting < 0:
                            return done
                continue
            n = (k - cells) // 2  # a rectangle: the candidates that fit what is decided
            total = 0
            for p in range(rule_start[k], rule_start[k + 1]):
                total += values[rule_keys[p]] == 1
            counters[COVER] += 1
            covered = counters[COVER]
            fit = 0
            for q in range(cand_start[n], cand_start[n + 1]):
                inside = 0
                fits = True
                for p in range(cand_key_start[q], cand_key_start[q + 1]):
                    v = values[cand_keys[p]]
                    if v == 0:
                        fits = False
                        break
                    inside += v == 1
                if fits and inside == total:
                    fit += 1
                    for p in range(cand_key_start[q], cand_key_start[q + 1]):
                        cover[cand_keys[p]] = covered
            if fit == 0:
                return done
            for p in range(rule_start[k], rule_start[k + 1]):
                i = rule_keys[p]
                if values[i] >= 0:
                    continue
                if cover[i] != covered:
                    action = 0
                elif fit == 1:
                    action = 1
                else:
                    continue
                waiting = _propose(i, action, stamp, pending, pending_value, pending_mark, waiting)
                if waiting < 0:
                    return done
        counters[MARK] += 1
        marked = counters[MARK]
        count = 0
        for x in range(waiting):
            i = pending[x]
            _set(i, pending_value[i], values, ones, open_, kind, key_rules, trail, counters)
            for j in range(3):
                k = key_rules[i, j]
                if k >= 0 and mark[k] != marked:
                    mark[k] = marked
                    other[count] = k
                    count += 1
        looking, other = other, looking
    return 0


@njit(cache=True)
def _near(i, key_rules, looking):  # noqa: ANN001, ANN202 (numba)
    count = 0
    for j in range(3):
        if key_rules[i, j] >= 0:
            looking[count] = key_rules[i, j]
            count += 1
    return count


@njit(cache=True)
def _attempt(g, s, looking, i, value, rounds):  # noqa: ANN001, ANN202 (numba)
    """``State.attempt``: 1 when assuming key ``i`` is ``value`` broke a rule within ``rounds`` rounds (``i`` is
    then the other value, followed to the end), 0 when none broke, -1 when the rules then break."""
    _, _, kind, _, _, key_rules, _, _, _, _ = g
    values, ones, open_, _, _, _, _, _, _, trail, _, counters = s
    counters[TRYING] = 1
    _set(i, value, values, ones, open_, kind, key_rules, trail, counters)
    broke = _follow(g, s, looking, _near(i, key_rules, looking), rounds)
    _undo(values, ones, open_, kind, key_rules, trail, counters, 0)
    counters[TRYING] = 0
    if not broke:
        return 0
    _set(i, 1 - value, values, ones, open_, kind, key_rules, trail, counters)
    return -1 if _follow(g, s, looking, _near(i, key_rules, looking), UNLIMITED) else 1


@njit(cache=True)
def _trials(g, s, looking, rounds):  # noqa: ANN001, ANN202 (numba)
    """``State.trials`` on every open key: False when the rules break."""
    values, opened = s[0], s[10]
    progress = True
    while progress:
        waiting = 0
        for i in range(values.shape[0]):
            if values[i] < 0:
                opened[waiting] = i
                waiting += 1
        if not waiting:
            break
        progress = False
        for x in range(waiting):
            i = opened[x]
            for value in (1, 0):
                if values[i] >= 0:
                    break
                found = _attempt(g, s, looking, i, value, rounds)
                if found < 0:
                    return False
                if found > 0:
                    progress = True
    return True


@njit(cache=True)
def _every_rule(looking):  # noqa: ANN001, ANN202 (numba)
    for k in range(looking.shape[0]):
        looking[k] = k
    return looking.shape[0]


@njit(cache=True)
def _start(g):  # noqa: ANN001, ANN202 (numba)
    """A state with the givens set (no rule looked at yet), and a list for the rules to look at."""
    _, keys, kind, rule_start, _, key_rules, _, _, _, givens = g
    rules = kind.shape[0]
    values = np.full(keys, -1, np.int64)
    ones = np.zeros(rules, np.int64)
    open_ = np.empty(rules, np.int64)
    for k in range(rules):
        open_[k] = rule_start[k + 1] - rule_start[k]
    s = (values, ones, open_, np.empty(rules, np.int64), np.empty(keys, np.int64), np.zeros(keys, np.int64),
         np.zeros(keys, np.int64), np.zeros(keys, np.int64), np.zeros(rules, np.int64), np.empty(keys, np.int64),
         np.empty(keys, np.int64), np.zeros(5, np.int64))
    for n in range(givens.shape[0]):
        _set(givens[n], 1, values, ones, open_, kind, key_rules, s[9], s[11])
    return s, np.empty(rules, np.int64)


@njit(cache=True)
def levels(numbers, level, short_rounds, above):  # noqa: ANN001, ANN201 (numba)
    """The levels up to ``level`` (0 the rules alone, 1 short trials of ``short_rounds`` rounds, 2 trials) on a
    board: its keys, whether the rules broke (no answer), the keys decided, and, with ``above`` when some are
    left open, whether the next level then solves it (``generators.shikaku``'s reading for its walk)."""
    g = layout(numbers)
    keys = g[1]
    s, looking = _start(g)
    values = s[0]
    if _follow(g, s, looking, _every_rule(looking), UNLIMITED):
        return keys, True, keys, False
    for step in range(level):
        if not _trials(g, s, looking, short_rounds if step == 0 else UNLIMITED):
            return keys, True, keys, False
    decided = 0
    for i in range(keys):
        decided += values[i] >= 0
    if decided == keys or not above or level >= 2:
        return keys, False, decided, False
    if not _trials(g, s, looking, short_rounds if level == 0 else UNLIMITED):
        return keys, False, decided, False
    for i in range(keys):
        if values[i] < 0:
            return keys, False, decided, False
    return keys, False, decided, _follow(g, s, looking, _every_rule(looking), 1) == 0  # no rule broken: solved


@njit(cache=True)
def other(numbers, mine, most):  # noqa: ANN001, ANN201 (numba)
    """An answer of the board other than ``mine`` (each cell's number, by its place in reading order, an (R, C)
    array): 1 and that answer's cells' numbers when there is one, 0 when there is none (the rules alone tell
    most), -1 when ``most`` nodes of the search end first. A search, depth first, on the rules followed to the
    end: the first open key (in the model's order) assumed 1, then 0; an answer is every key decided with no rule
    broken."""
    g = layout(numbers)
    cells, keys, kind, _, _, key_rules, _, _, _, _ = g
    rows, cols = numbers.shape
    s, looking = _start(g)
    values, ones, open_, trail, counters = s[0], s[1], s[2], s[9], s[11]
    owners = np.full((rows, cols), -1, np.int64)
    if _follow(g, s, looking, _every_rule(looking), UNLIMITED):
        return 0, owners  # no answer at all
    counters[TRYING] = 1  # every write from here on is undone as the search backs up
    assumed, marks, tried = np.empty(keys, np.int64), np.empty(keys, np.int64), np.empty(keys, np.int64)
    depth = nodes = 0
    while True:
        nodes += 1
        if nodes > most:
            return -1, owners
        i = 0
        while i < keys and values[i] >= 0:
            i += 1
        if i < keys:
            assumed[depth], marks[depth], tried[depth] = i, counters[TRAIL], 1
            depth += 1
            _set(i, 1, values, ones, open_, kind, key_rules, trail, counters)
            if not _follow(g, s, looking, _near(i, key_rules, looking), UNLIMITED):
                continue
        else:  # every key decided, no rule broken: an answer
            same = True
            for i in range(keys):
                if values[i] == 1:
                    cell, n = key_rules[i, 0], (key_rules[i, 1] - cells) // 2
                    owners[cell // cols, cell % cols] = n
                    same = same and mine[cell // cols, cell % cols] == n
            if not same:
                return 1, owners
        while True:  # back up to the last key assumed 1 and assume it 0
            if depth == 0:
                owners[:, :] = -1
                return 0, owners
            d = depth - 1
            _undo(values, ones, open_, kind, key_rules, trail, counters, marks[d])
            if tried[d] == 0:
                depth -= 1
                continue
            tried[d] = 0
            _set(assumed[d], 0, values, ones, open_, kind, key_rules, trail, counters)
            if not _follow(g, s, looking, _near(assumed[d], key_rules, looking), UNLIMITED):
                break


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a 4×4 board at each level."""
    with compile_lock(__name__):
        numbers = np.array([[2, 0, 0, 2], [0, 2, 0, 0], [0, 0, 4, 0], [2, 0, 0, 2]], np.int64)
        for level in range(3):
            levels(numbers, level, 2, True)
        other(numbers, np.zeros(numbers.shape, np.int64), 100)
