"""The Ubongo human model compiled with numba: the grade a generator asks for, card after card.

``solvers/ubongo/techniques.py`` defines the techniques, their sentences and the hints; the functions
here take the same solution path without writing it, so that a walk toward a level can grade every
card it meets. They work on the placements of ``solvers.ubongo.engine.build`` (cells numbered
0..n-1 in row-major order, placements in the order of ``techniques.Board.placements``: by first cell, then piece,
then orientation), and return per step its technique and effort; ``SOLVER.grade_steps`` makes the
grade. Every filter and trial is the Python one, decided the same way:

- ``fit``, ``region`` and ``parity`` keep the placements the Python ``live`` keeps. ``assignable`` asks
  the same question (can the remaining pieces, ``left`` of them, fill the regions, each region's sizes
  adding up to its area and its colour imbalance made of the pieces' imbalances, each either way
  round) over the pieces as a multiset of kinds, (size, imbalance) pairs, region by region;
- a technique's steps are every placement ``forced`` finds (a cell or, in mode given, a piece with one
  live placement left), all applied before looking again; a cell or piece with none is a dead end;
- the trials visit cells by (live placements, cell) and each cell's placements in live order, and
  count dead ends as ``search`` does, the deep one depth first from the tightest cell, stopping at the
  first covering.

The order in which a round's forced placements are applied changes neither the state nor whether
one conflicts with another, so the grade is the Python one. Every function is non-recursive (the deep
trial keeps its stack in arrays) and compiled with ``cache=True``.

``walk_step`` is one step of the generator's walk toward a level (``generators.ubongo.TowardLevel``): it
lives here, beside ``count_and_grade``, because it runs that on every card a move reaches.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from solvers.engines.bits import lowest_bit, popcount
from solvers.ubongo import engine

FIT, REGION, PARITY = 0, 1, 2  # the live-placement filters, weakest first
# The techniques in the order the solver tries them (``SOLVER.techniques()``), as the steps report them.
ONLY_FIT, CUT_OFF_REGION, PARITY_STEP, TWO_WAY, TRIAL, DEEP_TRIAL = range(6)
UNTRIED, ALIVE, DEAD = 0, 1, 2  # how trying a placement ended
MOST_TRIED = 99  # ``trial`` looks at cells with up to this many live placements, as in Python
OFFSET = 32  # imbalance sums are bits of a word, shifted by this much (every catalogue's leans add up to less)
ONE = np.uint64(1)
ZERO = np.uint64(0)


class PieceSet(NamedTuple):
    """What the count and the grader take about a piece set, the same for every card of it
    (``solvers.ubongo.techniques.piece_set``)."""

    orientations: engine.Orientations  # every orientation of the pieces, as ``engine.build`` places them
    counting: engine.Counting  # what the count takes: areas, area sums, pieces a covering uses, mode
    kinds: np.ndarray  # per piece, its kind (``techniques.piece_kinds``): row 0 by area, row 1 by area and colours
    kind_size: np.ndarray  # per kind, its area (rows as in kinds)
    kind_lean: np.ndarray  # per kind, its colour imbalance
    kind_count: np.ndarray  # per row, how many kinds


class Board(NamedTuple):
    """A card as the grader takes it (``make_board``): its placements as ``engine.build`` makes them, with
    its checkerboard and piece set."""

    placements: engine.Placements  # the card's cells and the pieces' placements on them (``engine.build``)
    dark: int  # the dark cells of the checkerboard
    pieces: PieceSet


class Scratch(NamedTuple):
    """Room for one grade (``make_scratch``): the techniques reuse it rather than allocate."""

    have: np.ndarray  # remaining pieces per kind
    parts: np.ndarray  # the free cells' regions
    region_areas: np.ndarray
    region_imbalances: np.ndarray
    choice: np.ndarray  # ``_assignable``: per (region, kind), how many pieces of the kind go to the region
    area_at: np.ndarray  # the region's area so far
    pieces_at: np.ndarray  # pieces so far
    sums_at: np.ndarray  # imbalance sums so far
    options: np.ndarray  # live placements
    counts: np.ndarray  # per cell, the live placements covering it
    only: np.ndarray  # per cell, the last of them
    per_piece: np.ndarray  # per piece, its live placements
    piece_only: np.ndarray  # per piece, the last of them
    placed: np.ndarray  # a round's forced placements
    states: np.ndarray  # ``search``: (covered, used) per depth
    tried: np.ndarray  # options tried per depth
    stack_options: np.ndarray  # options per depth
    stack_sizes: np.ndarray  # how many options per depth
    here: np.ndarray  # ``trial_step``: a trial cell's options
    trial_state: np.ndarray  # a trial's (covered, used)
    outcome: np.ndarray  # per placement, how trying it ended (``UNTRIED``, ``ALIVE``, ``DEAD``)
    outcome_dead_ends: np.ndarray  # and the dead ends it met


@njit(cache=True)
def _regions(free, neighbours, out):
    """The connected regions of ``free`` into ``out``; returns how many."""
    n = 0
    while free:
        low = free & (~free + ONE)
        region = low
        frontier = low
        while frontier:
            grown = ZERO
            bits = frontier
            while bits:
                grown |= neighbours[lowest_bit(bits)]
                bits &= bits - ONE
            frontier = grown & free & ~region
            region |= frontier
        out[n] = region
        n += 1
        free &= ~region
    return n


@njit(cache=True)
def _signed(sums, n, lean):
    """The imbalance sums ``sums`` (bits, see OFFSET) with ``n`` more pieces of imbalance ``lean`` added,
    each either way round."""
    if n == 0 or lean == 0:
        return sums
    out = ZERO
    for minus in range(n + 1):
        shift = (n - 2 * minus) * lean
        if shift >= 0:
            out |= sums << np.uint64(shift)
        else:
            out |= sums >> np.uint64(-shift)
    return out


@njit(cache=True)
def _assignable(have, kind_size, kind_lean, count, left, scratch):
    """Whether ``left`` of the pieces (``have[t]`` of kind t) can fill the ``count`` regions of ``scratch``
    (their areas and imbalances) exactly (``solvers.ubongo.techniques.assignable``). Depth first over
    (region, kind): how many pieces of that kind go to that region."""
    areas, imbalances = scratch.region_areas, scratch.region_imbalances
    choice, area_at, pieces_at, sums_at = scratch.choice, scratch.area_at, scratch.pieces_at, scratch.sums_at
    if count == 0:
        return left == 0
    kinds = have.shape[0]
    for r in range(count):
        if abs(imbalances[r]) >= OFFSET:
            return False
    pos = 0
    choice[0] = -1
    area_at[0] = 0
    pieces_at[0] = 0
    sums_at[0] = ONE << np.uint64(OFFSET)
    while pos >= 0:
        region, kind = pos // kinds, pos % kinds
        choice[pos] += 1
        n = choice[pos]
        available = have[kind]
        for earlier in range(region):
            available -= choice[earlier * kinds + kind]
        area = area_at[pos] + n * kind_size[kind]
        used = pieces_at[pos] + n
        if n > available or area > areas[region] or used > left:
            pos -= 1
            continue
        sums = _signed(sums_at[pos], n, kind_lean[kind])
        if kind == kinds - 1:
            if area != areas[region] or not (sums >> np.uint64(imbalances[region] + OFFSET)) & ONE:
                continue
            if region == count - 1:
                if used == left:
                    return True
                continue
            area, sums = 0, ONE << np.uint64(OFFSET)
        pos += 1
        choice[pos] = -1
        area_at[pos] = area
        pieces_at[pos] = used
        sums_at[pos] = sums
    return False


@njit(cache=True)
def _sorted_regions(parts, n, dark, with_colours, areas, imbalances):
    """The regions' (area, imbalance), smallest area first: the region with the fewest fillings first."""
    for i in range(n):
        size = popcount(parts[i])
        areas[i] = size
        imbalances[i] = 2 * popcount(parts[i] & dark) - size if with_colours else 0
    for i in range(1, n):
        j = i
        while j > 0 and areas[j - 1] > areas[j]:
            areas[j - 1], areas[j] = areas[j], areas[j - 1]
            imbalances[j - 1], imbalances[j] = imbalances[j], imbalances[j - 1]
            j -= 1


