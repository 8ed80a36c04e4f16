"""Skyscrapers' three lower levels compiled with numba, on bit masks, for the generator's many level checks.

Each cell's possible heights are bits 1..N of ``masks``. The Latin rules take a height placed in a cell out of its
row and column, and place a height that has one cell left in a row or column; a clue's line is read as the kit's
visibility rule reads it (``solvers.kit.seen_kernel.placements``), by the heights placed in it (the easy level) or
by what its cells may still hold (the line analysis, the medium level), keeping each cell's heights that some
order showing the clue puts there. They go on until nothing changes: the state the kit's array solve reaches on
the one-hot keys (``solvers.kit.arrays.solves``), as every deduction only narrows (``tests/puzzles/
test_skyscrapers.py`` compares the two). The hard level's trials (``trials``) and the generator's grade (``graded``)
count rounds, so they take the one-hot state round by round as the kit's ``State`` does (``_follow``): every round's
rules see the state it started from, a line is read with its cells' candidates only in a round where the rules
decide nothing, and a rule breaks in the round the kit's would. Every function is non-recursive and compiled with
``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.engines.bits import lowest_bit, popcount
from solvers.kit import seen_kernel
from solvers.kit.seen_kernel import placements


@njit(cache=True)
def _work(n):  # noqa: ANN001, ANN202 (numba)
    """A line's scratch for ``placements``: its cells' allowed heights and their support, then ``seen_kernel.scratch``."""
    shows, ends, states = seen_kernel.scratch(n)
    return np.zeros(n, np.int64), np.zeros(n, np.int64), shows, ends, states


@njit(cache=True)
def _narrow(masks, i, mask, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Cell ``i`` may hold only ``mask`` from now on: the lines through it are read again."""
    masks[i] = mask
    for slot in range(lines_of.shape[1]):
        if lines_of[i, slot] >= 0:
            dirty[lines_of[i, slot]] = True


