"""The Star Battle levels compiled with numba: the kit's deductions (the rules alone round by round, short
trials, trials followed to the end) on bit masks, and the generator's walk over region maps that asks them.

A map of side ``n`` is ``k`` words (int64): a cell ``(r, c)`` is bit ``(r % per) * w + c`` of word ``r // per``,
``w = n + 1`` (a spare column keeps a shift off the next row) and ``per = 63 // w`` whole rows to a word, so that
no bit reaches the sign. A set of cells is an array of ``k`` words; a state two sets (stars, empty). ``layout``
makes a map's ``geometry`` (``n, stars, w, per, k``, then the board's ``k`` words), its units (rows, columns and
regions, in the order their cells first meet them row by row: one unit a row of ``units``) and each region id's
unit. Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.common import compile_lock
from solvers.engines.bits import popcount

N, STARS, WIDTH, PER, WORDS, BOARD = range(6)  # the geometry's fields (the board's words from BOARD on)
UNLIMITED = -1  # rounds: follow until nothing changes
HOLDS, BREAKS, UNKNOWN = range(3)  # what a trial comes to (``foreseen``)
CLOSENESS_WEIGHT = 0.3  # a heated walk's loss: cells decided plus this times the closeness lost


@njit(cache=True)
def layout(regions, stars):  # noqa: ANN001, ANN201 (numba)
    """A map's geometry, units and each region id's unit from its regions (ids 0 up, an (n, n) array) and stars
    per unit."""
    n = regions.shape[0]
    w = n + 1
    per = 63 // w
    k = (n + per - 1) // per
    slot = np.full(regions.max() + 1, -1, np.int64)
    row_unit, column_unit = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
    units = np.zeros((2 * n + n * n, k), np.int64)
    geometry = np.zeros(BOARD + k, np.int64)
    geometry[N], geometry[STARS], geometry[WIDTH], geometry[PER], geometry[WORDS] = n, stars, w, per, k
    count = 0
    for r in range(n):
        word, shift = r // per, (r % per) * w
        for c in range(n):
            bit = np.int64(1) << (shift + c)
            geometry[BOARD + word] |= bit
            if row_unit[r] < 0:
                row_unit[r] = count
                count += 1
            units[row_unit[r], word] |= bit
            if column_unit[c] < 0:
                column_unit[c] = count
                count += 1
            units[column_unit[c], word] |= bit
            region = regions[r, c]
            if slot[region] < 0:
                slot[region] = count
                count += 1
            units[slot[region], word] |= bit
    return geometry, units[:count].copy(), slot


@njit(cache=True)
def around(geometry, m, out):  # noqa: ANN001, ANN201 (numba)
    """Into ``out`` the cells touching the cells ``m``, diagonals included (not the cells themselves)."""
    w, per, k = geometry[WIDTH], geometry[PER], geometry[WORDS]
    top = (per - 1) * w  # the last row of a word, to carry into the next
    row = (np.int64(1) << w) - 1
    for i in range(k):
        board = geometry[BOARD + i]
        down = ((m[i] << w) | ((m[i - 1] >> top) if i else 0)) & board  # each cell's one below
        up = ((m[i] >> w) | (((m[i + 1] & row) << top) if i + 1 < k else 0)) & board  # and above
        v = m[i] | down | up
        out[i] = ((v << 1) | (v >> 1) | down | up) & board


@njit(cache=True)
def one_round(geometry, units, s, e, changed, work):  # noqa: ANN001, ANN201 (numba)
    """One round of the rules beside the cells ``changed`` last round (every other rule is as it was), on the
    state ``(s, e)`` in place, ``changed`` then the cells it decides: False when a rule breaks or two rules decide
    a cell both ways. ``work``: four rows of scratch."""
    stars, k = geometry[STARS], geometry[WORDS]
    near, open_, to_empty, to_star = work[0], work[1], work[2], work[3]
    for i in range(k):
        open_[i] = s[i] & changed[i]
    around(geometry, open_, near)
    for i in range(k):
        if near[i] & s[i]:
            return False
        open_[i] = geometry[BOARD + i] & ~s[i] & ~e[i]
        to_empty[i], to_star[i] = near[i] & open_[i], 0
    for u in range(units.shape[0]):
        touched, ones, left = False, 0, 0
        for i in range(k):
            touched |= (units[u, i] & changed[i]) != 0
        if not touched:
            continue
        for i in range(k):
            ones += popcount(units[u, i] & s[i])
            left += popcount(units[u, i] & open_[i])
        if ones > stars or ones + left < stars:
            return False
        if left and ones == stars:
            for i in range(k):
                to_empty[i] |= units[u, i] & open_[i]
        elif left and ones + left == stars:
            for i in range(k):
                to_star[i] |= units[u, i] & open_[i]
    for i in range(k):
        if to_star[i] & to_empty[i]:
            return False
        s[i] |= to_star[i]
        e[i] |= to_empty[i]
        changed[i] = to_star[i] | to_empty[i]
    return True


@njit(cache=True)
def follow(geometry, units, s, e, changed, rounds, work):  # noqa: ANN001, ANN201 (numba)
    """Rounds from the cells ``changed`` until nothing changes (or ``rounds`` of them, ``UNLIMITED``), on the state
    ``(s, e)`` in place (``changed`` used up): False when a rule breaks."""
    done = 0
    while np.any(changed) and (rounds < 0 or done < rounds):
        done += 1
        if not one_round(geometry, units, s, e, changed, work):
            return False
    return True


@njit(cache=True)
def assume(s, e, word, bit, star, ts, te, cell):  # noqa: ANN001, ANN201 (numba)
    """Into ``(ts, te)`` the state ``(s, e)`` with the open cell ``bit`` (of ``word``) a star or empty, and into
    ``cell`` that cell alone (what the rules' next round starts from)."""
    ts[:], te[:], cell[:] = s, e, 0
    cell[word] = bit
    (ts if star else te)[word] |= bit


@njit(cache=True)
def tally(units, s, e, ones, opens):  # noqa: ANN001, ANN201 (numba)
    """Into ``ones`` and ``opens`` each unit's stars and open cells in the state ``(s, e)``."""
    for u in range(units.shape[0]):
        ones[u], opens[u] = 0, 0
        for i in range(units.shape[1]):
            ones[u] += popcount(units[u, i] & s[i])
            opens[u] += popcount(units[u, i] & ~(s[i] | e[i]))


@njit(cache=True)
def trials(geometry, units, s, e, rounds, work, known):  # noqa: ANN001, ANN201 (numba)
    """Each open cell, row by row, assumed a star, then empty, and followed ``rounds`` rounds: a broken rule
    decides it the other way and the rules go on, passes over the grid until one decides nothing (as the kit's
    ``trials``), on the state ``(s, e)`` in place; False when the rules then break. A cell tried since the state
    last changed is not tried again: its trials would come to the same; nor is a trial that agrees with an answer
    of the map (``known``: its stars and its empty cells, as words; none when unknown), which never breaks a rule
    (``solvers.kit.known``). ``work``: nine rows."""
    n, w, per = geometry[N], geometry[WIDTH], geometry[PER]
    ts, te, cell = work[4], work[5], work[6]
    ones, opens = np.empty(units.shape[0], np.int64), np.empty(units.shape[0], np.int64)
    tally(units, s, e, ones, opens)
    tried, changes = np.full(n * n, -1, np.int64), 0  # the number of changes when each cell was last tried
    progress = True
    while progress and not done(geometry, s, e):
        progress = False
        for r in range(n):
            for c in range(n):
                if tried[r * n + c] == changes:
                    continue
                tried[r * n + c] = changes
                word, bit = r // per, np.int64(1) << ((r % per) * w + c)
                for star in (True, False):
                    if (s[word] | e[word]) & bit:
                        break
                    if known[0 if star else 1, word] & bit:
                        continue
                    verdict = foreseen(geometry, units, s, e, word, bit, star, rounds, work, ones, opens)
                    if verdict == HOLDS:
                        continue
                    if verdict == UNKNOWN:
                        assume(s, e, word, bit, star, ts, te, cell)
                        if follow(geometry, units, ts, te, cell, rounds, work):
                            continue
                    assume(s, e, word, bit, not star, ts, te, cell)
                    if not follow(geometry, units, ts, te, cell, UNLIMITED, work):
                        return False
                    s[:], e[:], progress = ts, te, True
                    tally(units, s, e, ones, opens)
                    changes += 1
    return True


@njit(cache=True)
def foreseen(geometry, units, s, e, word, bit, star, rounds, work, ones, opens):  # noqa: ANN001, ANN201 (numba)
    """What a trial of the open cell ``bit`` (of ``word``) comes to, told without following its rounds where the
    state makes that quick (``HOLDS``, ``BREAKS``; else ``UNKNOWN``: follow them). The state is one the rules
    leave unchanged: a unit holding its stars has no open cell, a unit with open cells has more of them than
    stars it lacks, no open cell touches a star. Then a cell assumed empty decides nothing unless one of its
    units is left with only as many open cells as stars it lacks; a cell assumed a star decides no star in round
    one, only empties (the cells around it, and the open cells of each unit it completes), and round two decides
    no empty cell, so a trial of two rounds breaks a rule exactly when a unit is left with fewer stars and open
    cells than it needs, and a longer trial too, which ends there unless round two places a star (a unit left
    with only as many open cells as stars it lacks). Most of a walk's trials are of these kinds, and this is a
    fraction of following them. ``ones`` and ``opens``: each unit's stars and open cells in the state (``tally``).
    ``work``: rows 7 and 8."""
    stars, k = geometry[STARS], geometry[WORDS]
    if not star:
        for u in range(units.shape[0]):
            if units[u, word] & bit and ones[u] + opens[u] - 1 <= stars:  # the cell itself is not left open
                return UNKNOWN
        return HOLDS
    if rounds == 1:
        return UNKNOWN
    cell, emptied = work[7], work[8]
    cell[:] = 0
    cell[word] = bit
    around(geometry, cell, emptied)
    for u in range(units.shape[0]):
        if units[u, word] & bit and ones[u] + 1 == stars:
            for i in range(k):
                emptied[i] |= units[u, i]
    for i in range(k):
        emptied[i] = (emptied[i] | cell[i]) & ~(s[i] | e[i])  # the open cells the trial takes
    forced = False  # a unit left with only as many open cells as stars it lacks: round two places them
    for u in range(units.shape[0]):
        taken = 0
        for i in range(k):
            taken += popcount(units[u, i] & emptied[i])
        have, left = ones[u] + int((units[u, word] & bit) != 0), opens[u] - taken
        if have + left < stars:
            return BREAKS
        forced |= left > 0 and have + left == stars
    return UNKNOWN if forced and rounds != 2 else HOLDS


@njit(cache=True)
def done(geometry, s, e):  # noqa: ANN001, ANN201 (numba)
    """Whether the state decides every cell."""
    return not np.any((s | e) != geometry[BOARD:])


@njit(cache=True)
def solve(geometry, units, level, short_rounds, known):  # noqa: ANN001, ANN201 (numba)
    """(True, stars, empty) the levels up to ``level`` (0 the rules alone, 1 trials of ``short_rounds`` rounds, 2
    trials to the end) decide; (False, ...) when the rules break (no answer). ``known``: as ``trials``'."""
    k = geometry[WORDS]
    s, e, work = np.zeros(k, np.int64), np.zeros(k, np.int64), np.empty((9, k), np.int64)
    ok = follow(geometry, units, s, e, geometry[BOARD:].copy(), UNLIMITED, work)
    for step in range(min(level, 2)):
        if ok and not done(geometry, s, e):
            ok = trials(geometry, units, s, e, short_rounds if step == 0 else UNLIMITED, work, known)
    return ok, s, e


@njit(cache=True)
def score(geometry, units, level, short_rounds, counts, known):  # noqa: ANN001, ANN201 (numba)
    """What ``solve`` leaves open: into ``counts`` each unit's open cells, and the open cells; -1 cells decided
    when the rules break (``counts`` untouched)."""
    ok, s, e = solve(geometry, units, level, short_rounds, known)
    board = geometry[BOARD:]
    open_ = board & ~(s | e)
    if not ok:
        return -1, open_
    for u in range(units.shape[0]):
        counts[u] = 0
        for i in range(geometry[WORDS]):
            counts[u] += popcount(units[u, i] & open_[i])
    decided = 0
    for i in range(geometry[WORDS]):
        decided += popcount(board[i] & ~open_[i])
    return decided, open_


@njit(cache=True)
def nearness(geometry, units, level, short_rounds, counts, known):  # noqa: ANN001, ANN201 (numba)
    """How near the level is to solving the map: the cells it decides, -Σ log(open cells + 1) over the units
    (nearer is larger), and the open cells."""
    decided, open_ = score(geometry, units, level, short_rounds, counts, known)
    closeness = 0.0
    if decided >= 0:
        for u in range(units.shape[0]):
            closeness -= np.log(counts[u] + 1.0)
    return decided, closeness, open_


@njit(cache=True)
def grow(cores, pace, largest, seed):  # noqa: ANN001, ANN201 (numba)
    """Regions grown from ``cores`` (each cell its core's region id, -1 elsewhere) by random orthogonal steps into
    free cells, a region taking a step as often as its ``pace`` against the others, none past ``largest`` cells;
    a cell no region reaches stays -1."""
    np.random.seed(seed)
    n = cores.shape[0]
    regions, sizes = cores.copy(), np.zeros(pace.shape[0], np.int64)
    frontier = np.empty((4 * n * n, 2), np.int64)  # (region, cell): every take adds at most four
    size = 0
    for cell in range(n * n):
        if regions.flat[cell] >= 0:
            sizes[regions.flat[cell]] += 1
            size = _push(frontier, size, regions.flat[cell], cell, n)
    while size:
        total = 0.0
        for i in range(size):
            total += pace[frontier[i, 0]]
        x, at = np.random.random() * total, size - 1
        for i in range(size):
            x -= pace[frontier[i, 0]]
            if x < 0:
                at = i
                break
        region, cell = frontier[at, 0], frontier[at, 1]
        size -= 1
        frontier[at] = frontier[size]
        if regions.flat[cell] < 0 and sizes[region] < largest:
            regions.flat[cell] = region
            sizes[region] += 1
            size = _push(frontier, size, region, cell, n)
    return regions


@njit(cache=True)
def _push(frontier, size, region, cell, n):  # noqa: ANN001, ANN202 (numba)
    r, c = cell // n, cell % n
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if 0 <= r + dr < n and 0 <= c + dc < n:
            frontier[size, 0], frontier[size, 1] = region, (r + dr) * n + c + dc
            size += 1
    return size


@njit(cache=True)
def balanced(sizes, largest, small, level):  # noqa: ANN001, ANN201 (numba)
    """No region past ``largest`` cells, at most one under ``small``, none of one cell above easy (level 0)."""
    return sizes.max() <= largest and (sizes < small).sum() <= 1 and (level == 0 or sizes.min() > 1)


@njit(cache=True)
def moves(regions, r, c, targets):  # noqa: ANN001, ANN201 (numba)
    """How many regions (into ``targets``) the cell may move to, keeping every region joined and none empty: the
    neighbours' other regions, when the cell's own region stays one group without it."""
    n, own = regions.shape[0], regions[r, c]
    found, start = 0, -1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n:
            if regions[rr, cc] == own:
                start = rr * n + cc
            else:
                targets[found] = regions[rr, cc]
                found += 1
                for i in range(found - 1):
                    if targets[i] == regions[rr, cc]:
                        found -= 1
                        break
    if not found or start < 0:
        return 0  # no other region beside it, or the cell is its region
    seen = np.zeros(n * n, np.bool_)
    seen[r * n + c] = seen[start] = True
    stack, top = np.empty(n * n, np.int64), 1
    stack[0] = start
    while top:
        top -= 1
        here = stack[top]
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = here // n + dr, here % n + dc
            if 0 <= rr < n and 0 <= cc < n and not seen[rr * n + cc] and regions[rr, cc] == own:
                seen[rr * n + cc] = True
                stack[top] = rr * n + cc
                top += 1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n and regions[rr, cc] == own and not seen[rr * n + cc]:
            return 0  # the region falls apart without the cell
    return found


@njit(cache=True)
def walk(regions, answer, stars, level, short_rounds, steps, focus, largest, small, seed, heat):  # noqa: ANN001, ANN201
    """The generator's walk on ``regions`` (changed in place; ids 0 to n - 1) around the stars of ``answer``: up to
    ``steps`` times a cell (never a star) moves to a neighbouring region, the move kept when the map stays
    balanced and the level decides at least as many cells, no farther from solving it (``nearness``). A share
    ``focus`` of the moves take a cell the level leaves open. With ``heat`` above 0 a move that loses ground is
    kept too, with odds exp(-loss / heat) (loss: cells decided, plus ``CLOSENESS_WEIGHT`` times the closeness),
    so a walk on a large map gets out of the dead ends where every move loses. True when the level decides every
    cell and the level below does not."""
    np.random.seed(seed)
    n = regions.shape[0]
    geometry, units, slot = layout(regions, stars)
    w, per, full = geometry[WIDTH], geometry[PER], n * n
    sizes = np.zeros(n, np.int64)
    for region in regions.ravel():
        sizes[region] += 1
    counts, targets = np.zeros(units.shape[0], np.int64), np.zeros(4, np.int64)
    loose = np.flatnonzero(answer.ravel() == 0)
    chosen, picks = np.empty(full, np.int64), -1  # the open cells that can move (-1: not read since the last move)
    known = np.zeros((2, geometry[WORDS]), np.int64)  # the answer's stars and empty cells: every map's answer
    for r in range(n):
        for c in range(n):
            known[0 if answer[r, c] else 1, r // per] |= np.int64(1) << ((r % per) * w + c)
    decided, closeness, open_ = nearness(geometry, units, level, short_rounds, counts, known)
    for _ in range(steps):
        if decided == full:
            if level == 0 or score(geometry, units, level - 1, short_rounds, counts, known)[0] < full:
                return True
            decided, picks = full - 1, 0  # too easy: walk on, away from what the level below decides
        if picks < 0:
            picks = 0
            for cell in loose:
                r, c = cell // n, cell % n
                if open_[r // per] >> ((r % per) * w + c) & 1 and moves(regions, r, c, targets):
                    chosen[picks] = cell
                    picks += 1
        cell = chosen[np.random.randint(0, picks)] if picks and np.random.random() < focus else \
            loose[np.random.randint(0, loose.shape[0])]
        r, c = cell // n, cell % n
        found = moves(regions, r, c, targets)
        if not found:
            continue
        own, to = regions[r, c], targets[np.random.randint(0, found)]
        sizes[own] -= 1
        sizes[to] += 1
        if balanced(sizes, largest, small, level):
            bit = np.int64(1) << ((r % per) * w + c)
            units[slot[own], r // per] ^= bit
            units[slot[to], r // per] ^= bit
            regions[r, c] = to
            moved = nearness(geometry, units, level, short_rounds, counts, known)
            if moved[0] > decided or moved[0] == decided and moved[1] >= closeness or heat > 0 and moved[0] >= 0 and \
                    np.random.random() < np.exp((moved[0] - decided + CLOSENESS_WEIGHT * (moved[1] - closeness)) / heat):
                decided, closeness, open_ = moved
                picks = -1
                continue
            units[slot[own], r // per] ^= bit
            units[slot[to], r // per] ^= bit
            regions[r, c] = own
        sizes[own] += 1
        sizes[to] -= 1
    return False


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a 5×5 map of one star and a 10×10 of two."""
    with compile_lock(__name__):
        for n, stars in ((5, 1), (10, 2)):
            regions = np.array([[r // 2 if stars == 2 else r for _ in range(n)] for r in range(n)], np.int64)
            geometry, units, _ = layout(regions, stars)
            for level in range(3):
                unknown = np.zeros((2, geometry[WORDS]), np.int64)
                score(geometry, units, level, 2, np.zeros(units.shape[0], np.int64), unknown)
                solve(geometry, units, level, 2, unknown)
            answer = np.zeros((n, n), np.int64)
            walk(regions, answer, stars, 1, 2, 3, 0.5, 3 * n, 2, 0, 1.0)
            cores = np.full((n, n), -1, np.int64)
            cores[:, 0] = np.arange(n)
            grow(cores, np.ones(n), 3 * n, 0)