@njit(cache=True)
def _subset_sums_without(areas, used):
    """Per piece k, the totals some of the unused pieces other than k make, as bits of a word: whether a
    region's area is one of them is the first thing ``_assignable`` finds out about a placement of k."""
    out = np.zeros(areas.shape[0], np.uint64)
    for k in range(areas.shape[0]):
        sums = ONE
        for other in range(areas.shape[0]):
            if other != k and not (used >> other) & 1:
                sums |= sums << np.uint64(areas[other])
        out[k] = sums
    return out


@njit(cache=True)
def _sizes_fit(parts, n, sums):
    """Whether every one of the ``n`` regions ``parts`` has an area among the totals ``sums``."""
    for i in range(n):  # noqa: SIM110 - numba
        if not (sums >> np.uint64(popcount(parts[i]))) & ONE:
            return False
    return True


@njit(cache=True)
def live(board, scratch, covered, used, strength, out):
    """The placements the filter ``strength`` keeps (``solvers.ubongo.techniques.live``) into ``out``,
    in placement order; returns how many."""
    placements, pieces = board.placements, board.pieces
    first, piece, mask, neighbours, full = (placements.first, placements.piece, placements.mask, placements.neighbours,
                                            placements.full)
    dark = board.dark
    counting = pieces.counting
    areas, sums, count, use_all = counting.areas, counting.sums, counting.count, counting.use_all
    have, parts = scratch.have, scratch.parts
    free = full & ~covered
    left = count - popcount(np.uint64(used))
    found = 0
    if left <= 0:
        return 0
    area = popcount(free)
    all_pieces = (1 << areas.shape[0]) - 1
    with_colours = strength == PARITY
    if strength != FIT:
        fillings = _subset_sums_without(areas, used)
    bits = free
    while bits:
        cell = lowest_bit(bits)
        bits &= bits - ONE
        for j in range(first[cell], first[cell + 1]):
            k = piece[j]
            m = mask[j]
            if (used >> k) & 1 or m & ~free:
                continue
            if not use_all:
                rest = area - areas[k]
                if rest < 0 or not (sums[all_pieces & ~(used | (1 << k)), left - 1] >> rest) & 1:
                    continue
            if strength != FIT:
                n = _regions(free & ~m, neighbours, parts)
                if n >= 2 and not _sizes_fit(parts, n, fillings[k]):
                    continue  # a region no choice of the pieces left adds up to: ``_assignable`` would say so, slower
                if n >= 2 or with_colours:
                    w = 1 if with_colours else 0
                    have[:] = 0
                    for other in range(areas.shape[0]):
                        if other != k and not (used >> other) & 1:
                            have[pieces.kinds[w, other]] += 1
                    _sorted_regions(parts, n, dark, with_colours, scratch.region_areas, scratch.region_imbalances)
                    if not _assignable(have[:pieces.kind_count[w]], pieces.kind_size[w], pieces.kind_lean[w], n,
                                       left - 1, scratch):
                        continue
            out[found] = j
            found += 1
    return found