@njit(cache=True)
def _latin(n, masks, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """The Latin rules until they change nothing; False when a cell, or a height in a row or column, has no place."""
    changed = True
    while changed:
        changed = False
        for i in range(n * n):
            mask = masks[i]
            if mask == 0:
                return False
            if mask & (mask - 1):
                continue
            r, c = i // n, i % n
            for k in range(n):
                for j in (r * n + k, k * n + c):
                    if j != i and masks[j] & mask:
                        _narrow(masks, j, masks[j] & ~mask, dirty, lines_of)
                        changed = True
        for unit in range(2 * n):
            for height in range(1, n + 1):
                bit, places, at = 1 << height, 0, -1
                for k in range(n):
                    j = unit * n + k if unit < n else k * n + unit - n
                    if masks[j] & bit:
                        places += 1
                        at = j
                if places == 0:
                    return False
                if places == 1 and masks[at] != bit:
                    _narrow(masks, at, bit, dirty, lines_of)
                    changed = True
    return True


@njit(cache=True)
def _read_line(n, line, count, masks, candidates, work, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Keep each cell of ``line`` to the heights some order showing ``count`` puts there; False when none does.
    Without ``candidates`` a cell not placed may hold any height not placed elsewhere in the line. ``work``: the
    scratch of ``_work``."""
    allowed, support, shows, ends, states = work
    full = (2 << n) - 2
    taken = 0
    for j in range(n):
        mask = masks[line[j]]
        if mask & (mask - 1) == 0:
            taken |= mask
    for j in range(n):
        mask = masks[line[j]]
        allowed[j] = mask if candidates or mask & (mask - 1) == 0 else full & ~taken
    if not placements(count, allowed, support, shows, ends, states):
        return False
    for j in range(n):
        i = line[j]
        if masks[i] & support[j] != masks[i]:
            _narrow(masks, i, masks[i] & support[j], dirty, lines_of)
    return True


@njit(cache=True)
def _lines_of(n, lines):  # noqa: ANN001, ANN202 (numba)
    """The clue lines through each cell (at most one from each side; -1 for none)."""
    lines_of = np.full((n * n, 4), -1, np.int64)
    filled = np.zeros(n * n, np.int64)
    for k in range(lines.shape[0]):
        for j in range(n):
            i = lines[k, j]
            lines_of[i, filled[i]] = k
            filled[i] += 1
    return lines_of


@njit(cache=True)
def _through(i, lines_of, marked):  # noqa: ANN001, ANN202 (numba)
    """Mark the clue lines through cell ``i``."""
    for slot in range(lines_of.shape[1]):
        if lines_of[i, slot] >= 0:
            marked[lines_of[i, slot]] = True


@njit(cache=True)
def follow(n, lines, counts, masks, candidates):  # noqa: ANN001, ANN201 (numba)
    """Narrow ``masks`` (N×N cells, row by row) by the Latin rules and the clues' lines (``lines[k]``: line k's
    cells nearest first, ``counts[k]`` towers seen) until nothing changes; False when a rule breaks."""
    dirty = np.ones(lines.shape[0], np.bool_)
    lines_of = _lines_of(n, lines)
    work = _work(n)
    read = True
    while read:
        if not _latin(n, masks, dirty, lines_of):
            return False
        read = False
        for k in range(lines.shape[0]):
            if dirty[k]:
                dirty[k] = False
                read = True
                if not _read_line(n, lines[k], counts[k], masks, candidates, work, dirty, lines_of):
                    return False
                if candidates:  # what a line keeps it reads alike again; placed heights may tell more
                    dirty[k] = False
    return True


@njit(cache=True)
def _read_keys(n, line, count, one, zero, candidates, work, ones, zeros):  # noqa: ANN001, ANN202 (numba)
    """A line's reading on the one-hot state (``one``: each cell's key at 1 as a bit, ``zero``: its keys at 0) as
    a person's look takes it: its open keys every order showing ``count`` agrees on go into ``ones`` and ``zeros``.
    1 when it decides a key, 0 when not, -1 when no order shows ``count``."""
    allowed, support, shows, ends, states = work
    full = (2 << n) - 2
    taken = 0
    for j in range(n):
        taken |= one[line[j]]
    for j in range(n):
        i = line[j]
        allowed[j] = one[i] if one[i] else full & ~zero[i] if candidates else full & ~taken
    if not placements(count, allowed, support, shows, ends, states):
        return -1
    decided = 0
    for j in range(n):
        i = line[j]
        open_ = full & ~zero[i] & ~one[i]
        if open_ & ~support[j]:
            zeros[i] |= open_ & ~support[j]
            decided = 1
        if support[j] & (support[j] - 1) == 0 and open_ & support[j]:
            ones[i] |= support[j]
            decided = 1
    return decided


@njit(cache=True)
def _rules_look(n, lines, counts, one, zero, work, ones, zeros, fresh, lines_of):  # noqa: ANN001, ANN202 (numba)
    """One look of the rules over the ``fresh`` cells (those changed since the rules last looked: a rule none of
    whose cells changed decides nothing it did not) at the one-hot state, as the kit's rule technique takes it: a
    cell holds one height, a row or column each height once, a line its count by the heights placed in it. The keys
    they decide go into ``ones`` and ``zeros``; how many rules decided one, -1 when a rule breaks."""
    full = (2 << n) - 2
    steps = 0
    rows, columns = np.zeros(n, np.bool_), np.zeros(n, np.bool_)
    read = np.zeros(lines.shape[0], np.bool_)
    for i in range(n * n):
        if not fresh[i]:
            continue
        rows[i // n] = columns[i % n] = True
        _through(i, lines_of, read)
        if one[i] & (one[i] - 1):  # two heights placed by one round: the cell's rule breaks now, as the kit's does
            return -1
        open_ = full & ~zero[i] & ~one[i]
        if one[i] and open_:
            zeros[i] |= open_
            steps += 1
        elif not one[i]:
            if open_ == 0:
                return -1
            if open_ & (open_ - 1) == 0:
                ones[i] |= open_
                steps += 1
    for unit in range(2 * n):
        if not (rows[unit] if unit < n else columns[unit - n]):
            continue
        for height in range(1, n + 1):
            bit, placed, open_, at = 1 << height, 0, 0, -1
            for k in range(n):
                j = unit * n + k if unit < n else k * n + unit - n
                if one[j] == bit:
                    placed += 1
                elif not zero[j] & bit:
                    open_ += 1
                    at = j
            if placed > 1 or placed + open_ == 0:
                return -1
            if placed == 1 and open_:
                steps += 1
                for k in range(n):
                    j = unit * n + k if unit < n else k * n + unit - n
                    if one[j] != bit and not zero[j] & bit:
                        zeros[j] |= bit
            elif placed == 0 and open_ == 1:
                steps += 1
                ones[at] |= bit
    for k in range(lines.shape[0]):
        if read[k]:
            decided = _read_keys(n, lines[k], counts[k], one, zero, False, work, ones, zeros)
            if decided < 0:
                return -1
            steps += decided
    return steps


@njit(cache=True)
def _apply(one, zero, ones, zeros, fresh, deep, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Set the keys a round decided, ``fresh`` the cells it changed and ``deep`` the lines through them; False when
    two decide a key both ways (a cell given two heights breaks its rule in the next round, as on the kit's keys:
    the hard level's trials count the round a rule breaks in)."""
    for i in range(one.shape[0]):
        if ones[i] & zeros[i]:
            return False
        fresh[i] = bool(ones[i] & ~one[i] or zeros[i] & ~zero[i])
        if fresh[i]:
            _through(i, lines_of, deep)
        one[i] |= ones[i]
        zero[i] |= zeros[i]
        ones[i] = zeros[i] = 0
    return True


