"""Number Sums compiled with numba: the line rule, the assumptions it follows and the exact search.

``solvers/number_sums/techniques.py`` defines the techniques and their sentences and
``solvers/number_sums/rules.py`` the rules; the functions here find the same cells on flat arrays (a state
is one int8 per cell: -1 undecided, 0 crossed out, 1 selected), so that the look-aheads, which follow
thousands of assumptions per puzzle, and the uniqueness proofs of the generator cost microseconds
each. Python turns what they return into the player's steps.

Every rule is "the selected digits of these cells add up to this total". A line's verdict comes from
subset sums over its undecided digits: the sums reachable by the digits before each one and by those
after it tell, per digit, whether the line can still reach what it needs without it (else it is
selected) and with it (else it is crossed out). The bounds of ``sum-bounds`` are the cheap first look.

An assumption is followed exactly as ``human.Trial.follow`` follows it with ``sum-bounds`` and
``line-ways``: in rounds, the first of the two (in order) that finds something applies all it found,
each looking only at the rules through cells decided since its own last look (a trial lists its
decisions in order, so those are the tail of the list from where that look stopped). Whether and in
which round a trial breaks a rule does not depend on the order in which rules are visited; which
broken rule a sentence names does, and Python finds that by following the one quoted assumption again.

Arrays travel in two tuples: the board (``board_arrays``) and the scratch space of one call
(``scratch``). Every function is non-recursive and compiled with ``cache=True``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

UNDECIDED, CROSSED, SELECTED = -1, 0, 1
BOUNDS, WAYS = 0, 1  # the two looks of the line rule, in the order a trial tries them
BROKEN = -1  # a line that can no longer reach its target
WAYS_CAP = 1 << 60  # way counts saturate here: they only order the exact search's branching
EXHAUSTED, LIMIT_REACHED, SLICE_USED = 0, 1, 2  # how a slice of the exact search ended


def board_arrays(digits: list[int], rules: list[tuple[list[int], int]]) -> tuple[np.ndarray, ...]:
    """The board: (digits per cell; rule offsets; rule cells; totals; per-cell offsets into its rules;
    per-cell rules). Rules keep the order of ``sum_rules``, cells their order within a rule."""
    cells = len(digits)
    starts = np.zeros(len(rules) + 1, np.int32)
    for k, (members, _) in enumerate(rules):
        starts[k + 1] = starts[k] + len(members)
    members = np.array([i for rule, _ in rules for i in rule], np.int32)
    totals = np.array([total for _, total in rules], np.int64)
    of: list[list[int]] = [[] for _ in range(cells)]
    for k, (rule, _) in enumerate(rules):
        for i in rule:
            of[i].append(k)
    cell_starts = np.zeros(cells + 1, np.int32)
    for i in range(cells):
        cell_starts[i + 1] = cell_starts[i] + len(of[i])
    cell_rules = np.array([k for ks in of for k in ks], np.int32)
    return (np.array(digits, np.int64), starts, members.reshape(-1), totals, cell_starts, cell_rules)


def scratch(board: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
    """Room for one call: subset-sum tables as long as the longest rule and as wide as its digits' sum,
    trial states, decision lists and rule marks."""
    digits, starts, members = board[0], board[1], board[2]
    cells, rules = len(digits), len(starts) - 1
    longest = int(np.diff(starts).max()) if rules else 0
    widest = max((int(digits[members[starts[k]:starts[k + 1]]].sum()) for k in range(rules)), default=0)
    return (
        np.zeros((longest + 1, widest + 1), np.bool_),  # before: sums reachable by the first j free digits
        np.zeros((longest + 1, widest + 1), np.bool_),  # after: by the free digits from j on
        np.empty(widest + 1, np.int64),  # way counts per sum
        np.empty(longest, np.int32),  # a rule's free cells
        np.empty((2 * len(members) + 2, 2), np.int32),  # decisions found in one look: (cell, value)
        np.zeros(rules, np.int32),  # rule marks (a stamp per look)
        np.empty(rules, np.int32),  # rules to look at
        np.empty(cells, np.int8),  # a trial's state
        np.empty(cells, np.int32),  # a trial's decisions in order
        np.empty(cells, np.int32),  # the round each cell was decided in (a trial)
        np.empty(cells, np.int8),  # a second trial's state (both-ways)
        np.empty(cells, np.int32),  # its decisions
        np.empty(cells, np.int32),  # their rounds
        np.zeros(1, np.int64),  # the current stamp
        np.zeros((2, longest + 1), np.uint64),  # the subset sums of ``_ways_in_words``
    )


@njit(cache=True)
def _open(board, vals, k, free):
    """What rule ``k`` still needs and how many undecided cells it has (listed into ``free``)."""
    digits, starts, members, totals = board[0], board[1], board[2], board[3]
    need, count = totals[k], 0
    for p in range(starts[k], starts[k + 1]):
        i = members[p]
        if vals[i] == SELECTED:
            need -= digits[i]
        elif vals[i] == UNDECIDED:
            free[count] = i
            count += 1
    return need, count


@njit(cache=True)
def _line(board, vals, k, mode, work, out, found):
    """Rule ``k``'s verdict in ``mode``: its forced cells appended to ``out`` from ``found`` on; returns
    the new end, or BROKEN if the line can no longer reach its target (``bounds_of_line`` and
    ``ways_of_line``)."""
    digits = board[0]
    before, after, free = work[0], work[1], work[3]
    need, n = _open(board, vals, k, free)
    if n == 0:
        return found if need == 0 else BROKEN
    available = 0
    for j in range(n):
        available += digits[free[j]]
    if need < 0 or need > available:
        return BROKEN
    if mode == BOUNDS:
        for j in range(n):  # selected first, then crossed out, as the step lists them
            if available - digits[free[j]] < need:
                out[found, 0], out[found, 1] = free[j], SELECTED
                found += 1
        for j in range(n):
            if digits[free[j]] > need:
                out[found, 0], out[found, 1] = free[j], CROSSED
                found += 1
        return found
    if need < 64:
        return _ways_in_words(digits, free, n, need, work[14], out, found)
    before[0, :need + 1] = False
    before[0, 0] = True
    for j in range(n):
        d = digits[free[j]]
        before[j + 1, :need + 1] = before[j, :need + 1]
        for s in range(d, need + 1):
            if before[j, s - d]:
                before[j + 1, s] = True
    if not before[n, need]:
        return BROKEN
    after[n, :need + 1] = False
    after[n, 0] = True
    for j in range(n - 1, -1, -1):
        d = digits[free[j]]
        after[j, :need + 1] = after[j + 1, :need + 1]
        for s in range(d, need + 1):
            if after[j + 1, s - d]:
                after[j, s] = True
    for j in range(n):
        d = digits[free[j]]
        can_off = False
        for a in range(need + 1):
            if before[j, a] and after[j + 1, need - a]:
                can_off = True
                break
        if not can_off:
            out[found, 0], out[found, 1] = free[j], SELECTED
            found += 1
            continue
        can_on = False
        for a in range(need - d + 1):
            if before[j, a] and after[j + 1, need - d - a]:
                can_on = True
                break
        if not can_on:
            out[found, 0], out[found, 1] = free[j], CROSSED
            found += 1
    return found


@njit(cache=True)
def _ways_in_words(digits, free, n, need, words, out, found):
    """``_line``'s ways when what the line needs fits one machine word: bit s of ``words[0][j]`` says the
    first j free digits reach s; bit need - s of ``words[1][j]`` says the digits from j on reach s, so
    a digit can be left out iff the two words share a bit, and taken iff they do once it is added."""
    before, after = words[0], words[1]
    before[0] = np.uint64(1)
    for j in range(n):
        before[j + 1] = before[j] | (before[j] << np.uint64(digits[free[j]]))
    if not (before[n] >> np.uint64(need)) & np.uint64(1):
        return BROKEN
    after[n] = np.uint64(1) << np.uint64(need)
    for j in range(n - 1, -1, -1):
        after[j] = after[j + 1] | (after[j + 1] >> np.uint64(digits[free[j]]))
    for j in range(n):
        d = digits[free[j]]
        if not before[j] & after[j + 1]:
            out[found, 0], out[found, 1] = free[j], SELECTED
            found += 1
        elif d > need or not before[j] & (after[j + 1] >> np.uint64(d)):
            out[found, 0], out[found, 1] = free[j], CROSSED
            found += 1
    return found


@njit(cache=True)
def _ways(board, vals, k, work):
    """How many ways rule ``k``'s undecided digits reach what it needs (saturating at WAYS_CAP)."""
    digits, counts, free = board[0], work[2], work[3]
    need, n = _open(board, vals, k, free)
    if need < 0 or n == 0:
        return 0
    if need + 1 > counts.shape[0]:
        return WAYS_CAP  # wider than a table row: too many to matter for the order
    counts[:need + 1] = 0
    counts[0] = 1
    for j in range(n):
        d = digits[free[j]]
        for s in range(need, d - 1, -1):
            counts[s] = min(counts[s] + counts[s - d], WAYS_CAP)
    return counts[need]