@njit(cache=True)
def _covering_counts(board, options, n, counts, only):
    """Per free cell, how many of the ``n`` ``options`` cover it (``counts``) and the last of them
    (``only``, the one placement where the count is 1)."""
    mask = board.placements.mask
    counts[:] = 0
    for i in range(n):
        j = options[i]
        bits = mask[j]
        while bits:
            cell = lowest_bit(bits)
            bits &= bits - ONE
            counts[cell] += 1
            only[cell] = j


@njit(cache=True)
def _add_once(out, found, j):
    """Append ``j`` to the first ``found`` entries of ``out`` unless it is there; the new count."""
    for i in range(found):
        if out[i] == j:
            return found
    out[found] = j
    return found + 1


@njit(cache=True)
def forced(board, scratch, covered, used, strength, out):
    """The placements ``strength`` forces (``solvers.ubongo.techniques.forced``) into ``out``; returns how
    many, or -1 at a dead end (a free cell or, in mode given, an unused piece with no live placement)."""
    piece, full = board.placements.piece, board.placements.full
    areas, use_all = board.pieces.counting.areas, board.pieces.counting.use_all
    options, counts, only, per_piece, piece_only = (scratch.options, scratch.counts, scratch.only, scratch.per_piece,
                                                    scratch.piece_only)
    n = live(board, scratch, covered, used, strength, options)
    _covering_counts(board, options, n, counts, only)
    found = 0
    bits = full & ~covered
    while bits:
        cell = lowest_bit(bits)
        bits &= bits - ONE
        if counts[cell] == 0:
            return -1
        if counts[cell] == 1:
            found = _add_once(out, found, only[cell])
    if use_all:
        per_piece[:] = 0
        for i in range(n):
            per_piece[piece[options[i]]] += 1
            piece_only[piece[options[i]]] = options[i]
        for k in range(areas.shape[0]):
            if (used >> k) & 1:
                continue
            if per_piece[k] == 0:
                return -1
            if per_piece[k] == 1:
                found = _add_once(out, found, piece_only[k])
    return found


@njit(cache=True)
def _place_all(board, placements, n, state):
    """Place ``n`` placements on ``state`` ([covered, used]); False if two need one piece or one cell."""
    piece, mask = board.placements.piece, board.placements.mask
    for i in range(n):
        j = placements[i]
        bit = 1 << piece[j]
        if state[1] & bit or np.uint64(state[0]) & mask[j]:
            return False
        state[0] = np.int64(np.uint64(state[0]) | mask[j])
        state[1] |= bit
    return True


@njit(cache=True)
def settle(board, scratch, state):
    """Place what the counting techniques force until nothing is (``solvers.ubongo.techniques.settle``);
    False at a dead end."""
    full = board.placements.full
    placed = scratch.placed
    while np.uint64(state[0]) != full:
        n = forced(board, scratch, np.uint64(state[0]), state[1], PARITY, placed)
        if n < 0:
            return False
        if n == 0:
            return True
        if not _place_all(board, placed, n, state):
            return False
    return True