RULE, SHORT_TRIAL, TRIAL, LINE_ANALYSIS = 0, 1, 2, 3  # the techniques a grade tallies (``graded``), as the kit numbers them


@njit(cache=True)
def _follow(n, lines, counts, one, zero, scratch, most, tally):  # noqa: ANN001, ANN202 (numba)
    """Rounds on the one-hot state (``one``: each cell's key at 1 as a bit, ``zero``: its keys at 0), at most
    ``most`` (-1: until nothing changes): in each, the rules look and what they decide is set; in a round where they
    decide nothing, the lines are read with what their cells may still hold. From a state the rules and lines have
    read but for the ``fresh`` cells and the ``deep`` lines (only what changed since can decide): the round a rule
    broke in, else 0 (``State.follow``). ``scratch``: ``_settle``'s; ``fresh`` and ``deep`` are left as the last
    round left them. Each rule and line that decides a key adds a step of effort 1 to ``tally`` (``RULE``,
    ``LINE_ANALYSIS``)."""
    work, ones, zeros, fresh, deep, lines_of = scratch
    done = 0
    while most < 0 or done < most:
        done += 1
        steps = _rules_look(n, lines, counts, one, zero, work, ones, zeros, fresh, lines_of)
        if steps < 0 or not _apply(one, zero, ones, zeros, fresh, deep, lines_of):
            ones[:] = 0
            zeros[:] = 0
            return done
        if steps:
            tally[RULE, 0] += steps
            tally[RULE, 1] += steps
            continue
        for k in range(lines.shape[0]):
            if deep[k]:
                deep[k] = False
                decided = _read_keys(n, lines[k], counts[k], one, zero, True, work, ones, zeros)
                if decided < 0:
                    ones[:] = 0
                    zeros[:] = 0
                    return done
                steps += decided
        if not _apply(one, zero, ones, zeros, fresh, deep, lines_of):
            ones[:] = 0
            zeros[:] = 0
            return done
        if not steps:
            return 0
        tally[LINE_ANALYSIS, 0] += steps
        tally[LINE_ANALYSIS, 1] += steps
    return 0


