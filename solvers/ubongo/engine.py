"""The Ubongo covering count compiled with numba: the generator asks "how many coverings, up to k?"
thousands of times per card, and the Python search spent most of a card's time there.

The same search as ``solvers.ubongo.rules.PackingProblem.count_coverings`` (always the first free cell in
row-major order, placements indexed by their first cell, the hidden-mode area prune, no free cell left
without a free neighbour), on one 64-bit word: the shape's cells are numbered 0..n-1 in row-major
order (a shape has at most ``MAX_CELLS`` cells, fewer than 64), so the lowest set bit of the free
cells is still the first free cell. A count stopped at ``limit`` is min(coverings, limit) whatever the
order the search visits them in, so the answers are the Python search's.

``card_placements`` is the generator's other inner loop: where a piece may go against the rest of a
card (every move of a repair or a walk toward a level), tested on 64-bit words as well.

Every function is non-recursive (the search keeps its stack in arrays) and compiled with
``cache=True``; the search runs in slices of nodes and resumes from its arrays, so the caller checks
its deadline between slices. ``warm_up`` loads them all.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import njit

from solvers.engines.bits import lowest_bit, popcount

SLICE = 50_000  # search nodes between deadline checks


class Orientations(NamedTuple):
    """Every orientation of a piece set's pieces, as ``build`` places them (``rules.orientation_arrays``)."""

    start: np.ndarray  # per orientation, where its cells start in dr/dc; one past the last included
    piece: np.ndarray  # per orientation, its piece
    dr: np.ndarray  # the orientations' cells, as offsets from each one's first cell in row-major order
    dc: np.ndarray


class Placements(NamedTuple):
    """The placements of a shape's pieces (``build``), over its cells numbered 0..n-1 in row-major order."""

    first: np.ndarray  # per cell, its first placement (placements go by first cell), then one past the last
    piece: np.ndarray  # per placement, its piece
    mask: np.ndarray  # per placement, its cells
    neighbours: np.ndarray  # per cell, the cells beside it
    full: int  # every cell, a bit each


class Counting(NamedTuple):
    """What a count takes about its piece set, the same for every card of it (``rules.search_inputs``)."""

    areas: np.ndarray  # per piece, its cells
    sums: np.ndarray  # the totals some of the pieces make (``area_sums``): mode hidden's area prune
    count: int  # pieces a covering uses
    use_all: bool  # mode given: every piece
    isolate: bool  # a free cell without a free neighbour is a dead end (no piece of one cell)


@njit(cache=True)
def build(grid, orientations):
    """The ``Placements`` of the ``orientations`` on a shape (``grid``: 1 where a cell is). An orientation's
    cells are (dr, dc) offsets from its first cell in row-major order, so every placement is found
    from the cell it starts on."""
    orient_start, orient_piece, orient_dr, orient_dc = (orientations.start, orientations.piece, orientations.dr,
                                                        orientations.dc)
    rows, cols = grid.shape
    index = np.full((rows, cols), -1, np.int64)
    n = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r, c]:
                index[r, c] = n
                n += 1
    neighbours = np.zeros(n, np.uint64)
    for r in range(rows):
        for c in range(cols):
            i = index[r, c]
            if i < 0:
                continue
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < rows and 0 <= cc < cols and index[rr, cc] >= 0:
                    neighbours[i] |= np.uint64(1) << np.uint64(index[rr, cc])
    orients = orient_start.shape[0] - 1
    first = np.zeros(n + 1, np.int64)
    piece = np.empty(n * orients, np.int64)
    mask = np.empty(n * orients, np.uint64)
    placed = 0
    for r in range(rows):
        for c in range(cols):
            i = index[r, c]
            if i < 0:
                continue
            first[i] = placed
            for o in range(orients):
                m = np.uint64(0)
                for j in range(orient_start[o], orient_start[o + 1]):
                    rr, cc = r + orient_dr[j], c + orient_dc[j]
                    if rr < 0 or rr >= rows or cc < 0 or cc >= cols or index[rr, cc] < 0:
                        m = np.uint64(0)
                        break
                    m |= np.uint64(1) << np.uint64(index[rr, cc])
                if m:
                    piece[placed] = orient_piece[o]
                    mask[placed] = m
                    placed += 1
    first[n] = placed
    full = np.uint64(0)
    for i in range(n):
        full |= np.uint64(1) << np.uint64(i)
    return Placements(first, piece[:placed], mask[:placed], neighbours, full)