@njit(cache=True)
def _tightest(board, scratch, covered, used, options_out):
    """The live placements of the free cell with the fewest (the lowest such cell): where ``search``
    tries next; returns how many."""
    full = board.placements.full
    options, counts, only = scratch.options, scratch.counts, scratch.only
    n = live(board, scratch, covered, used, PARITY, options)
    _covering_counts(board, options, n, counts, only)
    best, fewest = -1, 1 << 30
    bits = full & ~covered
    while bits:
        cell = lowest_bit(bits)
        bits &= bits - ONE
        if counts[cell] < fewest:
            best, fewest = cell, counts[cell]
    return _options_at(board, options, n, best, options_out)


@njit(cache=True)
def _options_at(board, options, n, cell, out):
    """The ``options`` covering ``cell``, in their order, into ``out``; returns how many."""
    mask = board.placements.mask
    found = 0
    for i in range(n):
        if (mask[options[i]] >> np.uint64(cell)) & ONE:
            out[found] = options[i]
            found += 1
    return found


@njit(cache=True)
def search(board, scratch, covered, used, dead_ends):
    """Whether some covering extends the state (``solvers.ubongo.techniques.search``): settle, then try
    every live placement of the tightest cell, depth first; dead ends are added to ``dead_ends[0]``."""
    full, piece, mask = board.placements.full, board.placements.piece, board.placements.mask
    states, tried, stack_options, stack_sizes = scratch.states, scratch.tried, scratch.stack_options, scratch.stack_sizes
    state = states[0]
    state[0], state[1] = np.int64(covered), used
    if not settle(board, scratch, state):
        dead_ends[0] += 1
        return False
    if np.uint64(state[0]) == full:
        return True
    depth = 0
    stack_sizes[0] = _tightest(board, scratch, np.uint64(state[0]), state[1], stack_options[0])
    tried[0] = 0
    while depth >= 0:
        if tried[depth] >= stack_sizes[depth]:
            depth -= 1
            continue
        j = stack_options[depth, tried[depth]]
        tried[depth] += 1
        child = states[depth + 1]
        child[0] = np.int64(np.uint64(states[depth, 0]) | mask[j])
        child[1] = states[depth, 1] | (1 << piece[j])
        if not settle(board, scratch, child):
            dead_ends[0] += 1
            continue
        if np.uint64(child[0]) == full:
            return True
        depth += 1
        stack_sizes[depth] = _tightest(board, scratch, np.uint64(child[0]), child[1], stack_options[depth])
        tried[depth] = 0
    return False


@njit(cache=True)
def trial_step(board, scratch, covered, used, deep, most):
    """A cell where every live placement but one leads to a dead end (``_trial_step``): (the placement
    that works, dead ends met), or (-1, 0). Cells by (live placements, cell), each cell's placements in
    live order; a cell is left as soon as two placements survive."""
    full, piece, mask = board.placements.full, board.placements.piece, board.placements.mask
    options, counts, only = scratch.options, scratch.counts, scratch.only
    here, trial_state, outcome, outcome_dead_ends = (scratch.here, scratch.trial_state, scratch.outcome,
                                                     scratch.outcome_dead_ends)
    outcome[:] = UNTRIED  # a placement tried at one cell ends the same way at every other cell it covers
    n = live(board, scratch, covered, used, PARITY, options)
    # ``search`` and ``settle`` reuse the scratch ``live`` fills: keep this state's options apart.
    mine = options[:n].copy()
    _covering_counts(board, mine, n, counts, only)
    free = full & ~covered
    cell_counts = counts.copy()
    most_here = 0
    bits = free
    while bits:
        cell = lowest_bit(bits)
        bits &= bits - ONE
        most_here = max(most_here, cell_counts[cell])
    dead_ends = np.zeros(1, np.int64)
    for size in range(2, min(most, most_here) + 1):
        bits = free
        while bits:
            cell = lowest_bit(bits)
            bits &= bits - ONE
            if cell_counts[cell] != size:
                continue
            at = _options_at(board, mine, n, cell, here)
            cell_options = here[:at].copy()
            dead_ends[0] = 0
            survivor, survivors = -1, 0
            for i in range(at):
                j = cell_options[i]
                if outcome[j] == UNTRIED:
                    start_covered = covered | mask[j]
                    start_used = used | (1 << piece[j])
                    before = dead_ends[0]
                    if deep:
                        alive = search(board, scratch, start_covered, start_used, dead_ends)
                    else:
                        trial_state[0], trial_state[1] = np.int64(start_covered), start_used
                        alive = settle(board, scratch, trial_state)
                        if not alive:
                            dead_ends[0] += 1
                    outcome[j] = ALIVE if alive else DEAD
                    outcome_dead_ends[j] = dead_ends[0] - before
                else:
                    alive = outcome[j] == ALIVE
                    dead_ends[0] += outcome_dead_ends[j]
                if alive:
                    survivor = j
                    survivors += 1
                    if survivors > 1:
                        break
            if survivors == 1:
                return survivor, max(1, dead_ends[0])
    return -1, 0