@njit(cache=True)
def _changed(i, fresh, deep, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Only cell ``i`` changed since the rules and lines last read the state."""
    fresh[:] = False
    deep[:] = False
    fresh[i] = True
    _through(i, lines_of, deep)


@njit(cache=True)
def _passes(n, lines, counts, one, zero, scratch, most, technique, tally, answer):  # noqa: ANN001, ANN202 (numba)
    """Passes of trials from a state the rules and lines have read entirely: each open key in the kit's order (cell
    by cell, heights up) assumed 1 then 0 and followed ``most`` rounds (-1: to the end); a rule broken decides it the
    other way, followed to the end, until a pass decides nothing (``State.trials``); a key tried since the state last
    changed is not tried again, as its trial would come to the same; where the ``answer`` is known (each cell's
    height as a bit, 0 unknown) the trial that agrees with it is not followed, as sound rules never break on the
    answer (``solvers.kit.known``). A trial that decides is a step of ``technique`` whose effort is the round it
    broke in, what follows it counted by ``_follow`` (into ``tally``). 1 when every cell is placed, 0 when a pass
    decides nothing, -1 when a rule breaks."""
    fresh, deep, lines_of = scratch[3], scratch[4], scratch[5]
    full = (2 << n) - 2
    unseen = np.zeros((4, 2), np.int64)  # a trial's own steps are not the path's
    kept_one, kept_zero = one.copy(), zero.copy()
    tried, changes = np.full(n * n * (n + 1), -1, np.int64), 0  # the changes made when each key was last tried
    progress = True
    while progress:
        progress = False
        placed = True
        for i in range(n * n):
            placed = placed and one[i] != 0 and zero[i] == full & ~one[i]
        if placed:
            return 1
        for i in range(n * n):
            for d in range(1, n + 1):
                bit = 1 << d
                if tried[i * (n + 1) + d] == changes:
                    continue  # tried on this very state: it would come to the same
                tried[i * (n + 1) + d] = changes
                for value in (1, 0):
                    if one[i] & bit or zero[i] & bit:
                        break
                    if answer[i] and (answer[i] == bit) == (value == 1):
                        continue
                    kept_one[:] = one
                    kept_zero[:] = zero
                    if value:
                        one[i] |= bit
                    else:
                        zero[i] |= bit
                    _changed(i, fresh, deep, lines_of)
                    broke = _follow(n, lines, counts, one, zero, scratch, most, unseen)
                    one[:] = kept_one
                    zero[:] = kept_zero
                    if not broke:
                        continue
                    tally[technique, 0] += 1
                    tally[technique, 1] += broke
                    if value:
                        zero[i] |= bit
                    else:
                        one[i] |= bit
                    _changed(i, fresh, deep, lines_of)
                    if _follow(n, lines, counts, one, zero, scratch, -1, tally):
                        return -1
                    progress = True
                    changes += 1
    return 0


@njit(cache=True)
def _settle(n, lines, counts, one, zero, tally):  # noqa: ANN001, ANN202 (numba)
    """The rules and lines on the one-hot state (changed) until nothing changes, their steps into ``tally``: whether a
    rule broke, and the scratch the rounds and trials go on with: a line's reading (``_work``), a round's decisions
    (ones, zeros), the cells and lines changed since the rules and lines last read them (fresh, deep, every one at
    first), and the lines through each cell."""
    scratch = (_work(n), np.zeros(n * n, np.int64), np.zeros(n * n, np.int64), np.ones(n * n, np.bool_),
               np.ones(lines.shape[0], np.bool_), _lines_of(n, lines))
    return _follow(n, lines, counts, one, zero, scratch, -1, tally) > 0, scratch


@njit(cache=True)
def graded(n, lines, counts, one, zero, chain):  # noqa: ANN001, ANN201 (numba)
    """A person's path through every level on the one-hot state (changed): the rules and the line analysis
    (``_settle``), then trials of ``chain`` rounds, then trials to the end (``_passes``), as the kit's grade on
    arrays takes them. (1 solved, 0 stuck or -1 broken; the steps and their effort by technique: ``RULE``,
    ``SHORT_TRIAL``, ``TRIAL``, ``LINE_ANALYSIS``)."""
    tally = np.zeros((4, 2), np.int64)
    broke, scratch = _settle(n, lines, counts, one, zero, tally)
    if broke:
        return -1, tally
    for most, technique in ((chain, SHORT_TRIAL), (-1, TRIAL)):
        outcome = _passes(n, lines, counts, one, zero, scratch, most, technique, tally, np.zeros_like(one))
        if outcome:
            return outcome, tally
    return 0, tally


@njit(cache=True)
def trials(n, lines, counts, one, zero, most, answer):  # noqa: ANN001, ANN201 (numba)
    """The hard level's check on the one-hot state (changed): the rules and lines until nothing changes, then
    passes of trials of ``most`` rounds (``_passes``, told the ``answer`` where it is known). True when every cell
    is placed (``State.trials``, then ``State.solved``)."""
    unseen = np.zeros((4, 2), np.int64)
    broke, scratch = _settle(n, lines, counts, one, zero, unseen)
    return not broke and _passes(n, lines, counts, one, zero, scratch, most, SHORT_TRIAL, unseen, answer) == 1


@njit(cache=True)
def other(n, lines, counts, masks, answer, limit, out):  # noqa: ANN001, ANN201 (numba)
    """Another answer than ``answer`` (each cell's height) to the puzzle whose cells may hold ``masks`` (the givens
    placed) under the clues' ``lines`` and ``counts``: a search that narrows by ``follow`` with the line analysis at
    every node and splits the cell with the fewest heights. 1 with the answer found in ``out``, 0 when ``answer`` is
    the only one, -1 when ``limit`` nodes were not enough to tell. ``follow`` only rules out what no answer holds and
    a state it leaves with one height a cell is an answer, so the search misses none. An explicit stack, not
    recursion: numba's cache has crashed on recursive functions."""
    cells = n * n
    states = np.zeros((cells + 1, cells), np.int64)
    split = np.zeros(cells + 1, np.int64)
    left = np.zeros(cells + 1, np.int64)
    states[0] = masks
    if not follow(n, lines, counts, states[0], True):
        return 0
    depth, nodes = 0, 1
    while depth >= 0:
        state = states[depth]
        best, fewest = -1, n + 1
        for i in range(cells):
            held = popcount(state[i])
            if 1 < held < fewest:
                best, fewest = i, held
        if best < 0:  # every cell placed
            for i in range(cells):
                if state[i] != 1 << answer[i]:
                    for j in range(cells):
                        out[j] = lowest_bit(state[j])
                    return 1
            depth -= 1
        else:
            split[depth], left[depth] = best, state[best]
        while depth >= 0:  # the next height to try, at this depth or the nearest above that has one
            if left[depth] == 0:
                depth -= 1
                continue
            if nodes >= limit:
                return -1
            bit = left[depth] & -left[depth]
            left[depth] &= ~bit
            child = states[depth + 1]
            child[:] = states[depth]
            child[split[depth]] = bit
            nodes += 1
            if follow(n, lines, counts, child, True):
                depth += 1
                break
    return 0


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a 2×2 with one clue, and the hints' reading."""
    seen_kernel.warm_up()
    for candidates in (True, False):
        follow(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.full(4, 6, np.int64), candidates)
    trials(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), 1,
           np.zeros(4, np.int64))
    graded(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), 1)
    other(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.full(4, 6, np.int64), np.array([1, 2, 2, 1]), 10,
          np.zeros(4, np.int64))
