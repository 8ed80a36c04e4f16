"""Training the pattern evaluation on positions our exact engine labels itself.

    for seed in 1 2 3 4; do python -m solvers.othello.train data --seed $seed --positions 10000 --out s$seed.npz; done
    python -m solvers.othello.train fit --data s1.npz s2.npz s3.npz s4.npz --held-out 0.1

``data`` plays openings to a random 11-20 empties (each move at random or the one leaving the fewest
replies, see ``random_position``), solves the position exactly and keeps every position on its
principal variation with that same value (for the side to move there), so one solve labels many
positions. The openings never use the weights being fitted, and every search is exact, so the set
depends on the seed alone; one file per seed lets a long labelling run stop and resume.

``fit`` solves, per band of empties, the damped least-squares problem ``min |Aw - y|^2 + damp |w|^2``
(A: one row per position, a 1 in the column of each feature's index) by conjugate gradients on the
normal equations, which is what scipy's ``lsqr`` would do, with numpy alone; ``--held-out`` first
reports how well positions left out of a fit are predicted. It lives in the package, not under
bench/, because the service's weights file is its output.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import numpy as np
from tqdm import tqdm

from solvers.othello import engine, patterns

CORNERS = 0x8100000000000081
MIN_EMPTIES, MAX_EMPTIES = 11, 20
KEEP_MIN_EMPTIES = 4  # positions closer to the end are solved by the small loops, which never evaluate
DAMP, SPREAD = 16.0, 4  # the fit's defaults (see ``fit``), the best of those tried on held-out positions
GREEDY_SHARE = 0.5  # of the opening moves, this share leaves the opponent the fewest replies


def random_position(rng: random.Random, empties: int) -> tuple[int, int] | None:
    """Legal moves from the start until ``empties`` are left (None if the game ends first): each
    move at random or, with probability ``GREEDY_SHARE``, the one leaving the fewest replies (corners
    counted twice), so the positions look more like played games than purely random ones do."""
    p, o = (1 << 28) | (1 << 35), (1 << 27) | (1 << 36)
    while 64 - (p | o).bit_count() > empties:
        moves = engine.legal_moves(p, o)
        if not moves:
            if not engine.legal_moves(o, p):
                return None
            p, o = o, p
            continue
        squares = [sq for sq in range(64) if moves >> sq & 1]
        if rng.random() < GREEDY_SHARE:
            p, o = min((engine.play(p, o, sq) for sq in squares), key=_replies)
        else:
            p, o = engine.play(p, o, rng.choice(squares))
    return p, o


def _replies(position: tuple[int, int]) -> int:
    moves = engine.legal_moves(*position)
    return moves.bit_count() + (moves & CORNERS).bit_count()


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


def empties_of(p: np.ndarray, o: np.ndarray) -> np.ndarray:
    return 64 - np.array([int(a | b).bit_count() for a, b in zip(p, o, strict=True)])


def fit(data: dict[str, np.ndarray], damp: float = DAMP, spread: int = SPREAD, iterations: int = 200) -> np.ndarray:
    """One weight table per band, int16 in 1/``WEIGHT_SCALE`` disc, each fitted on its band's positions
    and those up to ``spread`` empties either side of it: neighbouring bands' positions differ little,
    and each table has far more weights than any band has positions. A band with no positions takes
    its nearest neighbour's table."""
    p, o, y = data["p"], data["o"], data["value"].astype(np.float64)
    empties = empties_of(p, o)
    columns = feature_matrix(p, o)
    weights = np.zeros((patterns.BANDS, patterns.TABLE_SIZE), dtype=np.int16)
    fitted = []
    for b in range(patterns.BANDS):
        low = b * patterns.BAND_EMPTIES
        high = low + patterns.BAND_EMPTIES - 1 if b < patterns.BANDS - 1 else 64
        mine = (empties >= low - spread) & (empties <= high + spread)
        if ((empties >= low) & (empties <= high)).any():
            w = least_squares(columns[mine], y[mine], patterns.TABLE_SIZE, damp, iterations)
            weights[b] = np.clip(np.rint(w * patterns.WEIGHT_SCALE), -32767, 32767)
            fitted.append(b)
    for b in range(patterns.BANDS):
        if b not in fitted and fitted:
            weights[b] = weights[min(fitted, key=lambda f: abs(f - b))]  # noqa: B023
    return weights