@njit(cache=True)
def run(board, upto, techniques, efforts):
    """The solution path with the techniques of levels 0..``upto`` (``HumanSolver.run``): each step's
    technique (``ONLY_FIT`` ...) and effort into the arrays; returns (steps, solved, broken), broken
    when a technique met a dead end or two steps of one round clash (never on a unique card)."""
    full = board.placements.full
    scratch = make_scratch(board.placements.piece.shape[0], board.placements.neighbours.shape[0],
                           board.pieces.counting.areas.shape[0], board.pieces.counting.count)
    placed = scratch.placed
    state = np.zeros(2, np.int64)
    steps = 0
    last = 2 * upto + 1  # each level adds two techniques
    while np.uint64(state[0]) != full:
        covered, used = np.uint64(state[0]), state[1]
        found, technique, effort = 0, -1, 1
        for t in range(last + 1):
            if t <= PARITY_STEP:
                found = forced(board, scratch, covered, used, t, placed)
                if found < 0:
                    return steps, False, True
            else:
                j, effort = trial_step(board, scratch, covered, used, t == DEEP_TRIAL,
                                       2 if t == TWO_WAY else MOST_TRIED)
                found = 0
                if j >= 0:
                    placed[0] = j
                    found = 1
            if found:
                technique = t
                break
        if technique < 0:
            return steps, False, False
        if not _place_all(board, placed, found, state):
            return steps, False, True
        for _ in range(found):
            techniques[steps] = technique
            efforts[steps] = effort
            steps += 1
    return steps, True, False


@njit(cache=True)
def make_board(grid, parity, pieces):
    """The card as the functions here take it: the placements of ``pieces`` ``engine.build`` makes on ``grid``,
    and the dark cells of a checkerboard whose corner cell has colour ``parity``."""
    placements = engine.build(grid, pieces.orientations)
    dark = ZERO
    i = 0
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            if grid[r, c]:
                if (r + c + parity) % 2 == 0:
                    dark |= ONE << np.uint64(i)
                i += 1
    return Board(placements, dark, pieces)


@njit(cache=True)
def count_and_grade(outline, width, pieces, limit, upto, techniques, efforts):
    """A generator's card (``engine.count_outline``) counted up to ``limit`` and, if it has exactly one
    covering, graded (``run`` up to ``upto``), on one build of its placements: (coverings, or -1 if one
    slice of search did not finish the count; steps, solved, broken as ``run`` returns them)."""
    board = make_board(engine.outline_grid(outline, width), 0, pieces)
    coverings = engine.count_first_slice(board.placements, pieces.counting, limit)
    if coverings != 1:
        return coverings, 0, False, False
    steps, solved, broken = run(board, upto, techniques, efforts)
    return coverings, steps, solved, broken


@njit(cache=True)
def make_scratch(placements, cells, pieces, count):
    """Room for one grade of a card with these many placements, cells and pieces, ``count`` of them used."""
    positions = max(cells, 1) * max(pieces, 1)  # (region, kind)
    options = max(placements, 1)
    return Scratch(
        have=np.zeros(pieces, np.int64),
        parts=np.zeros(cells, np.uint64),
        region_areas=np.zeros(cells, np.int64),
        region_imbalances=np.zeros(cells, np.int64),
        choice=np.zeros(positions, np.int64),
        area_at=np.zeros(positions, np.int64),
        pieces_at=np.zeros(positions, np.int64),
        sums_at=np.zeros(positions, np.uint64),
        options=np.zeros(placements, np.int64),
        counts=np.zeros(cells, np.int64),
        only=np.zeros(cells, np.int64),
        per_piece=np.zeros(pieces, np.int64),
        piece_only=np.zeros(pieces, np.int64),
        placed=np.zeros(max(pieces, cells), np.int64),
        states=np.zeros((count + 2, 2), np.int64),
        tried=np.zeros(count + 2, np.int64),
        stack_options=np.zeros((count + 2, options), np.int64),
        stack_sizes=np.zeros(count + 2, np.int64),
        here=np.zeros(options, np.int64),
        trial_state=np.zeros(2, np.int64),
        outcome=np.zeros(options, np.int64),
        outcome_dead_ends=np.zeros(options, np.int64),
    )


UNIQUE, SEVERAL, LONG = 0, 1, 2  # a walk step's slots: the unique card it moves to, a card with several coverings
# (where no unique card is a move away), a card whose count needs slices of search
DONE, FOUND, COUNT_NEEDED = 0, 1, 2  # how a walk step ended: moves weighed, a card of the level, a long count