# ------------------------------------------------------------------------------ assumptions


@njit(cache=True)
def _look(board, vals, mode, order, first, last, work):
    """One look of ``mode`` at the rules through ``order[first:last]``: the decisions it finds are in
    ``work[4][:end]``; returns end, or BROKEN."""
    cell_starts, cell_rules = board[4], board[5]
    out, marks, todo, stamp = work[4], work[5], work[6], work[13]
    stamp[0] += 1
    count = 0
    for p in range(first, last):
        i = order[p]
        for q in range(cell_starts[i], cell_starts[i + 1]):
            k = cell_rules[q]
            if marks[k] != stamp[0]:
                marks[k] = stamp[0]
                todo[count] = k
                count += 1
    found = 0
    for t in range(count):
        found = _line(board, vals, todo[t], mode, work, out, found)
        if found == BROKEN:
            return BROKEN
    return found


@njit(cache=True)
def follow(board, base, cell, value, max_rounds, vals, order, when, work):
    """Follow ``cell`` = ``value`` from ``base`` for at most ``max_rounds`` rounds in ``vals``; returns
    (round of the broken rule or 0, decisions in ``order``, rounds used). ``when`` holds each decided
    cell's round (the assumption itself is round 0)."""
    out = work[4]
    vals[:] = base
    vals[cell] = value
    order[0], when[cell] = cell, 0
    decided = 1
    looked = np.zeros(2, np.int64)
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        progress = False
        for mode in range(2):
            end = _look(board, vals, mode, order, looked[mode], decided, work)
            looked[mode] = decided
            if end == BROKEN:
                return rounds, decided, rounds
            for t in range(end):
                i, v = out[t, 0], out[t, 1]
                if vals[i] == UNDECIDED:
                    vals[i] = v
                    when[i] = rounds
                    order[decided] = i
                    decided += 1
                elif vals[i] != v:
                    return rounds, decided, rounds
            if end > 0:
                progress = True
                break
        if not progress:
            break
    return 0, decided, rounds