@njit(cache=True)
def _leaves_lonely(m, after, neighbours):
    """Whether a free cell beside the placement ``m`` has no free neighbour left: no piece could
    cover it. Only cells beside ``m`` lose a neighbour, so looking there finds every newly lonely
    cell (a cell lonely from the start is never covered either way: the count is the same)."""
    border = np.uint64(0)
    bits = m
    while bits:
        border |= neighbours[lowest_bit(bits)]
        bits &= bits - np.uint64(1)
    touched = border & after
    while touched:
        if not neighbours[lowest_bit(touched)] & after:
            return True
        touched &= touched - np.uint64(1)
    return False


@njit(cache=True)
def search(placements, counting, limit, stack, found, budget, kept):
    """Count the coverings of ``placements`` by the piece set ``counting`` up to ``limit``, resuming from
    ``stack`` (per depth: covered, used, next placement, end; ``stack[0, 2] == -1`` at the start) and
    ``found`` ([count, depth, finished]); returns after about ``budget`` nodes with the state saved there.
    ``counting.sums[avail, k]`` is the bitset of totals that exactly k of the pieces in ``avail`` can make
    (hidden mode's area prune). The first ``len(kept)`` coverings are kept there as their placements'
    indices, in the order found (the order of ``PackingProblem.coverings``: placements at a cell by piece,
    then orientation)."""
    first, piece, mask, neighbours, full = (placements.first, placements.piece, placements.mask,
                                            placements.neighbours, placements.full)
    areas, sums, count, use_all, isolate = (counting.areas, counting.sums, counting.count, counting.use_all,
                                            counting.isolate)
    all_used = (1 << areas.shape[0]) - 1
    depth = found[1]
    nodes = 0
    while depth >= 0 and found[0] < limit:
        covered = np.uint64(stack[depth, 0])
        used = stack[depth, 1]
        left = count - depth
        free = full & ~covered
        if stack[depth, 2] == -1:  # a new node
            nodes += 1
            if free == 0:
                if left == 0 and (not use_all or used == all_used):
                    if found[0] < kept.shape[0]:
                        for d in range(depth):
                            kept[found[0], d] = stack[d, 2] - 1
                    found[0] += 1
                depth -= 1
                continue
            if left == 0:
                depth -= 1
                continue
            cell = lowest_bit(free)
            stack[depth, 2] = first[cell]
            stack[depth, 3] = first[cell + 1]
        area = 0
        rest_bits = free
        while rest_bits:
            rest_bits &= rest_bits - np.uint64(1)
            area += 1
        pushed = False
        while stack[depth, 2] < stack[depth, 3]:
            j = stack[depth, 2]
            stack[depth, 2] += 1
            k = piece[j]
            m = mask[j]
            if (used >> k) & 1 or covered & m:
                continue
            if not use_all:
                rest = area - areas[k]
                if rest < 0 or not (sums[all_used & ~(used | (1 << k)), left - 1] >> rest) & 1:
                    continue
            after = free & ~m
            if isolate and _leaves_lonely(m, after, neighbours):
                continue
            stack[depth + 1, 0] = np.int64(covered | m)
            stack[depth + 1, 1] = used | (1 << k)
            stack[depth + 1, 2] = -1
            depth += 1
            pushed = True
            break
        if not pushed:
            depth -= 1
        if nodes >= budget:
            break
    found[1] = depth
    found[2] = 1 if depth < 0 or found[0] >= limit else 0
    return nodes


@njit(cache=True)
def count_first_slice(placements, counting, limit):
    """Coverings of ``placements`` by ``counting``'s pieces counted up to ``limit`` if one slice of ``search``
    finishes the count, else -1 (the caller counts again in slices between deadline checks): a small card's
    count in one call."""
    count = counting.count
    stack = np.zeros((count + 2, 4), np.int64)
    stack[0, 2] = -1
    found = np.zeros(3, np.int64)
    search(placements, counting, limit, stack, found, SLICE, np.zeros((0, max(count, 1)), np.int64))
    return found[0] if found[2] else -1


@njit(cache=True)
def count_outline(outline, width, orientations, counting, limit):
    """``count_first_slice`` on the cells of ``outline``, rows ``width`` bits apart from bit 0, placed with
    ``orientations``: a generator's card counted in one call, from the key it remembers the card by."""
    return count_first_slice(build(outline_grid(outline, width), orientations), counting, limit)