class Card(NamedTuple):
    """A card as a walk step and a repair round move its pieces, and the rules a move keeps
    (``engine.card_placements``). The card's pieces are numbered in its own order."""

    cell_r: np.ndarray  # the card's cells
    cell_c: np.ndarray
    cell_owner: np.ndarray  # per cell, the piece on it
    lift_order: np.ndarray  # the pieces, in the order a step lifts them
    owner_piece: np.ndarray  # per piece, its catalogue index
    swaps: np.ndarray  # mode hidden: the catalogue pieces not on the card, each put down in a lifted one's place
    orient_start: np.ndarray  # every catalogue piece's orientations: where each one's cells start, one past the last included
    orient_rows: np.ndarray  # their cells, the top-left at 0
    orient_cols: np.ndarray
    piece_orients: np.ndarray  # per catalogue piece, its first orientation, one past the last included
    box_rows: int  # the box a card fits in
    box_cols: int
    most_edges_per_cell: float  # outline edges per cell a move may leave
    key_width: int  # bits per row of an outline key


class Chosen(NamedTuple):
    """The moves a walk step or a repair round chose, a row per slot (``UNIQUE``, ``SEVERAL``, ``LONG``; a round's
    ``IMPROVED``, ``SIDEWAYS``, ``LONG``), filled in place across the calls of one step or round."""

    key: np.ndarray  # the card's outline key
    move: np.ndarray  # (the lifted piece, the catalogue piece put down); -1 when the slot is empty
    rows: np.ndarray  # the cells of the piece put down, 0s past its own
    cols: np.ndarray
    path: np.ndarray  # a walk step: the path ``count_and_grade`` found for slot ``UNIQUE`` (row 0: steps, then
    # techniques; row 1: solved, then efforts; row 2: broken)


@njit(cache=True)
def mix(x):
    """splitmix64: a walk's tie-breaks between equally compact moves, from one seed per step."""
    z = x + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def visit(table, key):
    """Adds ``key`` (never 0) to the open-addressing set ``table`` (a power-of-two length, 0 = empty);
    whether it was new."""
    mask = np.uint64(table.shape[0] - 1)
    i = mix(key) & mask
    while table[i] != ZERO:
        if table[i] == key:
            return False
        i = (i + ONE) & mask
    table[i] = key
    return True


@njit(cache=True)
def path_level(steps, solved, broken, techniques, technique_level):
    """A counted card's level index from its graded path (``HumanSolver.grade_steps``), -1 beyond ``upto``."""
    if broken or not solved:
        return -1
    level = 0
    for j in range(steps):
        level = max(level, technique_level[techniques[j]])
    return level


@njit(cache=True)
def _grown(array, capacity):
    """``array`` copied into a longer one (entries beyond the old ones undefined)."""
    out = np.empty(capacity, array.dtype)
    out[:array.shape[0]] = array
    return out


@njit(cache=True)
def _choose(chosen, slot, key, lifted, piece, rows, cols, replace):
    """A move into ``slot`` of ``chosen``, unless the slot holds one and not ``replace``; whether it did."""
    if chosen.move[slot, 1] >= 0 and not replace:
        return False
    chosen.key[slot] = key
    chosen.move[slot, 0], chosen.move[slot, 1] = lifted, piece
    chosen.rows[slot] = rows
    chosen.cols[slot] = cols
    return True


@njit(cache=True)
def _lifted_moves(card, lifts, width):
    """Every placement of each lifted piece (``lifts``: some of the card's pieces), then of each of its ``swaps``
    in its place, against the rest of the card (``engine.card_placements``): (how many; per move the lifted
    piece, the piece put down, shared edges, outline key, and cells, ``width`` a move, 0s past the piece's own)."""
    cell_r, cell_c, cell_owner, owner_piece, swaps = card.cell_r, card.cell_c, card.cell_owner, card.owner_piece, card.swaps
    capacity = 256
    move_lifted = np.empty(capacity, np.int64)
    move_piece = np.empty(capacity, np.int64)
    move_contacts = np.empty(capacity, np.int64)
    move_keys = np.empty(capacity, np.uint64)
    move_r = np.empty(capacity * width, np.int64)
    move_c = np.empty(capacity * width, np.int64)
    moves = 0
    for lifted in lifts:
        keep = cell_owner != lifted
        rest_r, rest_c = cell_r[keep], cell_c[keep]
        for k in range(1 + swaps.shape[0]):
            piece = owner_piece[lifted] if k == 0 else swaps[k - 1]
            starts = card.orient_start[card.piece_orients[piece]:card.piece_orients[piece + 1] + 1]
            found, contacts, keys, rows, cols = engine.card_placements(rest_r, rest_c, starts, card.orient_rows,
                                                                       card.orient_cols, card.box_rows, card.box_cols,
                                                                       card.most_edges_per_cell, card.key_width)
            if moves + found > capacity:
                capacity = 2 * (moves + found)
                move_lifted = _grown(move_lifted, capacity)
                move_piece = _grown(move_piece, capacity)
                move_contacts = _grown(move_contacts, capacity)
                move_keys = _grown(move_keys, capacity)
                move_r = _grown(move_r, capacity * width)
                move_c = _grown(move_c, capacity * width)
            size = rows.shape[1]
            for i in range(found):
                move_lifted[moves] = lifted
                move_piece[moves] = piece
                move_contacts[moves] = contacts[i]
                move_keys[moves] = keys[i]
                for j in range(width):
                    move_r[moves * width + j] = rows[i, j] if j < size else 0
                    move_c[moves * width + j] = cols[i, j] if j < size else 0
                moves += 1
    return moves, move_lifted, move_piece, move_contacts, move_keys, move_r, move_c


