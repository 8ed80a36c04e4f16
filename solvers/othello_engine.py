"""Othello on 64-bit bitboards, compiled with numba: move generation, an exact endgame solver and a
depth-limited heuristic search.

Square ``sq = row * 8 + col`` is bit ``sq`` (A1 = bit 0, H1 = bit 7, H8 = bit 63), so an FFO position
string indexes squares directly. A position is (P, O): the discs of the side to move and of the other.

Scores are final disc differences for the side to move, empty squares going to the winner, so they
are even and lie in [-64, 64].

Exact search: negamax alpha-beta (principal variation search) with a transposition table holding
lower/upper bounds, fastest-first move ordering (fewest replies first, corners favoured) while many
squares are empty, and quadrant-parity ordering without move generation near the end. Searches are
plain recursion; nothing is cached on disk (``cache=True`` has crashed on reloaded recursive
functions), and ``warm_up`` compiles every entry point once per process.

numba cannot read the clock, so callers pass a node limit (``Counters``); when it is hit the search
unwinds and reports ``aborted``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

U0 = np.uint64(0)
U1 = np.uint64(1)
U2 = np.uint64(2)
U4 = np.uint64(4)
U7 = np.uint64(7)
U8 = np.uint64(8)
U9 = np.uint64(9)
U56 = np.uint64(56)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # every column but A: where an eastward shift may land
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # every column but H: where a westward shift may land
INNER_COLS = np.uint64(0x7E7E7E7E7E7E7E7E)
CORNERS = np.uint64(0x8100000000000081)
X_SQUARES = np.uint64(0x0042000000004200)  # diagonal neighbours of the corners
EDGES = np.uint64(0xFF818181818181FF)
QUADRANTS = np.array(
    [0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000], dtype=np.uint64
)
HASH_A = np.uint64(0x9E3779B97F4A7C15)
HASH_B = np.uint64(0xC2B2AE3D27D4EB4F)
H30 = np.uint64(30)

SHALLOW = 7  # at or below this many empties: parity-ordered search without the table
SCORE_MAX = 64
INF = 1000  # beyond any exact or heuristic score

TT_BITS = 20
ORDER_ROWS = 65  # scratch rows for move lists, one per number of empties
ORDER_COLS = 34


@njit
def popcount(x: np.uint64) -> int:
    x = x - ((x >> U1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> U2) & np.uint64(0x3333333333333333))
    x = (x + (x >> U4)) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> U56)


@njit
def _moves_dir_left(p: np.uint64, o: np.uint64, empty: np.uint64, s: np.uint64) -> np.uint64:
    x = (p << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    x |= (x << s) & o
    return (x << s) & empty


@njit
def _moves_dir_right(p: np.uint64, o: np.uint64, empty: np.uint64, s: np.uint64) -> np.uint64:
    x = (p >> s) & o
    x |= (x >> s) & o
    x |= (x >> s) & o
    x |= (x >> s) & o
    x |= (x >> s) & o
    x |= (x >> s) & o
    return (x >> s) & empty


@njit
def get_moves(p: np.uint64, o: np.uint64) -> np.uint64:
    """Bitboard of the squares where the side owning ``p`` may play."""
    empty = ~(p | o)
    oi = o & INNER_COLS  # a line through column A or H cannot continue sideways
    m = _moves_dir_left(p, oi, empty, U1) | _moves_dir_right(p, oi, empty, U1)
    m |= _moves_dir_left(p, o, empty, U8) | _moves_dir_right(p, o, empty, U8)
    m |= _moves_dir_left(p, oi, empty, U7) | _moves_dir_right(p, oi, empty, U7)
    m |= _moves_dir_left(p, oi, empty, U9) | _moves_dir_right(p, oi, empty, U9)
    return m


@njit
def _flips_left(p: np.uint64, o: np.uint64, b: np.uint64, s: np.uint64, mask: np.uint64) -> np.uint64:
    line = U0
    y = (b << s) & mask
    while y & o:
        line |= y
        y = (y << s) & mask
    return line if y & p else U0


@njit
def _flips_right(p: np.uint64, o: np.uint64, b: np.uint64, s: np.uint64, mask: np.uint64) -> np.uint64:
    line = U0
    y = (b >> s) & mask
    while y & o:
        line |= y
        y = (y >> s) & mask
    return line if y & p else U0


@njit
def flips(p: np.uint64, o: np.uint64, b: np.uint64) -> np.uint64:
    """Discs of ``o`` turned by the side owning ``p`` playing the single bit ``b`` (0: not a legal move)."""
    f = _flips_left(p, o, b, U1, NOT_A) | _flips_right(p, o, b, U1, NOT_H)
    f |= _flips_left(p, o, b, U8, FULL) | _flips_right(p, o, b, U8, FULL)
    f |= _flips_left(p, o, b, U9, NOT_A) | _flips_right(p, o, b, U9, NOT_H)
    f |= _flips_left(p, o, b, U7, NOT_H) | _flips_right(p, o, b, U7, NOT_A)
    return f


@njit
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


@njit
def _lowest_bit(x: np.uint64) -> np.uint64:
    return x & (~x + U1)


# --- exact search -----------------------------------------------------------------------------------


@njit
def _last_empty(p: np.uint64, o: np.uint64, b: np.uint64, counters: np.ndarray) -> int:
    """Exact score with one empty square ``b`` left."""
    counters[0] += 1
    f = flips(p, o, b)
    if f:
        n = popcount(p) + popcount(f) + 1
        return 2 * n - 64
    f = flips(o, p, b)
    if f:
        n = popcount(o) + popcount(f) + 1
        return 64 - 2 * n
    return final_score(p, o)


@njit
def _shallow(p: np.uint64, o: np.uint64, alpha: int, beta: int, passed: bool, counters: np.ndarray) -> int:
    """Exact search near the end: try empty squares directly, odd quadrants first (parity)."""
    counters[0] += 1
    empty = ~(p | o)
    n_empty = popcount(empty)
    best = -INF
    played = False
    for want_odd in (1, 0):
        for q in range(4):
            qe = empty & QUADRANTS[q]
            if (popcount(qe) & 1) != want_odd:
                continue
            while qe:
                b = _lowest_bit(qe)
                qe ^= b
                f = flips(p, o, b)
                if f == U0:
                    continue
                played = True
                np_, no = o ^ f, p | f | b
                if n_empty == 2:
                    v = -_last_empty(np_, no, empty ^ b, counters)
                else:
                    v = -_shallow(np_, no, -beta, -alpha, False, counters)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best
    if not played:
        if passed:
            return final_score(p, o)
        return -_shallow(o, p, -beta, -alpha, True, counters)
    return best


@njit
def _tt_index(p: np.uint64, o: np.uint64) -> int:
    h = p * HASH_A + ((o ^ (o >> H30)) * HASH_B)
    return int((h ^ (h >> H30)) & np.uint64((1 << TT_BITS) - 1))


@njit
def _order_key(p: np.uint64, o: np.uint64, b: np.uint64, f: np.uint64) -> int:
    """Fastest-first: the fewer replies (corners counted twice) and the fewer empty squares next to our
    discs (the opponent's potential mobility) the earlier; taking a corner helps, an X-square hurts."""
    np_, no = o ^ f, p | f | b
    replies = get_moves(np_, no)
    empty = ~(np_ | no)
    near = ((no << U1) & NOT_A) | ((no >> U1) & NOT_H) | (no << U8) | (no >> U8)
    near |= ((no << U9) & NOT_A) | ((no >> U9) & NOT_H) | ((no << U7) & NOT_H) | ((no >> U7) & NOT_A)
    key = 16 * (popcount(replies) + popcount(replies & CORNERS)) + 2 * popcount(near & empty)
    if b & CORNERS:
        key -= 24
    elif b & X_SQUARES:
        key += 12
    return key


@njit
def _deep(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    passed: bool,
    counters: np.ndarray,
    tt_p: np.ndarray,
    tt_o: np.ndarray,
    tt_lo: np.ndarray,
    tt_hi: np.ndarray,
    tt_move: np.ndarray,
    order_bits: np.ndarray,
    order_keys: np.ndarray,
) -> int:
    counters[0] += 1
    if counters[0] > counters[1]:
        counters[2] = 1
        return 0
    n_empty = 64 - popcount(p | o)
    if n_empty <= SHALLOW:
        return _shallow(p, o, alpha, beta, passed, counters)
    h = _tt_index(p, o)
    hit = tt_p[h] == p and tt_o[h] == o
    tt_best = U0
    if hit:
        lo, hi = int(tt_lo[h]), int(tt_hi[h])
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        tt_best = tt_move[h]
    moves = get_moves(p, o)
    if moves == U0:
        if passed:
            return final_score(p, o)
        return -_deep(o, p, -beta, -alpha, True, counters, tt_p, tt_o, tt_lo, tt_hi, tt_move, order_bits, order_keys)

    bits = order_bits[n_empty]
    keys = order_keys[n_empty]
    n = 0
    rest = moves
    while rest:
        b = _lowest_bit(rest)
        rest ^= b
        bits[n] = b
        keys[n] = -10_000 if b == tt_best else _order_key(p, o, b, flips(p, o, b))
        n += 1

    alpha0, beta0 = alpha, beta
    best = -INF
    best_bit = U0
    for i in range(n):
        k = i  # selection sort: pick the most promising remaining move
        for j in range(i + 1, n):
            if keys[j] < keys[k]:
                k = j
        b = bits[k]
        bits[k], keys[k] = bits[i], keys[i]
        f = flips(p, o, b)
        np_, no = o ^ f, p | f | b
        if i == 0:
            v = -_deep(np_, no, -beta, -alpha, False, counters, tt_p, tt_o, tt_lo, tt_hi, tt_move, order_bits,
                       order_keys)
        else:
            v = -_deep(np_, no, -alpha - 1, -alpha, False, counters, tt_p, tt_o, tt_lo, tt_hi, tt_move, order_bits,
                       order_keys)
            if alpha < v < beta:
                v = -_deep(np_, no, -beta, -v, False, counters, tt_p, tt_o, tt_lo, tt_hi, tt_move, order_bits,
                           order_keys)
        if counters[2]:
            return 0
        if v > best:
            best = v
            best_bit = b
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break

    lo, hi = -SCORE_MAX, SCORE_MAX
    if best <= alpha0:
        hi = best
    elif best >= beta0:
        lo = best
    else:
        lo = hi = best
    if tt_p[h] == p and tt_o[h] == o:  # still this position's entry (the subtree may have replaced it)
        lo = max(lo, int(tt_lo[h]))
        hi = min(hi, int(tt_hi[h]))
    tt_p[h], tt_o[h] = p, o
    tt_lo[h], tt_hi[h] = lo, hi
    tt_move[h] = best_bit
    return best


# --- heuristic search (positions with too many empties to solve) -------------------------------------


@njit
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


@njit
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


@njit
def _heuristic(
    p: np.uint64, o: np.uint64, depth: int, alpha: int, beta: int, passed: bool, counters: np.ndarray
) -> int:
    counters[0] += 1
    if counters[0] > counters[1]:
        counters[2] = 1
        return 0
    moves = get_moves(p, o)
    if moves == U0:
        if passed:
            return final_score(p, o) * 4  # a finished game outweighs any estimate
        return -_heuristic(o, p, depth, -beta, -alpha, True, counters)
    if depth == 0:
        return evaluate(p, o)
    best = -INF
    rest = moves
    while rest:
        b = _lowest_bit(rest)
        rest ^= b
        f = flips(p, o, b)
        v = -_heuristic(o ^ f, p | f | b, depth - 1, -beta, -alpha, False, counters)
        if counters[2]:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


# --- Python-side interface ----------------------------------------------------------------------------


@dataclass
class Counters:
    """Work done by one search, and the node limit it ran under."""

    array: np.ndarray

    @classmethod
    def with_limit(cls, limit: int) -> Counters:
        return cls(np.array([0, limit, 0], dtype=np.int64))

    @property
    def nodes(self) -> int:
        return int(self.array[0])

    @property
    def aborted(self) -> bool:
        return bool(self.array[2])


class Table:
    """Transposition table (exact bounds, so it stays valid across searches) and move-list scratch."""

    def __init__(self, bits: int = TT_BITS):
        size = 1 << bits
        self.p = np.zeros(size, dtype=np.uint64)
        self.o = np.zeros(size, dtype=np.uint64)
        self.lo = np.zeros(size, dtype=np.int8)
        self.hi = np.zeros(size, dtype=np.int8)
        self.move = np.zeros(size, dtype=np.uint64)
        self.order_bits = np.zeros((ORDER_ROWS, ORDER_COLS), dtype=np.uint64)
        self.order_keys = np.zeros((ORDER_ROWS, ORDER_COLS), dtype=np.int64)

    def clear(self) -> None:
        self.p[:] = 0
        self.o[:] = 0


_TABLE: Table | None = None


def table() -> Table:
    """This process's transposition table (about 27 MB), made on first use."""
    global _TABLE
    if _TABLE is None:
        _TABLE = Table()
    return _TABLE


def exact_value(p: int, o: int, alpha: int, beta: int, counters: Counters) -> int:
    """Fail-soft exact score of (p, o) within (alpha, beta); meaningless if ``counters.aborted``."""
    t = table()
    return int(_deep(np.uint64(p), np.uint64(o), alpha, beta, False, counters.array,
                     t.p, t.o, t.lo, t.hi, t.move, t.order_bits, t.order_keys))


def heuristic_value(p: int, o: int, depth: int, counters: Counters) -> int:
    return int(_heuristic(np.uint64(p), np.uint64(o), depth, -INF, INF, False, counters.array))


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
    """Leaf count at ``depth`` plies (a pass is a ply), the standard Othello move-generator check."""
    return int(_perft(np.uint64(p), np.uint64(o), depth, False))


NODES_PER_SECOND = 1_000_000  # conservative until warm_up measures this machine


def warm_up() -> None:
    """Compile every entry point now (a few seconds), so no request ever waits on numba."""
    global NODES_PER_SECOND
    start_p, start_o = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)  # X at E4/D5 and O at D4/E5, X to move
    perft(start_p, start_o, 3)
    heuristic_value(start_p, start_o, 2, Counters.with_limit(10_000))
    evaluation(start_p, start_o)
    play(start_p, start_o, 19)
    flipped(start_p, start_o, 19)
    # FFO #1 (14 empties) exercises every exact-search path; its speed sets the node rate.
    p, o = _parse_ffo("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--")
    exact_value(p, o, -1, 1, Counters.with_limit(1 << 40))
    counters = Counters.with_limit(1 << 40)
    started = time.perf_counter()
    exact_value(o, p, -SCORE_MAX, SCORE_MAX, counters)
    elapsed = time.perf_counter() - started
    if elapsed > 0.005:
        NODES_PER_SECOND = max(NODES_PER_SECOND, int(0.5 * counters.nodes / elapsed))


def _parse_ffo(board: str) -> tuple[int, int]:
    x = sum(1 << i for i, ch in enumerate(board) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(board) if ch == "O")
    return x, o