@njit(cache=True)
def outline_grid(outline, width):
    """The cells of ``outline`` (rows ``width`` bits apart from bit 0) as 1s of a grid. A shift by 64 or more is
    undefined on a 64-bit word (it may leave the word as it was), so no shift reaches that far."""
    rows = 0
    while rows * width < 64 and outline >> np.uint64(rows * width):
        rows += 1
    grid = np.zeros((rows, width), np.uint8)
    for r in range(rows):
        for c in range(width):
            if r * width + c < 64:
                grid[r, c] = (outline >> np.uint64(r * width + c)) & np.uint64(1)
    return grid


@njit(cache=True)
def _flood(seed, within, width):
    """Every bit of ``within`` reachable from ``seed`` by steps to neighbours inside ``within``, on rows
    ``width`` bits apart with an empty frame (so a step off a row's end lands in the frame)."""
    reach = seed
    while True:
        grown = reach | ((reach << np.uint64(1)) | (reach >> np.uint64(1)) | (reach << np.uint64(width))
                         | (reach >> np.uint64(width))) & within
        if grown == reach:
            return reach
        reach = grown


@njit(cache=True)
def _framed_bits(rows, cols, dr, dc, top, left, width):
    """The cells (``rows``, ``cols``, shifted by ``dr``, ``dc``) as bits of a framed box whose first real
    cell is (``top``, ``left``), rows ``width`` bits apart."""
    bits = np.uint64(0)
    for j in range(rows.shape[0]):
        bits |= np.uint64(1) << np.uint64((rows[j] + dr - top + 1) * width + cols[j] + dc - left + 1)
    return bits


@njit(cache=True)
def card_placements(rest_r, rest_c, orient_start, orient_r, orient_c, box_rows, box_cols, most_edges_per_cell,
                    key_width):
    """Every placement of one piece (its orientations: cells from ``orient_start[o]`` on, top-left at 0)
    touching the rest (cells ``rest_r``, ``rest_c``) whose union stays inside a ``box_rows`` × ``box_cols``
    box, connected and without a hole, with at most ``most_edges_per_cell`` outline edges per cell: as
    (how many, edges shared with the rest, the union's outline key with rows ``key_width`` bits apart,
    the piece's rows, its columns), sorted by most shared edges, then by the sorted cells.

    Each candidate is tested on the union's own bounding box plus an empty frame (at most 7 × 8 bits
    for the largest card box): what lies outside the union's box reaches the frame in a straight line,
    so a hole there is a hole anywhere."""
    rr0, rr1 = rest_r.min(), rest_r.max()
    rc0, rc1 = rest_c.min(), rest_c.max()
    rest_width = rc1 - rc0 + 3
    rest_bits = _framed_bits(rest_r, rest_c, 0, 0, rr0, rc0, rest_width)
    # A piece touching a connected rest always leaves it connected: only a split rest needs the check.
    rest_connected = _flood(np.uint64(1) << np.uint64(lowest_bit(rest_bits)), rest_bits, rest_width) == rest_bits
    rest_edges = _edges(rest_bits, rest_width)
    orientations = orient_start.shape[0] - 1
    size = orient_start[1] - orient_start[0]
    most = orientations * (2 * box_rows) * (2 * box_cols)
    contacts_out = np.empty(most, np.int64)
    keys = np.empty(most, np.uint64)
    cells_r = np.empty((most, size), np.int64)
    cells_c = np.empty((most, size), np.int64)
    found = 0
    for o in range(orientations):
        rows = orient_r[orient_start[o]:orient_start[o + 1]]
        cols = orient_c[orient_start[o]:orient_start[o + 1]]
        height, wide = rows.max(), cols.max()
        if height >= box_rows or wide >= box_cols:
            continue
        edges = rest_edges + _edges(_framed_bits(rows, cols, 0, 0, 0, 0, wide + 3), wide + 3)
        most_edges = most_edges_per_cell * (rest_r.shape[0] + size)
        # The piece spans rows dr..dr+height and cols dc..dc+wide; the union's span must stay inside the box.
        for dr in range(rr1 - box_rows + 1, rr0 + box_rows - height):
            for dc in range(rc1 - box_cols + 1, rc0 + box_cols - wide):
                top, bottom = min(rr0, dr), max(rr1, dr + height)
                left, right = min(rc0, dc), max(rc1, dc + wide)
                width = right - left + 3
                rest_m = _framed_bits(rest_r, rest_c, 0, 0, top, left, width)
                piece_m = _framed_bits(rows, cols, dr, dc, top, left, width)
                if rest_m & piece_m:
                    continue
                contacts = (popcount(piece_m & (rest_m << np.uint64(1))) + popcount(piece_m & (rest_m >> np.uint64(1)))
                            + popcount(piece_m & (rest_m << np.uint64(width)))
                            + popcount(piece_m & (rest_m >> np.uint64(width))))
                # An edge the piece shares with the rest is inside the union; every other edge is outline.
                if contacts == 0 or edges - 2 * contacts > most_edges:
                    continue
                union = rest_m | piece_m
                if not rest_connected and _flood(piece_m, union, width) != union:
                    continue
                framed_box = (np.uint64(1) << np.uint64((bottom - top + 3) * width)) - np.uint64(1)
                empty = framed_box & ~union
                if _flood(np.uint64(1), empty, width) != empty:  # bit 0 is a frame corner, always outside
                    continue
                key = np.uint64(0)
                for j in range(rest_r.shape[0]):
                    key |= np.uint64(1) << np.uint64((rest_r[j] - top) * key_width + rest_c[j] - left)
                for j in range(size):
                    cells_r[found, j] = rows[j] + dr
                    cells_c[found, j] = cols[j] + dc
                    key |= np.uint64(1) << np.uint64((rows[j] + dr - top) * key_width + cols[j] + dc - left)
                contacts_out[found] = contacts
                keys[found] = key
                found += 1
    order = np.arange(found)
    for a in range(1, found):  # insertion sort: a few dozen placements
        x = order[a]
        b = a - 1
        while b >= 0 and _before(x, order[b], contacts_out, cells_r, cells_c):
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = x
    return found, contacts_out[order], keys[order], cells_r[order], cells_c[order]