@njit(cache=True)
def _ranked(move_contacts, moves, salt):
    """The moves' order: most shared edges first, then a random order among equals hashed from ``salt``."""
    rank = np.empty(moves, np.uint64)
    for m in range(moves):
        rank[m] = (np.uint64(64 - move_contacts[m]) << np.uint64(56)) | (mix(salt + np.uint64(m)) >> np.uint64(8))
    return np.argsort(rank, kind="mergesort")


@njit(cache=True)
def walk_step(card, pieces, upto, level, technique_level, visited, seed, most_tries, resume, chosen):
    """One step of a walk toward a level, over the moves of ``generators.ubongo.TowardLevel``: lift one piece
    of the card (in ``card.lift_order``) and put it, or in mode hidden one of its ``swaps``, back anywhere
    ``engine.card_placements`` allows, the most shared edges first and ``mix(seed ...)`` among equals. Each move
    to an outline not in ``visited`` is added to it, counted and graded (``count_and_grade`` on ``pieces``, up
    to ``upto``; ``technique_level`` per technique), at most ``most_tries`` of them: the first unique card of
    ``level`` ends the step (``FOUND``). Slot ``UNIQUE`` of ``chosen`` receives it, with its path, or else the
    first unique card of another level; slot ``SEVERAL`` the first card with several coverings (a slot
    already filled by an earlier call of the step is kept). A card whose count needs more than one slice of
    search goes to slot ``LONG`` and ends the call (``COUNT_NEEDED``), ``resume`` set to the (lift, move)
    after it, where the caller's next call goes on. The card itself joins ``visited`` on the first call.
    Returns (outcome, moves tried, keys added to ``visited``)."""
    tried = added = 0
    if resume[0] == 0 and resume[1] == 0:  # the card itself, as a walk never comes back to a card
        key = ZERO
        top, left = card.cell_r.min(), card.cell_c.min()
        for j in range(card.cell_r.shape[0]):
            key |= ONE << np.uint64((card.cell_r[j] - top) * card.key_width + card.cell_c[j] - left)
        added += visit(visited, key)
    techniques = np.zeros(pieces.counting.count + 1, np.int64)
    efforts = np.zeros(pieces.counting.count + 1, np.int64)
    width = chosen.rows.shape[1]
    lift_order = card.lift_order
    for li in range(resume[0], lift_order.shape[0]):
        lifted = lift_order[li]
        moves, _, move_piece, move_contacts, move_keys, move_r, move_c = _lifted_moves(card, lift_order[li:li + 1],
                                                                                       width)
        order = _ranked(move_contacts, moves, seed ^ (np.uint64(li) << np.uint64(48)))
        first = resume[1] if li == resume[0] else 0
        for position in range(first, moves):
            m = order[position]
            key = move_keys[m]
            if not visit(visited, key):
                continue
            tried += 1
            coverings, steps, solved, broken = count_and_grade(key, card.key_width, pieces, 2, upto, techniques, efforts)
            if coverings < 0:
                resume[0], resume[1] = li, position + 1
                _choose(chosen, LONG, key, lifted, move_piece[m], move_r[m * width:(m + 1) * width],
                        move_c[m * width:(m + 1) * width], True)
                return COUNT_NEEDED, tried, added + tried
            at = path_level(steps, solved, broken, techniques, technique_level) if coverings == 1 else -2
            slot = UNIQUE if coverings == 1 else SEVERAL
            if _choose(chosen, slot, key, lifted, move_piece[m], move_r[m * width:(m + 1) * width],
                       move_c[m * width:(m + 1) * width], at == level) and slot == UNIQUE:
                path = chosen.path
                path[0, 0], path[1, 0], path[2, 0] = steps, solved, broken
                path[0, 1:steps + 1] = techniques[:steps]
                path[1, 1:steps + 1] = efforts[:steps]
            if at == level:
                return FOUND, tried, added + tried
            if tried >= most_tries:
                return DONE, tried, added + tried
    return DONE, tried, added + tried