@njit(cache=True)
def first_contradiction(board, base, candidates, max_rounds, work):
    """The first of ``candidates`` (then value selected before crossed out) whose assumption breaks a
    rule within ``max_rounds`` rounds: (cell, value, round), or (-1, -1, 0)."""
    vals, order, when = work[7], work[8], work[9]
    for p in range(candidates.shape[0]):
        cell = candidates[p]
        for value in (SELECTED, CROSSED):
            broken, _, _ = follow(board, base, cell, value, max_rounds, vals, order, when, work)
            if broken:
                return cell, value, broken
    return -1, -1, 0


@njit(cache=True)
def first_both_ways(board, base, candidates, max_rounds, work):
    """The first of ``candidates`` whose two assumptions both hold and agree on some cell undecided in
    ``base``: what ``both_ways`` steps on; -1 if none."""
    on_vals, on_order, on_when = work[7], work[8], work[9]
    off_vals, off_order, off_when = work[10], work[11], work[12]
    for p in range(candidates.shape[0]):
        cell = candidates[p]
        broken, decided, _ = follow(board, base, cell, SELECTED, max_rounds, on_vals, on_order, on_when, work)
        if broken:
            continue
        broken, _, _ = follow(board, base, cell, CROSSED, max_rounds, off_vals, off_order, off_when, work)
        if broken:
            continue
        for t in range(1, decided):
            i = on_order[t]
            if off_vals[i] == on_vals[i]:
                return cell
    return -1


