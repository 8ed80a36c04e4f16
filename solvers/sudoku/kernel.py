"""The Sudoku solution path compiled with numba: every technique of ``solvers/sudoku/techniques.py`` on
arrays, so that grading (and the generator, which grades every candidate puzzle it considers) costs
microseconds on 9×9 and milliseconds on 16×16 instead of Python's tens to hundreds.

The path is the one ``HumanSolver.run`` takes: look with the techniques in order, apply every step the
first that finds any saw (all found in the same state), look again. A look here finds the same steps
as the Python finder: the same count, the same placements, the same candidates taken out (each
technique's union; applying eliminations commutes, so their order within a look does not matter).
Python keeps the sentences: the path here is only (technique, effort parameter) per step, and a
state that breaks a rule or overflows the step arrays is handed back to the Python solver, which
raises the same Contradiction as before.

State: ``cand`` (one int32 mask per cell, bit d-1 for digit d; a decided cell keeps its digit's bit) and
``digits`` (0 undecided), as ``Candidates`` keeps them. Every function is non-recursive and compiled
with ``cache=True``.

The generator's swap toward a level (``swap_toward_level``) lives here too: each of its removals asks the
exact search (``solvers/sudoku/engine.py``) and each of its candidates the path, so here one compiled
call does a whole draw's swap.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.sudoku.engine import PASSED_OVER, SINGLES_FINISH, UNIQUE, smallest_forcing_net, stalled_addition, swap_removal

# The techniques in the order the solver tries them (``SOLVER``'s levels, flattened; checked at import there).
TECHNIQUES = ("hidden-single", "naked-single", "pointing", "claiming", "naked-pair", "hidden-pair", "naked-triple",
              "hidden-triple", "x-wing", "swordfish", "xy-wing", "xy-chain", "forcing-chain")
HIDDEN_SINGLE, NAKED_SINGLE, POINTING, CLAIMING, NAKED_PAIR, HIDDEN_PAIR, NAKED_TRIPLE, HIDDEN_TRIPLE, \
    X_WING, SWORDFISH, XY_WING, XY_CHAIN, FORCING_CHAIN = range(13)
TECHNIQUE_LEVEL = np.array([0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3], dtype=np.int32)

# How a call ends.
SOLVED, STUCK, BROKEN, OVERFLOW, PAUSED = range(5)


@njit(cache=True)
def _place(cand: np.ndarray, digits: np.ndarray, peers: np.ndarray, i: int, d: int) -> bool:
    """``Candidates.place``; False where it raises Contradiction."""
    if digits[i] == d:
        return True
    b = 1 << (d - 1)
    if digits[i] or not cand[i] & b:
        return False
    digits[i] = d
    cand[i] = b
    for p in peers[i]:
        if cand[p] & b:
            if digits[p]:
                return False
            cand[p] &= ~b
            if cand[p] == 0:
                return False
    return True


@njit(cache=True)
def start(cand: np.ndarray, digits: np.ndarray, givens: np.ndarray, peers: np.ndarray) -> bool:
    """``sudoku.start``: the givens placed in cell order on a grid of full masks; False where they clash."""
    i = 0
    while i < givens.shape[0] and (givens[i] == 0 or _place(cand, digits, peers, i, givens[i])):
        i += 1
    return i == givens.shape[0]


@njit(cache=True)
def _hidden_singles(cand: np.ndarray, digits: np.ndarray, units: np.ndarray, single_order: np.ndarray, full: int,
                    taken: np.ndarray, place_cell: np.ndarray, place_digit: np.ndarray) -> int:
    """``hidden_single``: the placements (each cell once per look), or -1 for a digit without a place."""
    taken[:] = False
    count = 0
    for k in single_order:
        once = 0
        twice = 0
        placed = 0
        for i in units[k]:
            m = cand[i]
            if digits[i]:
                placed |= m
            else:
                twice |= once & m
                once |= m
        if (once | placed) != full:
            return -1
        only = once & ~twice
        d = 0
        while only >> d:
            if only >> d & 1:
                cell = -1
                for i in units[k]:
                    if not digits[i] and cand[i] >> d & 1:
                        cell = i
                        break
                if not taken[cell]:
                    taken[cell] = True
                    place_cell[count] = cell
                    place_digit[count] = d + 1
                    count += 1
            d += 1
    return count


@njit(cache=True)
def _naked_singles(cand: np.ndarray, digits: np.ndarray, place_cell: np.ndarray, place_digit: np.ndarray) -> int:
    """``naked_single``: the placements, or -1 for a cell without candidates."""
    count = 0
    for i in range(cand.shape[0]):
        m = cand[i]
        if digits[i] or m & (m - 1):
            continue
        if m == 0:
            return -1
        d = 1
        while m >> d:
            d += 1
        place_cell[count] = i
        place_digit[count] = d
        count += 1
    return count


@njit(cache=True)
def _open_union(cand: np.ndarray, digits: np.ndarray, cells: np.ndarray) -> int:
    """The candidates of the undecided cells among ``cells`` (-1 pads)."""
    union = 0
    for i in cells:
        if i >= 0 and not digits[i]:
            union |= cand[i]
    return union


@njit(cache=True)
def _locked(cand: np.ndarray, digits: np.ndarray, crossings: np.ndarray, popcount: np.ndarray, pointing: bool,
            gone: np.ndarray) -> int:
    """``pointing`` / ``claiming``: one step per digit confined to a crossing."""
    count = 0
    for k in range(crossings.shape[0]):
        inside = _open_union(cand, digits, crossings[k, 0])
        if not inside:
            continue
        in_box = _open_union(cand, digits, crossings[k, 1])
        in_line = _open_union(cand, digits, crossings[k, 2])
        confined = inside & ~in_box & in_line if pointing else inside & ~in_line & in_box
        if not confined:
            continue
        count += popcount[confined]
        for i in crossings[k, 2 if pointing else 1]:
            if i >= 0 and not digits[i]:
                gone[i] |= cand[i] & confined
    return count


@njit(cache=True)
def _next_group(group: np.ndarray, size: int, total: int) -> bool:
    """Advance ``group[:size]`` (ascending indices below ``total``) to the next combination, in the order
    ``itertools.combinations`` gives them; False after the last."""
    k = size - 1
    while k >= 0 and group[k] == total - size + k:
        k -= 1
    if k < 0:
        return False
    group[k] += 1
    for j in range(k + 1, size):
        group[j] = group[j - 1] + 1
    return True


@njit(cache=True)
def _first_group(group: np.ndarray, size: int, total: int) -> bool:
    for j in range(size):
        group[j] = j
    return total >= size


@njit(cache=True)
def _naked_subsets(cand: np.ndarray, digits: np.ndarray, units: np.ndarray, popcount: np.ndarray, size: int,
                   gone: np.ndarray) -> int:
    """``naked_subset(size)``: one step per unit and group of ``size`` cells holding ``size`` digits."""
    n = units.shape[1]
    small = np.empty(n, dtype=np.int32)
    group = np.empty(size, dtype=np.int32)
    count = 0
    for k in range(units.shape[0]):
        unit = units[k]
        total = 0
        for i in unit:
            if not digits[i] and popcount[cand[i]] <= size:
                small[total] = i
                total += 1
        more = _first_group(group, size, total)
        while more:
            union = 0
            for j in range(size):
                union |= cand[small[group[j]]]
            if popcount[union] == size:
                hit = False
                for i in unit:
                    if digits[i] or not cand[i] & union:
                        continue
                    inside = False
                    for j in range(size):
                        if small[group[j]] == i:
                            inside = True
                    if not inside:
                        gone[i] |= cand[i] & union
                        hit = True
                if hit:
                    count += 1
            more = _next_group(group, size, total)
    return count


@njit(cache=True)
def _hidden_subsets(cand: np.ndarray, digits: np.ndarray, units: np.ndarray, popcount: np.ndarray, full: int,
                    size: int, gone: np.ndarray) -> int:
    """``hidden_subset(size)``: one step per unit and group of ``size`` digits confined to ``size`` cells."""
    n = units.shape[1]
    places = np.empty(n, dtype=np.int32)
    few = np.empty(n, dtype=np.int32)
    group = np.empty(size, dtype=np.int32)
    count = 0
    for k in range(units.shape[0]):
        unit = units[k]
        places[:] = 0
        placed = 0
        for pos in range(n):
            i = unit[pos]
            if digits[i]:
                placed |= cand[i]
                continue
            for d in range(n):
                if cand[i] >> d & 1:
                    places[d] |= 1 << pos
        total = 0
        for d in range(n):
            if (full & ~placed) >> d & 1 and 2 <= popcount[places[d]] <= size:
                few[total] = d
                total += 1
        more = _first_group(group, size, total)
        while more:
            where = 0
            keep = 0
            for j in range(size):
                where |= places[few[group[j]]]
                keep |= 1 << few[group[j]]
            if popcount[where] == size:
                hit = False
                for pos in range(n):
                    if where >> pos & 1:
                        i = unit[pos]
                        extra = cand[i] & ~keep
                        if extra:
                            gone[i] |= extra
                            hit = True
                if hit:
                    count += 1
            more = _next_group(group, size, total)
    return count


@njit(cache=True)
def _fish(cand: np.ndarray, digits: np.ndarray, units: np.ndarray, popcount: np.ndarray, size: int,
          gone: np.ndarray) -> int:
    """``fish(size)``: per digit, rows then columns as the base lines, one step per group of ``size`` base
    lines whose places lie in ``size`` cover lines and whose cover lines lose the digit elsewhere."""
    n = units.shape[1]
    places = np.empty(n, dtype=np.int32)
    bases = np.empty(n, dtype=np.int32)
    group = np.empty(size, dtype=np.int32)
    in_group = np.zeros(n, dtype=np.bool_)
    count = 0
    for d in range(n):
        b = 1 << d
        for across in range(2):  # 0: rows are the base lines, columns the cover; 1: the reverse
            base_first = 0 if across == 0 else n
            cover_first = n if across == 0 else 0
            total = 0
            for k in range(n):
                where = 0
                unit = units[base_first + k]
                for pos in range(n):
                    i = unit[pos]
                    if not digits[i] and cand[i] & b:
                        where |= 1 << pos
                if 2 <= popcount[where] <= size:
                    places[total] = where
                    bases[total] = k
                    total += 1
            more = _first_group(group, size, total)
            while more:
                cover = 0
                for j in range(size):
                    cover |= places[group[j]]
                if popcount[cover] == size:
                    for j in range(size):
                        in_group[bases[group[j]]] = True
                    hit = False
                    for pos in range(n):
                        if cover >> pos & 1:
                            for i in units[cover_first + pos]:
                                base = i // n if across == 0 else i % n
                                if not in_group[base] and not digits[i] and cand[i] & b:
                                    gone[i] |= b
                                    hit = True
                    for j in range(size):
                        in_group[bases[group[j]]] = False
                    if hit:
                        count += 1
                more = _next_group(group, size, total)
    return count


@njit(cache=True)
def _bivalue(cand: np.ndarray, digits: np.ndarray, popcount: np.ndarray) -> np.ndarray:
    twos = np.empty(cand.shape[0], dtype=np.int32)
    total = 0
    for i in range(cand.shape[0]):
        if not digits[i] and popcount[cand[i]] == 2:
            twos[total] = i
            total += 1
    return twos[:total]


@njit(cache=True)
def _seen_by_both(cand: np.ndarray, digits: np.ndarray, sees: np.ndarray, a: int, b: int, bit: int,
                  gone: np.ndarray | None) -> bool:
    """Whether an undecided cell seeing both ``a`` and ``b`` holds ``bit``; with ``gone``, it is taken out."""
    hit = False
    for i in range(cand.shape[0]):
        if sees[a, i] and sees[b, i] and not digits[i] and cand[i] & bit:
            hit = True
            if gone is None:
                return True
            gone[i] |= bit
    return hit


@njit(cache=True)
def _xy_wing(cand: np.ndarray, digits: np.ndarray, sees: np.ndarray, popcount: np.ndarray, gone: np.ndarray) -> int:
    """``xy_wing``: the first wing (pivot, then pincers in cell order) that takes something out."""
    twos = _bivalue(cand, digits, popcount)
    for pivot in twos:
        pm = cand[pivot]
        x = pm & -pm
        y = pm & ~x
        for a in twos:
            if a == pivot or not sees[pivot, a]:
                continue
            shared = cand[a] & pm
            if shared != x and shared != y:
                continue
            z = cand[a] & ~shared
            want = (pm & ~shared) | z
            for b in twos:
                if b in (a, pivot) or not sees[pivot, b] or cand[b] != want:
                    continue
                if _seen_by_both(cand, digits, sees, a, b, z, None):
                    _seen_by_both(cand, digits, sees, a, b, z, gone)
                    return 1
    return 0


@njit(cache=True)
def _xy_chain(cand: np.ndarray, digits: np.ndarray, sees: np.ndarray, popcount: np.ndarray, max_cells: int,
              gone: np.ndarray) -> int:
    """``xy_chain``: the shortest chain (breadth first from each bivalue cell and digit, in cell and digit
    order; a later chain replaces the best only when strictly shorter). Returns its length (0: none)."""
    twos = _bivalue(cand, digits, popcount)
    t = twos.shape[0]
    cells = cand.shape[0]
    node_cell = np.empty(2 * t + 2, dtype=np.int32)
    node_forced = np.empty(2 * t + 2, dtype=np.int32)  # the digit's bit the cell is forced to take
    node_parent = np.empty(2 * t + 2, dtype=np.int32)
    seen = np.zeros((cells, 2), dtype=np.bool_)  # per cell: forced to its lower, or its higher digit
    best_len, best_first, best_last, best_z = 0, -1, -1, 0
    for first in twos:
        fm = cand[first]
        for side in range(2):
            z = fm & -fm if side == 0 else fm & ~(fm & -fm)
            seen[:, :] = False
            node_cell[0], node_forced[0], node_parent[0] = first, fm & ~z, -1
            seen[first, 0 if fm & ~z == fm & -fm else 1] = True
            lo, hi, nodes, length = 0, 1, 1, 1
            while hi > lo and (best_len == 0 or length < best_len):
                for f in range(lo, hi):
                    if length >= max_cells:
                        continue
                    cell, forced = node_cell[f], node_forced[f]
                    for nxt in twos:
                        if nxt == cell or not sees[cell, nxt] or not cand[nxt] & forced:
                            continue
                        on_chain = False
                        g = f
                        while g >= 0:
                            if node_cell[g] == nxt:
                                on_chain = True
                                break
                            g = node_parent[g]
                        if on_chain:
                            continue
                        then = cand[nxt] & ~forced
                        if then == z and length + 1 >= 3 and (best_len == 0 or length + 1 < best_len) \
                                and _seen_by_both(cand, digits, sees, first, nxt, z, None):
                            best_len, best_first, best_last, best_z = length + 1, first, nxt, z
                        which = 0 if then == cand[nxt] & -cand[nxt] else 1
                        if not seen[nxt, which]:
                            seen[nxt, which] = True
                            node_cell[nodes], node_forced[nodes], node_parent[nodes] = nxt, then, f
                            nodes += 1
                lo, hi = hi, nodes
                length += 1
    if best_len:
        _seen_by_both(cand, digits, sees, best_first, best_last, best_z, gone)
    return best_len


@njit(cache=True)
def _forcing_chain(cand: np.ndarray, digits: np.ndarray, units: np.ndarray, peers: np.ndarray, popcount: np.ndarray,
                   full: int, rounds: int, gone: np.ndarray) -> int:
    """``forcing_chain``: the smallest net that breaks a rule (cells tried fewest candidates first, then in
    cell order). Returns the cells it decided plus one (0: none)."""
    n = units.shape[1]
    order = np.empty(cand.shape[0], dtype=np.int32)
    total = 0
    for k in range(n + 1):
        for i in range(cand.shape[0]):
            if not digits[i] and popcount[cand[i]] == k:
                order[total] = i
                total += 1
    best = np.zeros(4, dtype=np.int64)
    if not smallest_forcing_net(cand, order[:total], units, peers, full, rounds, best):
        return 0
    gone[best[2]] |= 1 << (best[3] - 1)
    return best[0] + 1


@njit(cache=True)
def _look(technique: int, cand: np.ndarray, digits: np.ndarray, units: np.ndarray, single_order: np.ndarray,
          peers: np.ndarray, sees: np.ndarray, crossings: np.ndarray, popcount: np.ndarray, full: int,
          chain_cells: int, forcing_rounds: int, taken: np.ndarray, place_cell: np.ndarray, place_digit: np.ndarray,
          gone: np.ndarray) -> tuple[int, int]:
    """One technique's look: (steps found, -1 for a broken rule; the effort parameter of its steps)."""
    if technique == HIDDEN_SINGLE:
        return _hidden_singles(cand, digits, units, single_order, full, taken, place_cell, place_digit), 0
    if technique == NAKED_SINGLE:
        return _naked_singles(cand, digits, place_cell, place_digit), 0
    if technique in (POINTING, CLAIMING):
        return _locked(cand, digits, crossings, popcount, technique == POINTING, gone), 0
    if technique in (NAKED_PAIR, NAKED_TRIPLE):
        return _naked_subsets(cand, digits, units, popcount, 2 if technique == NAKED_PAIR else 3, gone), 0
    if technique in (HIDDEN_PAIR, HIDDEN_TRIPLE):
        return _hidden_subsets(cand, digits, units, popcount, full, 2 if technique == HIDDEN_PAIR else 3, gone), 0
    if technique in (X_WING, SWORDFISH):
        return _fish(cand, digits, units, popcount, 2 if technique == X_WING else 3, gone), 0
    if technique == XY_WING:
        return _xy_wing(cand, digits, sees, popcount, gone), 0
    if technique == XY_CHAIN:
        length = _xy_chain(cand, digits, sees, popcount, chain_cells, gone)
        return (1 if length else 0), length
    decided = _forcing_chain(cand, digits, units, peers, popcount, full, forcing_rounds, gone)
    return (1 if decided else 0), decided - 1


