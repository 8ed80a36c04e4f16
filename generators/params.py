"""Helpers for generation-parameter models shared by several types."""

from __future__ import annotations

from typing import Protocol


class SizedGrid(Protocol):
    size: int | None
    rows: int | None
    cols: int | None


def normalise_shape(params: SizedGrid) -> None:
    """One spelling per grid shape, as ids come from the parameters: a square grid is `size` alone
    (`rows=8&cols=8` is `size=8`), any other is `rows` and `cols` (a `size` they override is dropped)."""
    rows, cols = params.rows or params.size, params.cols or params.size
    if rows == cols:
        params.size, params.rows, params.cols = rows, None, None
    else:
        params.size, params.rows, params.cols = None, rows, cols
