"""Training the pattern evaluation on positions our exact engine labels itself.

    python -m solvers.othello.train data --seed 1 --positions 20000 --out /tmp/othello-train.npz
    python -m solvers.othello.train fit --data /tmp/othello-train.npz --out solvers/othello/pattern_weights.npz

``data`` plays random openings to a random 11-20 empties, solves the position exactly and keeps every
position on its principal variation with that same value (for the side to move there), so one solve
labels many positions. Random moves (not the engine's own play) keep the set independent of the
weights being fitted. Every search is exact, so the set depends on the seed alone.

``fit`` solves, per band of empties, the damped least-squares problem ``min |Aw - y|^2 + damp |w|^2``
(A: one row per position, a 1 in the column of each feature's index) by conjugate gradients on the
normal equations, which is what scipy's ``lsqr`` would do, with numpy alone. It lives in the package,
not under bench/, because the service's weights file is its output.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
from tqdm import tqdm

from solvers.othello import engine, patterns

MIN_EMPTIES, MAX_EMPTIES = 11, 20
KEEP_MIN_EMPTIES = 4  # positions closer to the end are solved by the small loops, which never evaluate


def random_position(rng: random.Random, empties: int) -> tuple[int, int] | None:
    """Random legal moves from the start until ``empties`` are left (None if the game ends first)."""
    p, o = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)
    while 64 - (p | o).bit_count() > empties:
        moves = engine.legal_moves(p, o)
        if not moves:
            if not engine.legal_moves(o, p):
                return None
            p, o = o, p
            continue
        squares = [sq for sq in range(64) if moves >> sq & 1]
        p, o = engine.play(p, o, rng.choice(squares))
    return p, o


def exact(p: int, o: int, alpha: int = -engine.SCORE_MAX, beta: int = engine.SCORE_MAX) -> int:
    return engine.exact_value(p, o, alpha, beta, engine.Counters.with_limit(1 << 62))


def principal_variation(p: int, o: int) -> list[tuple[int, int, int]]:
    """(p, o, exact value for the side to move) along one best line, down to ``KEEP_MIN_EMPTIES``:
    at each position the first move (by square) whose child proves the same value."""
    value = exact(p, o)
    line = []
    while 64 - (p | o).bit_count() >= KEEP_MIN_EMPTIES:
        moves = engine.legal_moves(p, o)
        if not moves:
            if not engine.legal_moves(o, p):
                break
            p, o, value = o, p, -value
            continue
        line.append((p, o, value))
        for sq in range(64):
            if moves >> sq & 1:
                cp, co = engine.play(p, o, sq)
                if exact(cp, co, -value - 1, -value + 1) == -value:
                    p, o, value = cp, co, -value
                    break
        else:
            raise AssertionError("no move reaches the position's exact value")
    return line


def make_data(seed: int, positions: int) -> dict[str, np.ndarray]:
    """At least ``positions`` labelled positions, reproducible from ``seed``."""
    rng = random.Random(seed)
    rows: list[tuple[int, int, int]] = []
    with tqdm(total=positions, unit="pos", desc="labelling") as bar:
        while len(rows) < positions:
            start = random_position(rng, rng.randint(MIN_EMPTIES, MAX_EMPTIES))
            if start is None:
                continue
            line = principal_variation(*start)
            rows.extend(line)
            bar.update(len(line))
    return {"p": np.array([r[0] for r in rows], dtype=np.uint64), "o": np.array([r[1] for r in rows], dtype=np.uint64),
            "value": np.array([r[2] for r in rows], dtype=np.int8)}


def feature_matrix(p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """Each position's feature columns (positions x features)."""
    out = np.zeros((len(p), patterns.FEATURES), dtype=np.int64)
    for i in range(len(p)):
        patterns.feature_indexes(p[i], o[i], out[i])
    return out


def least_squares(columns: np.ndarray, y: np.ndarray, size: int, damp: float, iterations: int) -> np.ndarray:
    """argmin |Aw - y|^2 + damp |w|^2 for the 0/1 matrix A given by its rows' columns, by conjugate gradients."""
    rows = np.repeat(np.arange(len(columns)), columns.shape[1])
    flat = columns.ravel()

    def normal(w: np.ndarray) -> np.ndarray:  # (A^T A + damp) w
        return np.bincount(flat, weights=w[flat].reshape(columns.shape).sum(axis=1)[rows], minlength=size) + damp * w

    w = np.zeros(size)
    r = np.bincount(flat, weights=y[rows], minlength=size)
    d = r.copy()
    rr = r @ r
    for _ in range(iterations):
        if rr < 1e-12:
            break
        q = normal(d)
        step = rr / (d @ q)
        w += step * d
        r -= step * q
        rr, rr_old = r @ r, rr
        d = r + (rr / rr_old) * d
    return w


def fit(data: dict[str, np.ndarray], damp: float = 4.0, iterations: int = 200) -> np.ndarray:
    """One weight table per band, int16 in 1/``WEIGHT_SCALE`` disc. A band with no positions takes its
    nearest neighbour's table."""
    p, o, y = data["p"], data["o"], data["value"].astype(np.float64)
    empties = 64 - np.array([int(a | b).bit_count() for a, b in zip(p, o, strict=True)])
    columns = feature_matrix(p, o)
    bands = np.minimum(empties // patterns.BAND_EMPTIES, patterns.BANDS - 1)
    weights = np.zeros((patterns.BANDS, patterns.TABLE_SIZE), dtype=np.int16)
    fitted = []
    for b in range(patterns.BANDS):
        mine = bands == b
        if mine.any():
            w = least_squares(columns[mine], y[mine], patterns.TABLE_SIZE, damp, iterations)
            weights[b] = np.clip(np.rint(w * patterns.WEIGHT_SCALE), -32767, 32767)
            fitted.append(b)
    for b in range(patterns.BANDS):
        if b not in fitted and fitted:
            weights[b] = weights[min(fitted, key=lambda f: abs(f - b))]  # noqa: B023
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    data = commands.add_parser("data", help="label positions exactly")
    data.add_argument("--seed", type=int, required=True)
    data.add_argument("--positions", type=int, required=True)
    data.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit", help="fit the weights")
    fitting.add_argument("--data", type=Path, required=True)
    fitting.add_argument("--out", type=Path, default=patterns.WEIGHTS_FILE)
    args = parser.parse_args()
    if args.command == "data":
        engine.warm_up()
        np.savez_compressed(args.out, seed=args.seed, positions=args.positions, **make_data(args.seed, args.positions))
    else:
        with np.load(args.data) as loaded:
            labelled = {k: loaded[k] for k in ("p", "o", "value")}
            seed, requested = int(loaded["seed"]), int(loaded["positions"])
        made_by = (f"python -m solvers.othello.train data --seed {seed} --positions {requested} --out DATA; "
                   f"python -m solvers.othello.train fit --data DATA --out {args.out.name}")
        np.savez_compressed(args.out, weights=fit(labelled), made_by=np.array(made_by))


if __name__ == "__main__":
    main()