# ------------------------------------------------------------------------------ exact search


def search_state(board: tuple[np.ndarray, ...], keep: int) -> tuple[np.ndarray, ...]:
    """The exact search's state between slices: values, the trail of decided cells, per depth the
    branch cell, the value tried and the trail length before it, per rule its way count and a trail
    of way counts to restore, the rule queue, the solutions kept, and counters."""
    cells, rules = len(board[0]), len(board[1]) - 1
    return (
        np.full(cells, UNDECIDED, np.int8),
        np.empty(cells, np.int32),  # trail
        np.empty(cells + 1, np.int32),  # branch cell per depth
        np.empty(cells + 1, np.int8),  # value tried per depth
        np.empty(cells + 1, np.int32),  # trail length per depth
        np.zeros(rules, np.int64),  # ways per rule
        np.empty((rules * (cells + 1), 2), np.int64),  # ways trail: (rule, ways before)
        np.empty(cells + 1, np.int32),  # ways trail length per depth
        np.zeros(rules, np.bool_),  # queued
        np.empty(rules, np.int32),  # queue
        np.empty((max(keep, 1), cells), np.int8),  # solutions kept
        np.zeros(6, np.int64),  # depth, trail length, ways trail length, count, nodes, started
    )


@njit(cache=True)
def _propagate(board, state, work):
    """Fix every cell forced by a queued rule (and onward), as ``_Search.propagate``; False on a
    contradiction (the queue is then emptied)."""
    cell_starts, cell_rules = board[4], board[5]
    vals, trail, ways, ways_trail, queued, queue, regs = state[0], state[1], state[5], state[6], state[8], state[9], state[11]
    out = work[4]
    size = 0
    for k in range(queued.shape[0]):
        if queued[k]:
            queue[size] = k
            size += 1
    ok = True
    while size:
        size -= 1
        k = queue[size]
        queued[k] = False
        if not ok:
            continue
        end = _line(board, vals, k, WAYS, work, out, 0)
        if end == BROKEN:
            ok = False
            continue
        for t in range(end):
            i = out[t, 0]
            if vals[i] != UNDECIDED:
                continue
            vals[i] = out[t, 1]
            trail[regs[1]] = i
            regs[1] += 1
            for q in range(cell_starts[i], cell_starts[i + 1]):
                k2 = cell_rules[q]
                if not queued[k2]:
                    queued[k2] = True
                    queue[size] = k2
                    size += 1
        count = _ways(board, vals, k, work)
        if count != ways[k]:
            ways_trail[regs[2], 0], ways_trail[regs[2], 1] = k, ways[k]
            regs[2] += 1
            ways[k] = count
    return ok


@njit(cache=True)
def _branch_cell(board, state):
    """The first undecided cell of the open rule with the fewest ways left, or -1 when all are decided."""
    starts, members = board[1], board[2]
    vals, ways = state[0], state[5]
    best, best_ways = -1, WAYS_CAP + 1
    for k in range(starts.shape[0] - 1):
        if ways[k] < best_ways:
            for p in range(starts[k], starts[k + 1]):
                if vals[members[p]] == UNDECIDED:
                    best, best_ways = members[p], ways[k]
                    break
    return best


@njit(cache=True)
def _undo(board, state, depth):
    """Back to the state before depth ``depth``'s branch."""
    vals, trail, branch_trail, ways, ways_trail, ways_mark, regs = (state[0], state[1], state[4], state[5], state[6],
                                                                    state[7], state[11])
    while regs[1] > branch_trail[depth]:
        regs[1] -= 1
        vals[trail[regs[1]]] = UNDECIDED
    while regs[2] > ways_mark[depth]:
        regs[2] -= 1
        ways[ways_trail[regs[2], 0]] = ways_trail[regs[2], 1]