IMPROVED, SIDEWAYS = 0, 1  # a repair round's slots: the first move leaving fewer coverings, the first leaving as many
# (slot LONG as in a walk step)


@njit(cache=True)
def _at(table, key):
    """Where ``key`` is in the open-addressing ``table`` (see ``visit``), or the empty slot it would take."""
    mask = np.uint64(table.shape[0] - 1)
    i = mix(key) & mask
    while table[i] != ZERO and table[i] != key:
        i = (i + ONE) & mask
    return i


@njit(cache=True)
def remembered(keys, counts, key, cap):
    """A count of outline ``key`` up to ``cap`` from the table (``counts``: an exact count, or minus a lower
    bound where a count stopped at its cap), or -1 if it must be counted."""
    i = _at(keys, key)
    if keys[i] == ZERO:
        return -1
    known = counts[i]
    if known >= 0:
        return min(known, cap)
    return cap if -known >= cap else -1


@njit(cache=True)
def remember(keys, counts, key, count, cap):
    """Files a count made up to ``cap``; whether the key is new to the table."""
    i = _at(keys, key)
    new = keys[i] == ZERO
    keys[i] = key
    if count < cap:
        counts[i] = count  # exact, so good under any cap
    elif new or (counts[i] < 0 and -counts[i] < count):
        counts[i] = -count
    return new


@njit(cache=True)
def repair_round(card, first_same, pieces, current, seen, count_keys, count_values, filled, seed, resume, chosen):
    """One round of ``generators.ubongo.UbongoSteps.repair``, over the moves a walk step weighs
    (``_lifted_moves``): the pieces ``card.lift_order[:first_same]`` (placed differently by the second covering)
    lifted first, all their moves ranked together (most shared edges first, ``mix(seed ...)`` among equals),
    then the others'. Each move to an outline not in ``seen`` is counted up to ``current`` + 1
    (``engine.count_outline`` on ``pieces``), counts kept in ``count_keys`` and ``count_values`` (``remember``)
    so that no outline is counted twice in an attempt: the first leaving fewer coverings goes to slot
    ``IMPROVED`` of ``chosen`` and ends the round (``FOUND``); the first leaving as many to slot ``SIDEWAYS``,
    its outline added to ``seen``. A count the caller must make goes to slot ``LONG`` and ends the call
    (``COUNT_NEEDED``), ``resume`` set to that move, where the caller's next call goes on and finds it
    counted: one needing more than one slice of search, or one the table (``filled`` entries before the call)
    has no room for without being more than half full. Returns (outcome, keys added to ``seen``, keys added
    to the counts)."""
    added_seen = added_counts = 0
    width = chosen.rows.shape[1]
    for group in range(resume[0], 2):
        lifts = card.lift_order[:first_same] if group == 0 else card.lift_order[first_same:]
        moves, move_lifted, move_piece, move_contacts, move_keys, move_r, move_c = _lifted_moves(card, lifts, width)
        order = _ranked(move_contacts, moves, seed ^ (np.uint64(group) << np.uint64(48)))
        for position in range(resume[1] if group == resume[0] else 0, moves):
            m = order[position]
            key = move_keys[m]
            if seen[_at(seen, key)] == key:
                continue  # tabu: the descent would otherwise circle on a plateau
            counted = remembered(count_keys, count_values, key, current + 1)
            if counted < 0:
                if 2 * (filled + added_counts + 1) <= count_keys.shape[0]:
                    counted = engine.count_outline(key, card.key_width, pieces.orientations, pieces.counting,
                                                   current + 1)
                if counted < 0:
                    resume[0], resume[1] = group, position
                    _choose(chosen, LONG, key, move_lifted[m], move_piece[m], move_r[m * width:(m + 1) * width],
                            move_c[m * width:(m + 1) * width], True)
                    return COUNT_NEEDED, added_seen, added_counts
                added_counts += remember(count_keys, count_values, key, counted, current + 1)
            if counted < current:
                _choose(chosen, IMPROVED, key, move_lifted[m], move_piece[m], move_r[m * width:(m + 1) * width],
                        move_c[m * width:(m + 1) * width], True)
                return FOUND, added_seen, added_counts
            if counted == current and _choose(chosen, SIDEWAYS, key, move_lifted[m], move_piece[m],
                                              move_r[m * width:(m + 1) * width], move_c[m * width:(m + 1) * width],
                                              False):
                added_seen += visit(seen, key)
    return DONE, added_seen, added_counts


@njit(cache=True)
def refile(keys, counts, old_keys, old_counts):
    """The entries of an outgrown table of counts, filed again in a larger one."""
    for j in range(old_keys.shape[0]):
        i = _at(keys, old_keys[j])
        keys[i] = old_keys[j]
        counts[i] = old_counts[j]