def predict(weights: np.ndarray, p: np.ndarray, o: np.ndarray) -> np.ndarray:
    """The evaluation of each position, in discs."""
    empties = empties_of(p, o)
    return np.array([patterns.pattern_eval(a, b, int(e), weights) for a, b, e in zip(p, o, empties, strict=True)]
                    ) / patterns.WEIGHT_SCALE


def held_out(data: dict[str, np.ndarray], share: float, damp: float, spread: int) -> str:
    """Fit on all but the last ``share`` of the positions (whole principal variations, as they come in
    order) and say how well the rest are predicted, in all and by empties."""
    cut = int(len(data["p"]) * (1 - share))
    train = {k: v[:cut] for k, v in data.items()}
    test = {k: v[cut:] for k, v in data.items()}
    got = predict(fit(train, damp, spread), test["p"], test["o"])
    want = test["value"].astype(np.float64)
    empties = empties_of(test["p"], test["o"])
    lines = [f"held out {len(want)} of {len(data['p'])} positions (damp {damp}, spread {spread}): "
             f"correlation {np.corrcoef(got, want)[0, 1]:.3f}, mean absolute error {np.abs(got - want).mean():.2f} discs"]
    for low in range(4, 24, 4):
        mine = (empties >= low) & (empties < low + 4)
        if mine.sum() > 2:
            lines.append(f"  {low}-{low + 3} empties: {mine.sum()} positions, correlation "
                         f"{np.corrcoef(got[mine], want[mine])[0, 1]:.3f}, mean absolute error "
                         f"{np.abs(got[mine] - want[mine]).mean():.2f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    data = commands.add_parser("data", help="label positions exactly")
    data.add_argument("--seed", type=int, required=True)
    data.add_argument("--positions", type=int, required=True)
    data.add_argument("--out", type=Path, required=True)
    fitting = commands.add_parser("fit", help="fit the weights")
    fitting.add_argument("--data", type=Path, nargs="+", required=True, help="labelled sets, joined in this order")
    fitting.add_argument("--out", type=Path, default=patterns.WEIGHTS_FILE)
    fitting.add_argument("--damp", type=float, default=DAMP)
    fitting.add_argument("--spread", type=int, default=SPREAD)
    fitting.add_argument("--held-out", type=float, default=0.0,
                         help="first report the fit on this share of the positions, fitted without them")
    args = parser.parse_args()
    if args.command == "data":
        engine.warm_up()
        np.savez_compressed(args.out, seed=args.seed, positions=args.positions, **make_data(args.seed, args.positions))
    else:
        parts, made = [], []
        for path in args.data:
            with np.load(path) as loaded:
                parts.append({k: loaded[k] for k in ("p", "o", "value")})
                made.append(f"python -m solvers.othello.train data --seed {int(loaded['seed'])} "
                            f"--positions {int(loaded['positions'])} --out DATA{len(made) + 1}")
        labelled = {k: np.concatenate([part[k] for part in parts]) for k in ("p", "o", "value")}
        if args.held_out:
            print(held_out(labelled, args.held_out, args.damp, args.spread), flush=True)
        names = " ".join(f"DATA{k + 1}" for k in range(len(made)))
        made_by = "; ".join(made) + (f"; python -m solvers.othello.train fit --data {names} --damp {args.damp} "
                                     f"--spread {args.spread} --out {args.out.name}")
        np.savez_compressed(args.out, weights=fit(labelled, args.damp, args.spread), made_by=np.array(made_by))


if __name__ == "__main__":
    main()
