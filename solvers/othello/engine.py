"""Othello on 64-bit bitboards, compiled with numba: move generation, an exact endgame solver and a
depth-limited heuristic search.

Square ``sq = row * 8 + col`` is bit ``sq`` (A1 = bit 0, H1 = bit 7, H8 = bit 63), so an FFO position
string indexes squares directly. A position is (P, O): the discs of the side to move and of the other.

Scores are final disc differences for the side to move, empty squares going to the winner, so they
are even and lie in [-64, 64].

Both searches are one negamax alpha-beta (principal variation search) run on an explicit stack, not
by recursion: recursive numba functions compile slowly and have crashed when loaded
from numba's on-disk cache, while these non-recursive ones are cached (``cache=True``), so a process
loads them in a fraction of a second once any process on the machine has compiled them.

Exact mode adds a transposition table of lower/upper bounds, enhanced transposition cutoffs (a child
already known to refute the window ends the node), a stability cutoff (discs that can never flip bound
the score), fastest-first move ordering (fewest replies first, a move in a quadrant of odd parity
favoured) while many squares are empty, helped by the evaluation of the position after the move and,
higher up the tree, of the best reply to it, a two-slot table bucket (the deepest search and the latest),
and the last five empty squares solved by small loops instead of the stack, ordered by quadrant parity.
Every position searched is a node, the last empty square's included, as Egaroucid counts them. A wide window is first
estimated by depth-limited searches scored by the learned evaluation (``patterns``), which leave their
best moves (never a bound) in the table, and then proved by exact tests of one score (``exact_value``).

The search runs without Python's global lock: threads search side by side, each on its own stack,
all on the process's one table (``_tt_read`` says how a slot written by two threads at once stays safe).

numba cannot read the clock, so callers pass a node limit (``Counters``); when it is hit the search
stops with its stack intact, and ``Table.search`` resumes it slice by slice while the caller's clock
allows, so a time budget is kept to a fraction of a second whatever the machine's load.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from solvers.common import compile_lock
from solvers.engines.bits import popcount, trailing_zeros
from solvers.othello import patterns

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U4 = np.uint64(4)
U7 = np.uint64(7)
U8 = np.uint64(8)
U9 = np.uint64(9)
U56 = np.uint64(56)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every column but A: where an eastward shift may land
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every column but H: where a westward shift may land
INNER_COLS = np.uint64(0x7E7E7E7E7E7E7E7E)
CORNERS = np.uint64(0x8100000000000081)
X_SQUARES = np.uint64(0x0042000000004200)  # diagonal neighbours of the corners
EDGES = np.uint64(0xFF818181818181FF)
COLS_AH = np.uint64(0x8181818181818181)
ROWS_18 = np.uint64(0xFF000000000000FF)
QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000], dtype=np.uint64
)
HASH_A = np.uint64(0x9E3779B97F4A7C15)
HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
H30 = np.uint64(30)
_HASH_BITS = np.uint64(0xFFFFFFFF00000000)
COLUMN_A = np.uint64(0x0101010101010101)  # also: the first square of each row
_BYTE = np.uint64(0xFF)
_S14, _S16, _S18, _S24, _S28, _S32, _S36, _S48 = (np.uint64(s) for s in (14, 16, 18, 24, 28, 32, 36, 48))
_L7 = np.array([0xFF01010101010101, 0xFFFF030303030303, 0xFFFFFFFF0F0F0F0F], dtype=np.uint64)
_R7 = np.array([0x80808080808080FF, 0xC0C0C0C0C0C0FFFF, 0xF0F0F0F0FFFFFFFF], dtype=np.uint64)
_L9 = np.array([0xFF80808080808080, 0xFFFFC0C0C0C0C0C0], dtype=np.uint64)
_R9 = np.array([0x01010101010101FF, 0x030303030303FFFF], dtype=np.uint64)
_D9_MIDDLE = np.uint64(0x0F0F0F0FF0F0F0F0)


def _line_masks() -> np.ndarray:
    """Every row, column, diagonal and anti-diagonal of two or more squares, as (direction, mask)."""
    lines: list[tuple[int, int]] = []
    for i in range(8):
        lines.append((0, sum(1 << (i * 8 + c) for c in range(8))))
        lines.append((1, sum(1 << (r * 8 + i) for r in range(8))))
    for k in range(-6, 7):
        lines.append((2, sum(1 << (r * 8 + r - k) for r in range(8) if 0 <= r - k < 8)))
        lines.append((3, sum(1 << (r * 8 + k + 7 - r) for r in range(8) if 0 <= k + 7 - r < 8)))
    return np.array([[d, m] for d, m in lines], dtype=np.uint64)


LINES = _line_masks()

LOOPS_MAX_EMPTIES = 5  # at or below this many empties the exact search hands over to the unrolled loops (parity order)
TT_MIN_EMPTIES = 7  # the table is probed and written at nodes with at least this many empties
ETC_MIN_EMPTIES = 9  # enhanced transposition cutoffs from this many empties
EVAL_ORDER_MIN_EMPTIES = 12  # from here on, moves ordered by fastest-first plus the evaluation: fewer nodes (bench_othello)
REPLY_ORDER_MIN_EMPTIES = 14  # from here on, by fastest-first plus the evaluation of the best reply (bench_othello_ffo)
LEARNED_TO_QUARTERS = 4  # the learned evaluation's 1/64 disc to the depth-limited search's quarter disc
ESTIMATE_MIN_EMPTIES = 16  # a wide exact window is estimated by learned searches from here on
ESTIMATE_LEAF_EMPTIES = 10  # down to positions with this many empties
ESTIMATE_MAX_DEPTH = 20  # and no deeper: each ply costs several times the last, and past 30 empties more than it saves
# The stability cutoff is tried when the window asks for at least this score, by empty squares (Edax's
# thresholds): with many empties few discs are stable, so only a high alpha can be refuted by them, while
# near the end it pays even at small alphas (and in won positions, where every line is near 64, a lot).
STABILITY_MIN_ALPHA = np.array([99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42,
                                44, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62] + [99] * 25,
                               dtype=np.int64)
SCORE_MAX = 64
INF = 1000  # beyond any exact or heuristic score
OPEN = 1_000_000  # returned by _open_node: the node has moves to search

TT_BITS = 20
TT_SLOTS = np.uint64((1 << TT_BITS) - 2)  # a hash's bucket: its first (even) slot
STACK_ROWS = 132  # one frame per ply; passes add plies, at most one between two moves
MOVE_COLS = 34

# Frame fields (int64 columns of ``frames``).
F_ALPHA, F_BETA, F_ALPHA0, F_BETA0, F_BEST, F_COUNT, F_NEXT, F_PASSED, F_STORE, F_PROBE, F_DEPTH = range(11)
FRAME_FIELDS = 11
# Counter fields (``Counters.array``): nodes visited, node limit, stopped by the limit, frame to resume.
C_NODES, C_LIMIT, C_ABORTED, C_FRAME = range(4)
SLICE_NODES = 1_000_000  # nodes between two looks at the clock (about 0.1 s)


def _rays() -> np.ndarray:
    """For each square, the squares along each direction to the edge: four towards higher bits
    (east, north, north-east, north-west), then four towards lower bits."""
    rays = np.zeros((64, 8), dtype=np.uint64)
    steps = [(0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1)]
    for sq in range(64):
        for k, (dr, dc) in enumerate(steps):
            r, c, ray = sq // 8 + dr, sq % 8 + dc, 0
            while 0 <= r < 8 and 0 <= c < 8:
                ray |= 1 << (r * 8 + c)
                r, c = r + dr, c + dc
            rays[sq, k] = ray
    return rays


RAYS = _rays()
# The squares next to each square: a move there must turn a disc on one of them.
NEIGHBOURS = np.array([sum(1 << (rr * 8 + cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                           if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c))
                       for r, c in (divmod(sq, 8) for sq in range(64))], dtype=np.uint64)


def _line_flip_counts() -> np.ndarray:
    """[square's place on a line of 8, the mover's discs on that line]: the discs a move there turns
    along the line when every other square of it is full (the last empty square of the board)."""
    counts = np.zeros((8, 256), dtype=np.int64)
    for place in range(8):
        for mine in range(256):
            for step in (1, -1):
                run, k = 0, place + step
                while 0 <= k < 8 and not mine >> k & 1:
                    run, k = run + 1, k + step
                counts[place, mine] += run if 0 <= k < 8 else 0
    return counts


def _line_through(direction: int) -> np.ndarray:
    """For each square, its line of ``LINES`` in ``direction`` (0 for a corner's one-square diagonal,
    which turns nothing either way)."""
    through = np.zeros(64, dtype=np.uint64)
    for line_direction, mask in LINES:
        if line_direction == direction:
            for sq in range(64):
                if int(mask) >> sq & 1:
                    through[sq] = mask
    return through


LINE_FLIP_COUNTS = _line_flip_counts()
DIAGONALS, ANTI_DIAGONALS = _line_through(2), _line_through(3)
COLUMN_TO_BYTE = np.uint64(0x0102040810204080)  # column A's square of row k to bit k of the top byte


# Flips and move generation run each direction of a square's eight in a lane of one SIMD vector,
# written as LLVM IR, which numba cannot emit from Python code (its loops stay scalar here).
_I1, _I32, _I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)


def _vector(values: Iterable[int], width: int) -> ir.Constant:
    return ir.Constant(ir.VectorType(_I64, width), [ir.Constant(_I64, int(v)) for v in values])


def _splat(builder: ir.IRBuilder, x: ir.Value, width: int) -> ir.Value:
    kind = ir.VectorType(_I64, width)
    one = builder.insert_element(ir.Constant(kind, ir.Undefined), x, ir.Constant(_I32, 0))
    return builder.shuffle_vector(one, ir.Constant(kind, ir.Undefined), ir.Constant(ir.VectorType(_I32, width), [0] * width))


def _or_of_lanes(builder: ir.IRBuilder, lanes: ir.Value, width: int) -> ir.Value:
    while width > 1:  # OR the halves together until one lane is left
        width //= 2
        low = builder.shuffle_vector(lanes, lanes, ir.Constant(ir.VectorType(_I32, width), list(range(width))))
        high = builder.shuffle_vector(lanes, lanes, ir.Constant(ir.VectorType(_I32, width), list(range(width, 2 * width))))
        lanes = builder.or_(low, high)
    return builder.extract_element(lanes, ir.Constant(_I32, 0))


def _module_constant(module: ir.Module, name: str, value: ir.Constant) -> ir.GlobalVariable:
    """A constant in the compiled module itself, so numba's on-disk cache keeps it (an address of a
    Python-side array would not survive into another process)."""
    found = module.globals.get(name)
    if found is None:
        found = ir.GlobalVariable(module, value.type, name=name)
        found.initializer, found.global_constant, found.linkage, found.align = value, True, "internal", 64
    return found


@intrinsic
def _flips_on_rays(typingctx, p, o, sq):  # noqa: ANN001, ANN202
    """The discs of ``o`` turned by ``p`` playing ``sq``, the eight rays from it side by side in one
    vector of eight lanes. Along each ray the turned discs are those before its first square that is
    not ``o``, if that square is ``p``'s: towards higher bits that square is the lowest bit of the
    ray's non-``o`` squares, towards lower bits the highest one. Without branches: their outcome is a
    coin toss the processor cannot predict."""
    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        p, o, sq = args
        table = _module_constant(builder.module, "othello_rays",
                                 ir.Constant(ir.ArrayType(ir.VectorType(_I64, 8), 64),
                                             [_vector(row, 8) for row in RAYS.view(np.int64)]))
        rays = builder.load(builder.gep(table, [ir.Constant(_I64, 0), sq]), align=64)
        towards_higher = ir.Constant(ir.VectorType(_I1, 8), [1, 1, 1, 1, 0, 0, 0, 0])  # RAYS' order
        all_ones, zero = _vector([-1] * 8, 8), _vector([0] * 8, 8)
        ctlz = builder.module.globals.get("llvm.ctlz.v8i64") or ir.Function(
            builder.module, ir.FunctionType(rays.type, [rays.type, _I1]), name="llvm.ctlz.v8i64")
        blockers = builder.and_(rays, builder.xor(_splat(builder, o, 8), all_ones))
        lowest = builder.and_(blockers, builder.sub(zero, blockers))
        highest = builder.lshr(_vector([1 << 63] * 8, 8),
                               builder.call(ctlz, [builder.or_(blockers, _vector([1] * 8, 8)), ir.Constant(_I1, 1)]))
        first = builder.select(towards_higher, lowest, highest)
        below = builder.add(first, all_ones)
        above = builder.xor(builder.add(builder.add(first, first), all_ones), all_ones)
        run = builder.and_(builder.select(towards_higher, below, above), rays)
        capped = builder.icmp_unsigned("!=", builder.and_(builder.and_(first, _splat(builder, p, 8)), blockers), zero)
        return _or_of_lanes(builder, builder.and_(run, builder.sext(capped, rays.type)), 8)
    return types.uint64(types.uint64, types.uint64, types.int64), codegen


@intrinsic
def _moves_on_lines(typingctx, p, o):  # noqa: ANN001, ANN202
    """Squares (empty or not) that end a run of ``o`` discs capped by ``p``, the four line directions
    side by side in one vector, each lane both ways. The runs grow by doubling steps (Edax's method),
    three steps where a one-square walk takes six."""
    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        p, o = args
        step = _vector([1, 8, 7, 9], 4)  # along rows, columns and the two diagonals
        double_step = builder.add(step, step)
        inner = int(INNER_COLS.view(np.int64))  # a line through column A or H cannot continue sideways
        oo = builder.and_(_splat(builder, o, 4), _vector([inner, -1, inner, inner], 4))
        pp = _splat(builder, p, 4)
        left = builder.and_(oo, builder.shl(pp, step))
        right = builder.and_(oo, builder.lshr(pp, step))
        left = builder.or_(left, builder.and_(oo, builder.shl(left, step)))
        right = builder.or_(right, builder.and_(oo, builder.lshr(right, step)))
        pairs_left = builder.and_(oo, builder.shl(oo, step))
        pairs_right = builder.lshr(pairs_left, step)
        for _ in range(2):
            left = builder.or_(left, builder.and_(pairs_left, builder.shl(left, double_step)))
            right = builder.or_(right, builder.and_(pairs_right, builder.lshr(right, double_step)))
        return _or_of_lanes(builder, builder.or_(builder.shl(left, step), builder.lshr(right, step)), 4)
    return types.uint64(types.uint64, types.uint64), codegen


@njit(cache=True)
def get_moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """Bitboard of the squares where the side owning ``p`` may play."""
    return _moves_on_lines(p, o) & ~(p | o)


@njit(cache=True, inline="always")
def flips(p: np.uint64, o: np.uint64, b: np.uint64) -> np.uint64:
    """Discs of ``o`` turned by the side owning ``p`` playing the single bit ``b`` (never 0) on an
    empty square; 0 if the move is not legal. A square with no disc of ``o`` beside it is answered
    at once: near the end most squares tried are such, and the rays cost ten times more."""
    sq = np.int64(trailing_zeros(b))
    if not NEIGHBOURS[sq] & o:
        return U0
    return _flips_on_rays(p, o, sq)


@njit(cache=True)
def final_score(p: np.uint64, o: np.uint64) -> int:
    """Disc difference at game end for the side owning ``p``; empty squares go to the winner."""
    mine = popcount(p)
    theirs = popcount(o)
    diff = mine - theirs
    empties = 64 - mine - theirs
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return 0


@njit(cache=True)
def _lowest_bit(x: np.uint64) -> np.uint64:
    return x & (~x + U1)


# --- exact search: the last squares, stability, ordering, the table ---------------------------------


# The solvers of the last five squares return (score, nodes) and take no array: a numba call that
# passes an array counts references to it atomically, which cost more than the search itself here.


@njit(cache=True, inline="always")
def _last_flip_count(p: np.uint64, sq: int) -> int:
    """How many discs ``p`` turns by playing the board's last empty square: each of the square's four
    lines read as a byte of ``p``'s discs (the others being the opponent's), then looked up (Edax's
    method), far cheaper than finding the turned discs."""
    row, col = sq >> 3, sq & 7
    on_row = (p >> np.uint64(8 * row)) & _BYTE
    on_column = (((p >> np.uint64(col)) & COLUMN_A) * COLUMN_TO_BYTE) >> U56
    on_diagonal = ((p & DIAGONALS[sq]) * COLUMN_A) >> U56  # a diagonal's squares sum into their columns
    on_anti_diagonal = ((p & ANTI_DIAGONALS[sq]) * COLUMN_A) >> U56
    return (LINE_FLIP_COUNTS[col, np.int64(on_row)] + LINE_FLIP_COUNTS[row, np.int64(on_column)]
            + LINE_FLIP_COUNTS[col, np.int64(on_diagonal)] + LINE_FLIP_COUNTS[col, np.int64(on_anti_diagonal)])


@njit(cache=True)
def _last_empty(p: np.uint64, o: np.uint64, b: np.uint64) -> int:
    """Exact score with one empty square ``b`` left (one node)."""
    sq = np.int64(trailing_zeros(b))
    n = _last_flip_count(p, sq)
    if n:
        return 2 * (popcount(p) + n + 1) - 64
    n = _last_flip_count(o, sq)
    if n:
        return 64 - 2 * (popcount(o) + n + 1)
    return final_score(p, o)


@njit(cache=True)
def _best_of_two(p: np.uint64, o: np.uint64, beta: int, b1: np.uint64, b2: np.uint64) -> tuple[int, int]:
    """The best score for ``p`` playing one of the last two empty squares (-INF if it has no move), and the nodes."""
    best, nodes = -INF, 0
    f = flips(p, o, b1)
    if f:
        best, nodes = -_last_empty(o ^ f, p | f | b1, b2), 1
        if best >= beta:
            return best, nodes
    f = flips(p, o, b2)
    if f:
        best, nodes = max(best, -_last_empty(o ^ f, p | f | b2, b1)), nodes + 1
    return best, nodes


@njit(cache=True)
def _two_empties(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """Exact score with two empty squares left (either side may have to pass), and the nodes."""
    empty = ~(p | o)
    b1 = _lowest_bit(empty)
    b2 = empty ^ b1
    v, nodes = _best_of_two(p, o, beta, b1, b2)
    if v > -INF:
        return v, nodes + 1
    v, nodes = _best_of_two(o, p, -alpha, b1, b2)
    if v > -INF:
        return -v, nodes + 1
    return final_score(p, o), 1


@njit(cache=True, inline="always")
def _odd_quadrants(empty: np.uint64) -> np.uint64:
    """The quadrants holding an odd number of empty squares: moving there first tends to keep the last move."""
    odd = U0
    for q in range(4):
        if popcount(empty & QUADRANTS[q]) & 1:
            odd |= QUADRANTS[q]
    return odd


@njit(cache=True)
def _best_of_three(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """The best score for ``p`` playing one of the last three empty squares (-INF if it has no move), and the nodes."""
    empty = ~(p | o)
    odd = _odd_quadrants(empty)
    best, nodes = -INF, 0
    for group in (empty & odd, empty & ~odd):
        while group:
            b = _lowest_bit(group)
            group ^= b
            f = flips(p, o, b)
            if f:
                v, n = _two_empties(o ^ f, p | f | b, -beta, -alpha)
                nodes += n
                if -v > best:
                    best = -v
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            return best, nodes
    return best, nodes


@njit(cache=True)
def _three_empties(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """Exact score with three empty squares left (either side may have to pass), and the nodes."""
    v, nodes = _best_of_three(p, o, alpha, beta)
    if v > -INF:
        return v, nodes + 1
    v, nodes = _best_of_three(o, p, -beta, -alpha)
    if v > -INF:
        return -v, nodes + 1
    return final_score(p, o), 1


@njit(cache=True)
def _best_of_four(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """As ``_best_of_three`` one square earlier (unrolled by hand: a cached numba function may not recurse)."""
    empty = ~(p | o)
    odd = _odd_quadrants(empty)
    best, nodes = -INF, 0
    for group in (empty & odd, empty & ~odd):
        while group:
            b = _lowest_bit(group)
            group ^= b
            f = flips(p, o, b)
            if f:
                v, n = _three_empties(o ^ f, p | f | b, -beta, -alpha)
                nodes += n
                if -v > best:
                    best = -v
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            return best, nodes
    return best, nodes


@njit(cache=True)
def _four_empties(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """Exact score with four empty squares left, and the nodes."""
    upper = _stability_bound(p, o, alpha, 4)
    if upper <= alpha:
        return upper, 1
    v, nodes = _best_of_four(p, o, alpha, beta)
    if v > -INF:
        return v, nodes + 1
    v, nodes = _best_of_four(o, p, -beta, -alpha)
    if v > -INF:
        return -v, nodes + 1
    return final_score(p, o), 1


@njit(cache=True)
def _best_of_five(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """As ``_best_of_four`` one square earlier: the many nodes with five empties skip the stack."""
    empty = ~(p | o)
    odd = _odd_quadrants(empty)
    best, nodes = -INF, 0
    for group in (empty & odd, empty & ~odd):
        while group:
            b = _lowest_bit(group)
            group ^= b
            f = flips(p, o, b)
            if f:
                v, n = _four_empties(o ^ f, p | f | b, -beta, -alpha)
                nodes += n
                if -v > best:
                    best = -v
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            return best, nodes
    return best, nodes


@njit(cache=True)
def _five_empties(p: np.uint64, o: np.uint64, alpha: int, beta: int) -> tuple[int, int]:
    """Exact score with five empty squares left, and the nodes."""
    upper = _stability_bound(p, o, alpha, 5)
    if upper <= alpha:
        return upper, 1
    v, nodes = _best_of_five(p, o, alpha, beta)
    if v > -INF:
        return v, nodes + 1
    v, nodes = _best_of_five(o, p, -beta, -alpha)
    if v > -INF:
        return -v, nodes + 1
    return final_score(p, o), 1


@njit(cache=True)
def _solve_few(p: np.uint64, o: np.uint64, alpha: int, beta: int, n_empty: int) -> tuple[int, int]:
    """Exact score of a position with at most five empty squares, and the nodes."""
    if n_empty == 5:
        return _five_empties(p, o, alpha, beta)
    if n_empty == 4:
        return _four_empties(p, o, alpha, beta)
    if n_empty == 3:
        return _three_empties(p, o, alpha, beta)
    if n_empty == 2:
        return _two_empties(p, o, alpha, beta)
    if n_empty == 1:
        return _last_empty(p, o, ~(p | o)), 1
    return final_score(p, o), 1


@njit(cache=True)
def full_lines(filled: np.uint64) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """The squares on a full row, column, diagonal (steps of 9) and anti-diagonal (steps of 7), each
    by a few shifts that AND a square with its neighbours along the line, the edges ending a line
    (Edax's method)."""
    h = filled & (filled >> U1)
    h &= h >> U2
    h &= h >> U4
    h = (h & COLUMN_A) * _BYTE
    v = filled & ((filled >> U8) | (filled << U56))
    v &= (v >> _S16) | (v << _S48)
    v &= (v >> _S32) | (v << _S32)
    l7 = filled & (_L7[0] | (filled >> U7))
    l7 &= _L7[1] | (l7 >> _S14)
    l7 &= _L7[2] | (l7 >> _S28)
    r7 = filled & (_R7[0] | (filled << U7))
    r7 &= _R7[1] | (r7 << _S14)
    r7 &= _R7[2] | (r7 << _S28)
    l9 = filled & (_L9[0] | (filled >> U9))
    l9 &= _L9[1] | (l9 >> _S18)
    r9 = filled & (_R9[0] | (filled << U9))
    r9 &= _R9[1] | (r9 << _S18)
    return h, v, l9 & r9 & (_D9_MIDDLE | (l9 >> _S36) | (r9 << _S36)), l7 & r7


@njit(cache=True)
def stable_discs(p: np.uint64, o: np.uint64) -> np.uint64:
    """Discs of ``p`` that can never flip: in each of the four line directions the disc's line is full,
    or it touches the edge or a stable disc of its own along that line (grown to a fixed point)."""
    full_h, full_v, full_d, full_a = full_lines(p | o)
    stable = U0
    while True:
        horizontal = full_h | COLS_AH | ((stable << U1) & NOT_A) | ((stable >> U1) & NOT_H)
        vertical = full_v | ROWS_18 | (stable << U8) | (stable >> U8)
        diagonal = full_d | EDGES | ((stable << U9) & NOT_A) | ((stable >> U9) & NOT_H)
        anti = full_a | EDGES | ((stable << U7) & NOT_H) | ((stable >> U7) & NOT_A)
        grown = p & horizontal & vertical & diagonal & anti
        if grown == stable:
            return stable
        stable = grown


@njit(cache=True, inline="always")
def _stability_bound(p: np.uint64, o: np.uint64, alpha: int, n_empty: int) -> int:
    """An upper bound on the score: the opponent keeps its stable discs. Computed only where it may
    refute alpha (``STABILITY_MIN_ALPHA``); elsewhere SCORE_MAX, which bounds nothing."""
    if alpha < STABILITY_MIN_ALPHA[n_empty]:
        return SCORE_MAX
    return SCORE_MAX - 2 * popcount(stable_discs(o, p))


@njit(cache=True, inline="always")
def _tt_hash(p: np.uint64, o: np.uint64) -> np.uint64:
    h = p * HASH_A + ((o ^ (o >> H30)) * HASH_B)
    return h ^ (h >> H30)


@njit(cache=True, inline="always")
def _tt_read(tt: np.ndarray, slot: int, p: np.uint64, o: np.uint64) -> np.uint64:
    """The slot's data word if the slot holds (p, o), else 0. A slot keeps p and o each XORed with its
    data word, so when two threads write one slot at once the words left no longer agree and the slot
    reads as empty, never as another position's bounds."""
    data = tt[slot].data
    if tt[slot].p ^ data == p and tt[slot].o ^ data == o:
        return data
    return U0


@njit(cache=True, inline="always")
def _tt_lookup(p: np.uint64, o: np.uint64, h: np.uint64, tt: np.ndarray) -> tuple[int, np.uint64]:
    """The slot holding (p, o) and its data word; else the bucket's first slot and 0."""
    slot = np.int64(h & TT_SLOTS)
    data = _tt_read(tt, slot, p, o)
    if data == U0:
        data = _tt_read(tt, slot + 1, p, o)
        if data != U0:
            slot += 1
    return slot, data


@njit(cache=True, inline="always")
def _tt_find(p: np.uint64, o: np.uint64, tt: np.ndarray) -> np.uint64:
    """The data word stored for (p, o) (see ``_tt_data``), or 0."""
    return _tt_lookup(p, o, _tt_hash(p, o), tt)[1]


@njit(cache=True, inline="always")
def _tt_data(lo: int, hi: int, n_empty: int, move: np.uint64, h: np.uint64) -> np.uint64:
    """One word: lo + 64, hi + 64, empties, best move's square + 1 (0: none), and the position's hash
    above them, so two positions' words differ even when their bounds agree. Never 0 (empties >= 1)."""
    square = trailing_zeros(move) + U1 if move != U0 else U0
    return (np.uint64(lo + SCORE_MAX) | (np.uint64(hi + SCORE_MAX) << U8) | (np.uint64(n_empty) << _S16)
            | (square << _S24) | (h & _HASH_BITS))


@njit(cache=True, inline="always")
def _tt_lo(data: np.uint64) -> int:
    return np.int64(data & _BYTE) - SCORE_MAX


@njit(cache=True, inline="always")
def _tt_hi(data: np.uint64) -> int:
    return np.int64((data >> U8) & _BYTE) - SCORE_MAX


@njit(cache=True, inline="always")
def _tt_empties(data: np.uint64) -> int:
    return np.int64((data >> _S16) & _BYTE)


@njit(cache=True, inline="always")
def _tt_move(data: np.uint64) -> np.uint64:
    square = (data >> _S24) & _BYTE
    return U1 << (square - U1) if square != U0 else U0


@njit(cache=True, inline="always")
def _tt_store(p: np.uint64, o: np.uint64, lo: int, hi: int, move: np.uint64, tt: np.ndarray) -> None:
    """Keep the bounds (joined with any already known). Of a bucket's two slots the first holds the
    search with the most empty squares (the costliest to redo), the second the latest one."""
    h = _tt_hash(p, o)
    slot, old = _tt_lookup(p, o, h, tt)
    n_empty = 64 - popcount(p | o)
    if old != U0:
        lo = max(lo, _tt_lo(old))
        hi = min(hi, _tt_hi(old))
    elif n_empty >= _tt_empties(tt[slot].data):
        tt[slot + 1] = tt[slot]  # the entry it displaces moves to the second slot
    else:
        slot += 1
    data = _tt_data(lo, hi, n_empty, move, h)
    tt[slot].p = p ^ data
    tt[slot].o = o ^ data
    tt[slot].data = data


# The ordering's weights (``_order_key``, ``_list_moves``): the replies left, those on corners, the empty
# squares beside the mover's discs, a corner taken, an X-square taken, a move in a quadrant of odd parity,
# the evaluation after the move (12-13 empties) and of the best reply (from 14). The hand-scored search
# keeps the first row, which its readings' node counts (the grades) rest on; the exact search has the
# second, tuned by node counts on training positions (``train.random_position``, 19-21 empties).
W_MOBILITY, W_CORNER_REPLIES, W_POTENTIAL, W_CORNER, W_X, W_PARITY, W_EVAL, W_REPLY = range(8)
ORDER_WEIGHTS = np.array([[16, 16, 2, 24, 12, 0, 4, 4],
                          [16, 16, 4, 0, 12, 8, 2, 2]], dtype=np.int64)


@njit(cache=True, inline="always")
def _order_key(p: np.uint64, o: np.uint64, b: np.uint64, f: np.uint64, w: np.ndarray, odd: np.uint64) -> int:
    """Fastest-first: the fewer replies (corners counted twice) and the fewer empty squares next to our
    discs (the opponent's potential mobility) the earlier; a corner may help, an X-square hurts, and a
    move in a quadrant with an odd number of empties tends to keep the last move there."""
    np_, no = o ^ f, p | f | b
    replies = get_moves(np_, no)
    empty = ~(np_ | no)
    near = ((no << U1) & NOT_A) | ((no >> U1) & NOT_H) | (no << U8) | (no >> U8)
    near |= ((no << U9) & NOT_A) | ((no >> U9) & NOT_H) | ((no << U7) & NOT_H) | ((no >> U7) & NOT_A)
    key = (w[W_MOBILITY] * popcount(replies) + w[W_CORNER_REPLIES] * popcount(replies & CORNERS)
           + w[W_POTENTIAL] * popcount(near & empty))
    if b & CORNERS:
        key -= w[W_CORNER]
    elif b & X_SQUARES:
        key += w[W_X]
    if odd & b:
        key -= w[W_PARITY]
    return key


# --- one search on an explicit stack -----------------------------------------------------------------


@njit(cache=True, inline="always")
def _list_moves(d: int, p: np.uint64, o: np.uint64, moves: np.uint64, tt_best: np.uint64,
                move_bits: np.ndarray, move_flips: np.ndarray, move_keys: np.ndarray, learned: bool,
                w: np.ndarray) -> int:
    """Frame ``d``'s moves with their flips, most promising first; returns how many. The learned search
    orders by the cheap terms alone: its nodes are many, and the table's move orders its top."""
    n = 0
    n_empty = 64 - popcount(p | o)
    odd = _odd_quadrants(~(p | o)) if w[W_PARITY] else U0  # the quadrants whose parity a move favours
    while moves:
        b = _lowest_bit(moves)
        moves ^= b
        f = flips(p, o, b)
        if b == tt_best:
            key = -10_000
        else:
            key = _order_key(p, o, b, f, w, odd)
            if not learned and n_empty >= REPLY_ORDER_MIN_EMPTIES:  # fewer still, each worth a look at the replies
                key += w[W_REPLY] * _best_reply_value(o ^ f, p | f | b)
            elif not learned and n_empty >= EVAL_ORDER_MIN_EMPTIES:  # few such nodes, each worth ordering well
                key += w[W_EVAL] * evaluate(o ^ f, p | f | b)
        j = n  # insertion sort, stable: equal keys keep square order
        while j > 0 and move_keys[d, j - 1] > key:
            move_bits[d, j] = move_bits[d, j - 1]
            move_flips[d, j] = move_flips[d, j - 1]
            move_keys[d, j] = move_keys[d, j - 1]
            j -= 1
        move_bits[d, j] = b
        move_flips[d, j] = f
        move_keys[d, j] = key
        n += 1
    return n


@njit(cache=True, inline="always")
def _open_node(d: int, counters: np.ndarray, tt: np.ndarray, boards: np.ndarray, frames: np.ndarray,
               move_bits: np.ndarray, move_flips: np.ndarray, move_keys: np.ndarray, weights: np.ndarray,
               learned: bool) -> int:
    """Enter the node in frame ``d``: its value if it is settled without searching moves (a leaf, a
    cutoff, the game's end), else OPEN with its moves listed. ``F_DEPTH`` < 0 means exact mode; else
    leaves are scored by the learned evaluation if ``learned``, by ``evaluate`` if not.

    The table serves the exact and the learned searches. An exact node trusts and stores bounds; a
    learned node reads only the stored best move and stores only its own best move, with bounds that
    bound nothing (-64, 64), so an estimate never becomes a bound an exact search trusts, while it
    orders the exact search. The hand-scored search (the service's heuristic readings) leaves the table
    alone."""
    if counters[C_NODES] >= counters[C_LIMIT]:
        counters[C_ABORTED] = 1
        return 0
    counters[C_NODES] += 1
    p, o = boards[d, 0], boards[d, 1]
    alpha, beta = frames[d, F_ALPHA], frames[d, F_BETA]
    depth = frames[d, F_DEPTH]
    exact = depth < 0
    n_empty = 64 - popcount(p | o)
    frames[d, F_STORE] = 0
    tt_best = U0
    if exact:
        if n_empty <= LOOPS_MAX_EMPTIES:
            value, nodes = _solve_few(p, o, alpha, beta, n_empty)
            counters[C_NODES] += nodes - 1
            return value
        upper = _stability_bound(p, o, alpha, n_empty)
        if upper <= alpha:
            return upper
        beta = min(beta, upper)
    if n_empty >= TT_MIN_EMPTIES and (exact or learned and depth > 0):
        frames[d, F_STORE] = 1
        data = _tt_find(p, o, tt)
        if data != U0:
            tt_best = _tt_move(data)
            if exact:
                lo, hi = _tt_lo(data), _tt_hi(data)
                if lo >= beta:
                    return lo
                if hi <= alpha or lo == hi:
                    return hi
                alpha = max(alpha, lo)
                beta = min(beta, hi)
    moves = get_moves(p, o)
    if moves == U0:
        if frames[d, F_PASSED]:
            return final_score(p, o) * (1 if exact else 4)  # a finished game outweighs any estimate
        move_bits[d, 0] = U0  # the one "move" is a pass
        move_flips[d, 0] = U0
        n = 1
    elif depth == 0:
        return patterns.pattern_eval(p, o, n_empty, weights) >> LEARNED_TO_QUARTERS if learned else evaluate(p, o)
    else:
        n = _list_moves(d, p, o, moves, tt_best, move_bits, move_flips, move_keys, learned, ORDER_WEIGHTS[1 if exact else 0])
        if exact and n_empty >= ETC_MIN_EMPTIES:
            for i in range(n):  # a child whose stored upper bound already refutes beta ends this node
                f, b = move_flips[d, i], move_bits[d, i]
                cp, co = o ^ f, p | f | b
                data = _tt_find(cp, co, tt)
                if data != U0 and -_tt_hi(data) >= beta:
                    return -_tt_hi(data)
    frames[d, F_ALPHA], frames[d, F_BETA] = alpha, beta
    frames[d, F_ALPHA0], frames[d, F_BETA0] = alpha, beta
    frames[d, F_BEST] = -INF
    frames[d, F_COUNT] = n
    frames[d, F_NEXT] = 0
    boards[d, 2] = U0
    return OPEN


@njit(cache=True, inline="always")
def _push_child(d: int, alpha: int, beta: int, boards: np.ndarray, frames: np.ndarray, move_bits: np.ndarray,
                move_flips: np.ndarray) -> None:
    """Set up frame ``d + 1`` for frame ``d``'s current move, searched with window (alpha, beta)."""
    i = frames[d, F_NEXT]
    b, f = move_bits[d, i], move_flips[d, i]
    p, o = boards[d, 0], boards[d, 1]
    boards[d + 1, 0] = o ^ f
    boards[d + 1, 1] = p | f | b
    frames[d + 1, F_ALPHA] = alpha
    frames[d + 1, F_BETA] = beta
    frames[d + 1, F_PASSED] = 1 if b == U0 else 0
    depth = frames[d, F_DEPTH]
    frames[d + 1, F_DEPTH] = depth - 1 if depth > 0 and b != U0 else depth


@njit(cache=True, inline="always")
def _close_node(d: int, tt: np.ndarray, boards: np.ndarray, frames: np.ndarray) -> int:
    """Frame ``d`` is done: record what its search proved in the table; return its value."""
    best = frames[d, F_BEST]
    if frames[d, F_STORE]:
        lo, hi = -SCORE_MAX, SCORE_MAX  # all a depth-limited search proves
        if frames[d, F_DEPTH] < 0:
            if best <= frames[d, F_ALPHA0]:
                hi = best
            elif best >= frames[d, F_BETA0]:
                lo = best
            else:
                lo = hi = best
        _tt_store(boards[d, 0], boards[d, 1], lo, hi, boards[d, 2], tt)
    return best


# Without numba's reference counting (``_nrt=False``): every inlined helper that takes the arrays would
# otherwise count references to each of them atomically at every node, the biggest cost of the search.
# The search allocates nothing, so it needs none.
@njit(cache=True, _nrt=False, nogil=True)
def _search(p: np.uint64, o: np.uint64, alpha: int, beta: int, depth: int, resume: bool, counters: np.ndarray,
            tt: np.ndarray, boards: np.ndarray, frames: np.ndarray, move_bits: np.ndarray, move_flips: np.ndarray,
            move_keys: np.ndarray, weights: np.ndarray, learned: bool) -> int:
    """Fail-soft negamax value of (p, o) within (alpha, beta): exact when ``depth`` < 0, else a
    ``depth``-ply search scored by ``evaluate`` or, if ``learned``, by the learned evaluation. The first
    move of a node gets the full window, the others a null window first (principal variation search).

    When the node limit stops it, the stack is left as it was and the frame being opened is noted:
    ``resume`` (with the same arrays, untouched meanwhile) carries on from there, so a caller can
    check the clock between slices of nodes."""
    if resume:
        d = counters[C_FRAME]
        counters[C_ABORTED] = 0
    else:
        boards[0, 0], boards[0, 1] = p, o
        frames[0, F_ALPHA], frames[0, F_BETA], frames[0, F_PASSED], frames[0, F_DEPTH] = alpha, beta, 0, depth
        d = 0
    value = _open_node(d, counters, tt, boards, frames, move_bits, move_flips, move_keys, weights, learned)
    while True:
        if counters[C_ABORTED]:
            counters[C_FRAME] = d
            return 0
        if value != OPEN:  # frame d is settled: hand its value to the parent
            if d == 0:
                return value
            d -= 1
            v = -value
            a, b = frames[d, F_ALPHA], frames[d, F_BETA]
            if frames[d, F_PROBE] and a < v < b:  # the null window failed high: search again, fully
                frames[d, F_PROBE] = 0
                _push_child(d, -b, -v, boards, frames, move_bits, move_flips)
                d += 1
                value = _open_node(d, counters, tt, boards, frames, move_bits,
                                   move_flips, move_keys, weights, learned)
                continue
            if v > frames[d, F_BEST]:
                frames[d, F_BEST] = v
                boards[d, 2] = move_bits[d, frames[d, F_NEXT]]
                if v > a:
                    frames[d, F_ALPHA] = a = v
            frames[d, F_NEXT] += 1
            if a >= b or frames[d, F_NEXT] == frames[d, F_COUNT]:
                value = _close_node(d, tt, boards, frames)
                continue
        a, b = frames[d, F_ALPHA], frames[d, F_BETA]
        if frames[d, F_NEXT] == 0:
            frames[d, F_PROBE] = 0
            _push_child(d, -b, -a, boards, frames, move_bits, move_flips)
        else:
            frames[d, F_PROBE] = 1
            _push_child(d, -a - 1, -a, boards, frames, move_bits, move_flips)
        d += 1
        value = _open_node(d, counters, tt, boards, frames, move_bits, move_flips,
                           move_keys, weights, learned)


@njit(cache=True)
def _ordered_moves(p: np.uint64, o: np.uint64, tt: np.ndarray, move_bits: np.ndarray, move_flips: np.ndarray,
                   move_keys: np.ndarray) -> int:
    """Row 0 of the arrays: (p, o)'s moves as an exact node lists them; returns how many."""
    data = _tt_find(p, o, tt)
    return _list_moves(0, p, o, get_moves(p, o), _tt_move(data) if data != U0 else U0, move_bits, move_flips,
                       move_keys, False, ORDER_WEIGHTS[1])


# --- heuristic evaluation (positions with too many empties to solve) ---------------------------------


@njit(cache=True)
def _edge_stable(p: np.uint64) -> int:
    """Discs of ``p`` stable along an edge: unbroken runs from an owned corner (a cheap lower bound)."""
    stable = U0
    corners = (0, 7, 56, 63)
    steps = ((1, 8), (-1, 8), (1, -8), (-1, -8))
    for c in range(4):
        sq = corners[c]
        if not (p >> np.uint64(sq)) & U1:
            continue
        for d in steps[c]:
            s = sq
            for _ in range(8):
                if not (p >> np.uint64(s)) & U1:
                    break
                stable |= U1 << np.uint64(s)
                s += d
    return popcount(stable)


@njit(cache=True)
def evaluate(p: np.uint64, o: np.uint64) -> int:
    """Heuristic value for the side to move, in rough disc units: mobility, corners, stability, X-squares."""
    mob = popcount(get_moves(p, o)) - popcount(get_moves(o, p))
    corners = popcount(p & CORNERS) - popcount(o & CORNERS)
    stable = _edge_stable(p) - _edge_stable(o)
    empty = ~(p | o)
    # X-squares next to an empty corner hand that corner over
    open_x = U0
    for corner, x in ((0, 9), (7, 14), (56, 49), (63, 54)):
        if (empty >> np.uint64(corner)) & U1:
            open_x |= U1 << np.uint64(x)
    x_risk = popcount(p & open_x) - popcount(o & open_x)
    return (8 * mob + 30 * corners + 6 * stable - 15 * x_risk) // 4


@njit(cache=True)
def _best_reply_value(p: np.uint64, o: np.uint64) -> int:
    """A one-ply look ahead: ``evaluate`` of the best move for the side to move (of the position itself
    if it must pass). It orders moves better than ``evaluate`` alone, which misses the reply that takes
    a corner or leaves no move."""
    moves = get_moves(p, o)
    if not moves:
        return evaluate(p, o)
    best = -INF
    while moves:
        b = _lowest_bit(moves)
        moves ^= b
        f = flips(p, o, b)
        best = max(best, -evaluate(o ^ f, p | f | b))
    return best


# --- Python-side interface ----------------------------------------------------------------------------


@dataclass
class Counters:
    """Work done by one search, and the node limit it ran under."""

    array: np.ndarray

    @classmethod
    def with_limit(cls, limit: int) -> Counters:
        return cls(np.array([0, limit, 0, 0], dtype=np.int64))

    @property
    def nodes(self) -> int:
        return int(self.array[C_NODES])

    @property
    def aborted(self) -> bool:
        return bool(self.array[C_ABORTED])


TT_ENTRY = np.dtype([("p", np.uint64), ("o", np.uint64), ("data", np.uint64)])  # p, o XORed with data


class Table:
    """The transposition table: exact bounds only, so it stays valid across searches, and shared by
    every thread of the process (see ``_tt_read``), so searches run side by side learn from each other."""

    def __init__(self, bits: int = TT_BITS):
        self.entries = np.zeros(1 << bits, dtype=TT_ENTRY)

    def clear(self) -> None:
        self.entries[:] = 0

    def stored(self, p: int, o: int) -> tuple[int, int]:
        """The exact bounds the table holds for (p, o) (-64, 64 when none)."""
        data = np.uint64(_tt_find(np.uint64(p), np.uint64(o), self.entries))
        return (int(_tt_lo(data)), int(_tt_hi(data))) if data else (-SCORE_MAX, SCORE_MAX)

    def store(self, p: int, o: int, lo: int, hi: int, sq: int) -> None:
        """Keep exact bounds of (p, o) and its best move, as a node of the search does."""
        _tt_store(np.uint64(p), np.uint64(o), lo, hi, np.uint64(1 << sq), self.entries)

    def ordered(self, p: int, o: int) -> list[int]:
        """The moves of (p, o) in the exact search's order (``_list_moves``: the table's move first)."""
        bits = np.zeros((1, MOVE_COLS), dtype=np.uint64)
        n = _ordered_moves(np.uint64(p), np.uint64(o), self.entries, bits, np.zeros_like(bits),
                           np.zeros((1, MOVE_COLS), dtype=np.int64))
        return [int(b).bit_length() - 1 for b in bits[0, :n]]

    def search(self, p: int, o: int, alpha: int, beta: int, depth: int, counters: Counters,
               out_of_time: Callable[[], bool] | None = None, learned: bool = False) -> int:
        """The search, stopped by the node limit or, between slices of ``SLICE_NODES``, by ``out_of_time``.
        It runs without Python's global lock, on this thread's own stack."""
        stack = _thread_stack()
        limit = int(counters.array[C_LIMIT])
        counters.array[C_ABORTED] = 0  # a stop of an earlier search is no stop of this one
        resume = False
        while True:
            if out_of_time is not None:
                counters.array[C_LIMIT] = min(limit, counters.nodes + SLICE_NODES)
            value = int(_search(np.uint64(p), np.uint64(o), alpha, beta, depth, resume, counters.array, self.entries,
                                stack.boards, stack.frames, stack.move_bits, stack.move_flips, stack.move_keys,
                                WEIGHTS, learned))
            counters.array[C_LIMIT] = limit
            if not counters.aborted or counters.nodes >= limit or out_of_time is None or out_of_time():
                return value
            resume = True


class Stack:
    """One search's explicit stack: a frame per ply."""

    def __init__(self) -> None:
        self.boards = np.zeros((STACK_ROWS, 3), dtype=np.uint64)  # p, o, best move so far
        self.frames = np.zeros((STACK_ROWS, FRAME_FIELDS), dtype=np.int64)
        self.move_bits = np.zeros((STACK_ROWS, MOVE_COLS), dtype=np.uint64)
        self.move_flips = np.zeros((STACK_ROWS, MOVE_COLS), dtype=np.uint64)
        self.move_keys = np.zeros((STACK_ROWS, MOVE_COLS), dtype=np.int64)


WEIGHTS = patterns.load_weights()
_TABLE: Table | None = None
_TABLE_LOCK = threading.Lock()
_STACKS = threading.local()


def table() -> Table:
    """This process's transposition table (about 24 MB), made on first use."""
    global _TABLE
    with _TABLE_LOCK:
        if _TABLE is None:
            _TABLE = Table()
    return _TABLE


def _thread_stack() -> Stack:
    if not hasattr(_STACKS, "stack"):
        _STACKS.stack = Stack()
    return _STACKS.stack


def exact_value(p: int, o: int, alpha: int, beta: int, counters: Counters,
                out_of_time: Callable[[], bool] | None = None,
                test: Callable[[int, int], int] | None = None, leaf: int | None = None) -> int:
    """Fail-soft exact score of (p, o) within (alpha, beta); meaningless if ``counters.aborted``.

    A wide window is not searched as such: from ``ESTIMATE_MIN_EMPTIES`` empties the score is first
    estimated by learned searches, which also leave their best moves in the table to order the exact
    search, and then proved by windows of one score, each test moving to the bound the last one
    returned (MTD(f)): a test window cuts far more of the tree than a wide one, and the estimate is
    usually a few discs from the score. Every test is exact, so the value is. ``test(alpha, beta)``, when
    given, answers the tests in place of one search on this thread (``solvers.othello.split``); ``leaf``: the
    estimate's (``estimate``)."""
    if beta - alpha <= 2:
        return table().search(p, o, alpha, beta, -1, counters, out_of_time)
    guess = estimate(p, o, counters, out_of_time, leaf)
    lower, upper = -SCORE_MAX, SCORE_MAX  # what the tests have proved of the score
    while True:
        t = min(max(guess, lower, alpha + 1), upper, beta - 1)
        v = (_search_on_the_clock(p, o, t - 1, t + 1, -1, counters, out_of_time) if test is None
             else test(t - 1, t + 1))
        if counters.aborted:
            return v
        if v <= t - 1:
            upper = v
        elif v >= t + 1:
            lower = v
        else:
            return v
        if upper <= alpha or lower >= beta or lower == upper:
            return upper if upper <= alpha else lower
        guess = v


def _search_on_the_clock(p: int, o: int, alpha: int, beta: int, depth: int, counters: Counters,
                         out_of_time: Callable[[], bool] | None, learned: bool = False) -> int:
    """One of several searches answering one question: the clock is read before it too, as between
    slices of one search, so a caller out of time stops within a slice whatever the searches' sizes.
    A stop counts as the node limit's (``counters.aborted``)."""
    if out_of_time is not None and out_of_time():
        counters.array[C_ABORTED] = 1
        return 0
    return table().search(p, o, alpha, beta, depth, counters, out_of_time, learned)


def estimate(p: int, o: int, counters: Counters, out_of_time: Callable[[], bool] | None = None,
             leaf: int | None = None) -> int:
    """A guess at the exact score (even, in discs): the learned evaluation, searched by iterative
    deepening down to ``leaf`` empties (``ESTIMATE_LEAF_EMPTIES`` when None; at most ``ESTIMATE_MAX_DEPTH`` plies)
    when there are at least ``ESTIMATE_MIN_EMPTIES``."""
    n_empty = 64 - (p | o).bit_count()
    if n_empty < ESTIMATE_MIN_EMPTIES:
        value = int(patterns.pattern_eval(np.uint64(p), np.uint64(o), n_empty, WEIGHTS)) >> LEARNED_TO_QUARTERS
    else:  # the first depth's search scores the position as the static evaluation would, and more
        for depth in range(1, min(n_empty - (ESTIMATE_LEAF_EMPTIES if leaf is None else leaf), ESTIMATE_MAX_DEPTH) + 1):
            value = _search_on_the_clock(p, o, -INF, INF, depth, counters, out_of_time, learned=True)
            if counters.aborted:
                break
    return 2 * round(min(max(value / 4, -SCORE_MAX), SCORE_MAX) / 2)


def heuristic_value(p: int, o: int, depth: int, counters: Counters,
                    out_of_time: Callable[[], bool] | None = None) -> int:
    """``depth``-ply alpha-beta value scored by ``evaluate`` (finished games count 4 per disc)."""
    return table().search(p, o, -INF, INF, depth, counters, out_of_time)


def legal_moves(p: int, o: int) -> int:
    return int(get_moves(np.uint64(p), np.uint64(o)))


def play(p: int, o: int, sq: int) -> tuple[int, int]:
    """The position after the side owning ``p`` plays ``sq`` (legal), from the opponent's side."""
    b = np.uint64(1 << sq)
    f = flips(np.uint64(p), np.uint64(o), b)
    return int(np.uint64(o) ^ f), int(np.uint64(p) | f | b)


def flipped(p: int, o: int, sq: int) -> int:
    return int(flips(np.uint64(p), np.uint64(o), np.uint64(1 << sq)))


def evaluation(p: int, o: int) -> int:
    return int(evaluate(np.uint64(p), np.uint64(o)))


@njit
def _perft(p: np.uint64, o: np.uint64, depth: int, passed: bool) -> int:
    if depth == 0:
        return 1
    moves = get_moves(p, o)
    if moves == U0:
        if passed:
            return 1  # game over counts as a leaf
        return _perft(o, p, depth - 1, True)
    total = 0
    while moves:
        b = _lowest_bit(moves)
        moves ^= b
        f = flips(p, o, b)
        total += _perft(o ^ f, p | f | b, depth - 1, False)
    return total


def perft(p: int, o: int, depth: int) -> int:
    """Leaf count at ``depth`` plies (a pass is a ply), the standard Othello move-generator check.
    A test tool: recursive, so compiled on first use and never cached on disk."""
    return int(_perft(np.uint64(p), np.uint64(o), depth, False))


_nodes_per_second: int | None = None  # measured once per process, by nodes_per_second()


def warm_up() -> None:
    """Load every entry point now (compiling it into numba's on-disk cache the first time on this
    machine), so no request waits on it."""
    start_p, start_o = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)  # X at E4/D5 and O at D4/E5, X to move
    with compile_lock(__name__):
        heuristic_value(start_p, start_o, 2, Counters.with_limit(10_000))
        evaluation(start_p, start_o)
        play(start_p, start_o, 19)
        flipped(start_p, start_o, 19)
        p, o = _parse_ffo(FFO_1)
        exact_value(p, o, -1, 1, Counters.with_limit(1 << 40))


def nodes_per_second() -> int:
    """Half this process's measured exact-search rate on FFO #1: a cautious figure for benchmarks and
    capacity estimates (budgets follow the clock instead, see ``Table.search``)."""
    global _nodes_per_second
    if _nodes_per_second is None:
        p, o = _parse_ffo(FFO_1)
        with compile_lock(__name__):
            exact_value(p, o, -1, 1, Counters.with_limit(1 << 40))  # loaded (or compiled) before timing
        nodes, elapsed = 0, 0.0
        while elapsed < 0.1:  # searches from scratch, long enough to time
            table().clear()
            counters = Counters.with_limit(1 << 40)
            started = time.perf_counter()
            exact_value(p, o, -SCORE_MAX, SCORE_MAX, counters)
            elapsed += time.perf_counter() - started
            nodes += counters.nodes
        _nodes_per_second = int(0.5 * nodes / elapsed)
    return _nodes_per_second


FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"  # 14 empties, X to move: every search path


def _parse_ffo(board: str) -> tuple[int, int]:
    x = sum(1 << i for i, ch in enumerate(board) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(board) if ch == "O")
    return x, o
