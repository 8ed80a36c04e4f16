"""Small helpers every benchmark shares: percentiles and a fixed-width report line."""

from __future__ import annotations

import statistics


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


def summary(label: str, seconds: list[float], **work: list[float]) -> str:
    """`label  median  p95  max` in ms, then the median and max of each work counter."""
    ms = [s * 1000 for s in seconds]
    parts = [f"{label:<14}", f"n={len(ms):<3}", f"median {statistics.median(ms):8.1f} ms", f"p95 {percentile(ms, 95):8.1f} ms",
             f"max {max(ms):8.1f} ms"]
    for name, values in work.items():
        parts.append(f"{name} median {statistics.median(values):g} max {max(values):g}")
    return "  ".join(parts)


def ranks(values: list[float]) -> list[float]:
    """Each value's rank from 0; tied values share their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2
        i = j + 1
    return out


def spearman(a: list[float], b: list[float]) -> float:
    """Pearson's correlation of the ranks (ties share their mean rank)."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    return cov / (sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb)) ** 0.5