@njit(cache=True)
def _assign(board, state, work, depth, value):
    """Depth ``depth``'s branch cell = ``value``, propagated; False on a contradiction."""
    vals, trail, branch_cell, tried, queued, regs = state[0], state[1], state[2], state[3], state[8], state[11]
    cell_starts, cell_rules = board[4], board[5]
    i = branch_cell[depth]
    tried[depth] = value
    vals[i] = value
    trail[regs[1]] = i
    regs[1] += 1
    for q in range(cell_starts[i], cell_starts[i + 1]):
        queued[cell_rules[q]] = True
    return _propagate(board, state, work)


@njit(cache=True)
def search(board, state, work, limit, keep, max_nodes):
    """Depth-first search for up to ``limit`` solutions, selected tried before crossed out, keeping the
    first ``keep``; runs at most ``max_nodes`` more nodes. Returns EXHAUSTED, LIMIT_REACHED or
    SLICE_USED (call again to go on); counters are in ``state[11]``."""
    vals, branch_cell, tried, branch_trail, ways_mark, queued, kept, regs = (
        state[0], state[2], state[3], state[4], state[7], state[8], state[10], state[11])
    budget = regs[4] + max_nodes
    if regs[5] == 0:  # first slice: propagate every rule
        regs[5] = 1
        queued[:] = True
        if not _propagate(board, state, work):
            return EXHAUSTED
        regs[0] = 0
        descend = True
    else:
        descend = True  # resume at the node the last slice stopped before
    while True:
        if descend:
            if regs[4] >= budget:
                return SLICE_USED
            regs[4] += 1
            i = _branch_cell(board, state)
            if i < 0:
                if regs[3] < keep:
                    kept[regs[3], :] = vals
                regs[3] += 1
                if regs[3] >= limit:
                    descend = False
                    return LIMIT_REACHED
            else:
                depth = regs[0]
                branch_cell[depth] = i
                branch_trail[depth] = regs[1]
                ways_mark[depth] = regs[2]
                regs[0] += 1
                if _assign(board, state, work, depth, SELECTED):
                    continue
                _undo(board, state, depth)
                if _assign(board, state, work, depth, CROSSED):
                    continue
                _undo(board, state, depth)
                regs[0] -= 1
        descend = True
        while True:  # backtrack to the deepest branch with a value left to try
            if regs[0] == 0:
                return EXHAUSTED
            depth = regs[0] - 1
            _undo(board, state, depth)
            if tried[depth] == SELECTED and _assign(board, state, work, depth, CROSSED):
                break
            if tried[depth] == SELECTED:
                _undo(board, state, depth)
            regs[0] -= 1


# ------------------------------------------------------------------------------ the easy level's path

SOLVED, STUCK, BROKEN_RULE = 0, 1, 2  # how ``line_rule_path`` ended


@njit(cache=True)
def line_rule_path(board, vals, work):
    """``HumanSolver.run`` with the easy level alone, from ``vals`` (changed in place): every round, the
    line rule's bounds on every rule, or else its ways, each rule with something to decide one step,
    all applied. Returns (SOLVED, STUCK or BROKEN_RULE, bounds steps, ways steps): what the grade needs."""
    out = work[4]
    rules = board[1].shape[0] - 1
    steps = np.zeros(2, np.int64)
    undecided = 0
    for i in range(vals.shape[0]):
        undecided += vals[i] == UNDECIDED
    while undecided:
        progress = False
        for mode in range(2):
            found, count = 0, 0
            for k in range(rules):
                before = found
                found = _line(board, vals, k, mode, work, out, found)
                if found == BROKEN:
                    return BROKEN_RULE, steps[0], steps[1]
                count += found > before
            if count:
                for t in range(found):
                    i, v = out[t, 0], out[t, 1]
                    if vals[i] == UNDECIDED:
                        vals[i] = v
                        undecided -= 1
                    elif vals[i] != v:
                        return BROKEN_RULE, steps[0], steps[1]
                steps[mode] += count
                progress = True
                break
        if not progress:
            return STUCK, steps[0], steps[1]
    return SOLVED, steps[0], steps[1]