@njit(cache=True)
def _edges(bits, width):
    """Edges between a cell of ``bits`` (framed, rows ``width`` apart) and a cell outside it."""
    return (popcount(bits & ~(bits >> np.uint64(1))) + popcount(bits & ~(bits << np.uint64(1)))
            + popcount(bits & ~(bits >> np.uint64(width))) + popcount(bits & ~(bits << np.uint64(width))))


@njit(cache=True)
def _before(x, y, contacts, cells_r, cells_c):
    """Whether placement ``x`` comes before ``y``: more shared edges, then the smaller sorted cells."""
    if contacts[x] != contacts[y]:
        return contacts[x] > contacts[y]
    for j in range(cells_r.shape[1]):
        if cells_r[x, j] != cells_r[y, j]:
            return cells_r[x, j] < cells_r[y, j]
        if cells_c[x, j] != cells_c[y, j]:
            return cells_c[x, j] < cells_c[y, j]
    return False


@cache
def area_sums(areas: tuple[int, ...], most: int) -> np.ndarray:
    """``table[avail, k]``: bitset of the totals exactly k of the pieces in ``avail`` (bits into
    ``areas``) can make, for k up to ``most``; one table per piece list, shared by every count."""
    table = np.zeros((1 << len(areas), most + 1), np.int64)
    table[:, 0] = 1
    for avail in range(1, 1 << len(areas)):
        i = (avail & -avail).bit_length() - 1
        rest = avail & ~(1 << i)
        for k in range(1, most + 1):
            table[avail, k] = table[rest, k] | table[rest, k - 1] << areas[i]
    return table


def warm_up() -> None:
    """Load (or compile, the first time on this machine) every function here."""
    grid = np.ones((2, 3), np.uint8)
    orientations = Orientations(start=np.array([0, 2], np.int64), piece=np.array([0], np.int64),
                                dr=np.array([0, 0], np.int64), dc=np.array([0, 1], np.int64))
    placements = build(grid, orientations)
    counting = Counting(areas=np.array([2, 2, 2], np.int64), sums=area_sums((2, 2, 2), 3), count=3, use_all=False,
                        isolate=True)
    stack = np.zeros((4, 4), np.int64)
    stack[0, 2] = -1
    found = np.zeros(3, np.int64)
    search(placements, counting, 10, stack, found, SLICE, np.zeros((1, 3), np.int64))
    count_first_slice(placements, counting, 10)
    count_outline(np.uint64(0b111111), 3, orientations, counting, 10)
    domino = (np.array([0, 2], np.int64), np.array([0, 0], np.int64), np.array([0, 1], np.int64))
    card_placements(np.array([0, 0], np.int64), np.array([0, 1], np.int64), *domino, 4, 5, np.inf, 8)