@njit(cache=True)
def solve_path(cand: np.ndarray, digits: np.ndarray, upto: int, units: np.ndarray, single_order: np.ndarray,
               peers: np.ndarray, sees: np.ndarray, crossings: np.ndarray, popcount: np.ndarray, full: int,
               chain_cells: int, forcing_rounds: int, step_technique: np.ndarray, step_param: np.ndarray,
               control: np.ndarray, max_looks: int) -> int:
    """Follow the path with the techniques up to level ``upto``, in place, for at most ``max_looks`` looks
    (then PAUSED: call again to resume). ``control[0]`` counts the steps written to ``step_technique``
    and ``step_param`` (empty arrays: the steps are only counted). Returns SOLVED, STUCK, BROKEN (a rule
    broke: Python's solver tells which) or OVERFLOW (more steps than the arrays hold)."""
    cells = cand.shape[0]
    taken = np.zeros(cells, dtype=np.bool_)
    place_cell = np.empty(cells, dtype=np.int32)
    place_digit = np.empty(cells, dtype=np.int32)
    gone = np.zeros(cells, dtype=np.int32)
    for _ in range(max_looks):
        undecided = 0
        for i in range(cells):
            if not digits[i]:
                undecided += 1
        if undecided == 0:
            for u in range(units.shape[0]):  # the last steps may complete a grid that breaks a rule
                union = 0
                for i in units[u]:
                    union |= cand[i]
                if union != full:
                    return BROKEN
            return SOLVED
        found = 0
        for technique in range(TECHNIQUE_LEVEL.shape[0]):
            if TECHNIQUE_LEVEL[technique] > upto:
                break
            found, param = _look(technique, cand, digits, units, single_order, peers, sees, crossings, popcount,
                                 full, chain_cells, forcing_rounds, taken, place_cell, place_digit, gone)
            if found < 0:
                return BROKEN
            if found == 0:
                continue
            steps = control[0]
            if step_technique.shape[0]:
                if steps + found > step_technique.shape[0]:
                    return OVERFLOW
                step_technique[steps:steps + found] = technique
                step_param[steps:steps + found] = param
            control[0] = steps + found
            if technique <= NAKED_SINGLE:
                for k in range(found):
                    if not _place(cand, digits, peers, place_cell[k], place_digit[k]):
                        return BROKEN
            else:
                for i in range(cells):
                    if gone[i]:
                        cand[i] &= ~gone[i]
                        gone[i] = 0
                        if cand[i] == 0:
                            return BROKEN
            break
        if found <= 0:
            return STUCK
    return PAUSED


