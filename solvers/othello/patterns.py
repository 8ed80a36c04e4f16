"""A learned pattern evaluation. The engine scores its depth-limited estimate of a wide exact window
with it (``engine.exact_value``), whose best moves then order the top of the exact search; it does not
order the exact search's moves node by node: there it has ordered the FFO suite no better than the
hand-made terms and costs more per node (figures in docs/genres/othello.md).

The pattern families are Edax's and Egaroucid's (corner 3x3 and 2x5, edges with their two X-squares,
rows/columns 2-4, diagonals of 4-8 squares), each pattern's symmetric copies sharing one weight table,
one set of tables per band of empty squares.

A pattern's index is its squares read in base 3 (0 empty, 1 the side to move's, 2 the other's), the
first square the most significant digit, so a copy made by a symmetry reads its squares in the mapped
order and looks up the same table. The weights, fitted by ``solvers.othello.train``, are in
``pattern_weights.npz`` beside this file (int16, ``WEIGHT_SCALE`` per disc).
"""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

WEIGHTS_FILE = Path(__file__).resolve().parent / "pattern_weights.npz"
WEIGHT_SCALE = 64  # weights are stored in 1/64 of a disc
BAND_EMPTIES = 4  # one table set per this many empties
BANDS = 6  # bands 0..5: empties 0-3, 4-7, .., 20 and more


def _sq(name: str) -> int:
    return (int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0])


# One pattern of each family, by square names; the families are Edax's.
FAMILIES: list[str] = [
    "A1 B1 C1 A2 B2 C2 A3 B3 C3",  # corner 3x3
    "A1 B1 C1 D1 E1 A2 B2 C2 D2 E2",  # corner 2x5
    "B2 A1 B1 C1 D1 E1 F1 G1 H1 G2",  # edge with its two X-squares
    "A2 B2 C2 D2 E2 F2 G2 H2",  # second row
    "A3 B3 C3 D3 E3 F3 G3 H3",
    "A4 B4 C4 D4 E4 F4 G4 H4",
    "A1 B2 C3 D4 E5 F6 G7 H8",  # main diagonal
    "B1 C2 D3 E4 F5 G6 H7",
    "C1 D2 E3 F4 G5 H6",
    "D1 E2 F3 G4 H5",
    "E1 F2 G3 H4",
]


def _symmetries(sq: int) -> list[int]:
    """The square's images under the board's eight symmetries."""
    r, c = divmod(sq, 8)
    images = []
    for rr, cc in ((r, c), (r, 7 - c), (7 - r, c), (7 - r, 7 - c), (c, r), (c, 7 - r), (7 - c, r), (7 - c, 7 - r)):
        images.append(rr * 8 + cc)
    return images


def _features() -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(squares of each feature padded with -1, its family, each family's offset in a band's table,
    a band's table size): every distinct symmetric copy of every family's pattern."""
    squares: list[list[int]] = []
    family_of: list[int] = []
    offsets, size = [], 0
    for family, names in enumerate(FAMILIES):
        base = [_sq(n) for n in names.split()]
        seen: set[frozenset[int]] = set()
        for k in range(8):
            copy = [_symmetries(s)[k] for s in base]
            if frozenset(copy) not in seen:
                seen.add(frozenset(copy))
                squares.append(copy + [-1] * (10 - len(copy)))
                family_of.append(family)
        offsets.append(size)
        size += 3 ** len(base)
    return np.array(squares, dtype=np.int64), np.array(family_of, dtype=np.int64), np.array(offsets, dtype=np.int64), size


FEATURE_SQUARES, FEATURE_FAMILY, FAMILY_OFFSET, TABLE_SIZE = _features()
FEATURES = len(FEATURE_SQUARES)
FEATURE_OFFSET = FAMILY_OFFSET[FEATURE_FAMILY]


def _gathered() -> tuple[np.ndarray, np.ndarray]:
    """Each feature's squares as one mask, and [feature, its squares' bits gathered in square order]:
    the base-3 index those discs add (each disc's digit 1, in the feature's own order of squares), so
    an index is two gathers and two lookups: ``TO_BASE3[f, pext(p)] + 2 * TO_BASE3[f, pext(o)]``."""
    masks = np.zeros(FEATURES, dtype=np.uint64)
    to_base3 = np.zeros((FEATURES, 1 << 10), dtype=np.int32)
    for f in range(FEATURES):
        squares = [int(sq) for sq in FEATURE_SQUARES[f] if sq >= 0]
        masks[f] = sum(1 << sq for sq in squares)
        digit = {sq: 3 ** (len(squares) - 1 - k) for k, sq in enumerate(squares)}
        for x in range(1 << len(squares)):
            to_base3[f, x] = sum(digit[sq] for j, sq in enumerate(sorted(squares)) if x >> j & 1)
    return masks, to_base3


FEATURE_MASKS, TO_BASE3 = _gathered()
HAS_PEXT = "bmi2" in llvm.get_host_cpu_features().flatten()

if HAS_PEXT:
    @intrinsic
    def _pext(typingctx, x, mask):  # noqa: ANN001, ANN202
        """The bits of ``x`` under ``mask``, packed to the low end (one BMI2 instruction)."""
        def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
            i64 = ir.IntType(64)
            fn = builder.module.globals.get("llvm.x86.bmi.pext.64") or ir.Function(
                builder.module, ir.FunctionType(i64, [i64, i64]), name="llvm.x86.bmi.pext.64")
            return builder.call(fn, args)
        return types.uint64(types.uint64, types.uint64), codegen
else:
    @njit(cache=True)
    def _pext(x: np.uint64, mask: np.uint64) -> np.uint64:
        """The bits of ``x`` under ``mask``, packed to the low end (a processor without BMI2)."""
        out, bit = np.uint64(0), np.uint64(1)
        while mask:
            low = mask & (~mask + np.uint64(1))
            if x & low:
                out |= bit
            bit <<= np.uint64(1)
            mask ^= low
        return out


@njit(cache=True, inline="always")
def band(n_empty: int) -> int:
    return min(n_empty // BAND_EMPTIES, BANDS - 1)


@njit(cache=True)
def feature_indexes(p: np.uint64, o: np.uint64, out: np.ndarray) -> None:
    """Each feature's column in a band's table (its family's offset plus its base-3 index)."""
    for f in range(FEATURES):
        idx = 0
        for k in range(10):
            sq = FEATURE_SQUARES[f, k]
            if sq < 0:
                break
            idx = 3 * idx + np.int64((p >> np.uint64(sq)) & np.uint64(1)) + 2 * np.int64((o >> np.uint64(sq)) & np.uint64(1))
        out[f] = FEATURE_OFFSET[f] + idx


@njit(cache=True, inline="always")
def pattern_eval(p: np.uint64, o: np.uint64, n_empty: int, weights: np.ndarray) -> int:
    """The fitted score estimate for the side to move, in 1/``WEIGHT_SCALE`` of a disc."""
    row = band(n_empty)
    total = 0
    for f in range(FEATURES):
        mask = FEATURE_MASKS[f]
        idx = TO_BASE3[f, np.int64(_pext(p, mask))] + 2 * TO_BASE3[f, np.int64(_pext(o, mask))]
        total += weights[row, FEATURE_OFFSET[f] + idx]
    return total


def load_weights(path: Path = WEIGHTS_FILE) -> np.ndarray:
    """The weight tables, one row per band (zeros when the file is absent: ordering then falls back to
    its other terms)."""
    if not path.exists():
        return np.zeros((BANDS, TABLE_SIZE), dtype=np.int16)
    with np.load(path) as data:
        return np.ascontiguousarray(data["weights"], dtype=np.int16)