@njit(cache=True)
def finishes(givens: np.ndarray, upto: int, units: np.ndarray, single_order: np.ndarray, peers: np.ndarray,
             sees: np.ndarray, crossings: np.ndarray, popcount: np.ndarray, full: int, chain_cells: int,
             forcing_rounds: int) -> bool:
    """Whether the techniques up to level ``upto`` finish ``givens`` (``start``, then ``solve_path`` without
    recording its steps, so it never overflows). Every look takes out a candidate, so the path ends within
    one look per candidate of the empty grid."""
    cells = givens.shape[0]
    cand = np.full(cells, full, dtype=np.int32)
    digits = np.zeros(cells, dtype=np.int32)
    if not start(cand, digits, givens, peers):
        return False
    no_steps = np.empty(0, dtype=np.int32)
    return solve_path(cand, digits, upto, units, single_order, peers, sees, crossings, popcount, full, chain_cells,
                      forcing_rounds, no_steps, no_steps, np.zeros(1, dtype=np.int64), cells * units.shape[1] + 1) \
        == SOLVED


@njit(cache=True)
def swap_toward_level(givens: np.ndarray, order: np.ndarray, intended: np.ndarray, first: np.ndarray,
                      last: np.ndarray, given_masks: np.ndarray, search_order: np.ndarray, unit_bits: np.ndarray,
                      search_crossings: np.ndarray, no_crossings: np.ndarray, min_open: int, limit: int, budget: int,
                      upto: int, units: np.ndarray, single_order: np.ndarray, peers: np.ndarray, sees: np.ndarray,
                      crossings: np.ndarray, popcount: np.ndarray, full: int, chain_cells: int,
                      forcing_rounds: int) -> bool:
    """The generator's swap toward level ``upto`` (``generators.sudoku.swap_for_level``) in one call, in place
    on ``givens`` (unique, solved by ``intended``, singles finish them): each cell group of ``order``
    (``first`` and ``last`` cell each) taken out in turn, ``engine.swap_removal`` telling what that comes
    to; singles still finishing: it stays out; unique: the level may finish it as it is; else each
    absent group, in order, that is a ``stalled_addition`` is tried with the level. True at the first
    the level finishes (``givens`` then hold it), False if none. Bounded: one listing of at most
    ``budget`` nodes per removal, one path per addition."""
    cells = givens.shape[0]
    groups = first.shape[0]
    absent = np.empty(groups, dtype=np.bool_)
    for o in range(groups):
        absent[o] = givens[first[o]] == 0
    fewer = np.empty(cells, dtype=np.int32)
    stuck = np.empty(cells, dtype=np.int32)
    cand = np.empty(cells, dtype=np.int32)
    queue = np.empty(cells, dtype=np.int32)
    others = np.empty((limit, cells), dtype=np.int8)
    for k in order:
        fewer[:] = givens
        fewer[first[k]] = 0
        fewer[last[k]] = 0
        found = swap_removal(fewer, k, intended, first, last, given_masks, search_order, units, peers, unit_bits,
                             search_crossings, no_crossings, popcount, full, min_open, limit, budget, stuck, others)
        if found == SINGLES_FINISH:  # so it is unique: the polish, on the way
            givens[:] = fewer
            absent[k] = True
            continue
        if found == PASSED_OVER:
            continue
        if found == UNIQUE:
            if finishes(fewer, upto, units, single_order, peers, sees, crossings, popcount, full, chain_cells,
                        forcing_rounds):
                givens[:] = fewer
                return True
            continue
        for o in range(groups):
            a, b = first[o], last[o]
            if not absent[o] or not stalled_addition(stuck, others[:found], intended, a, b, units, peers, unit_bits,
                                                     no_crossings, full, cand, queue):
                continue
            fewer[a], fewer[b] = intended[a], intended[b]
            if finishes(fewer, upto, units, single_order, peers, sees, crossings, popcount, full, chain_cells,
                        forcing_rounds):
                givens[:] = fewer
                return True
            fewer[a], fewer[b] = 0, 0
    return False
