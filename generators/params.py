"""Helpers for generation-parameter models shared by several types."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, Field, model_validator

from solvers.techniques.human import Difficulty


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


def refuse_unmade(difficulty: str | None, made: Sequence[str], why: str) -> None:
    """A level a type grades but does not generate is refused (a 422) with the reason and the levels it makes."""
    if difficulty is not None and difficulty not in made:
        raise ValueError(f"difficulty {difficulty!r} is graded, not made: {why}; ask {', '.join(made)}")


def rectangle_params(name: str, module: str, low: int, high: int, default: int, graded: Difficulty,
                     largest: Mapping[str, int] | None = None, most_cells: Mapping[str, int] | None = None
                     ) -> type[BaseModel]:
    """The parameters of a genre on a rectangle of any size from ``low`` to ``high`` with the kit's levels:
    ``size`` or ``rows``/``cols``, and ``difficulty``, one of ``graded``'s levels; ``largest`` caps the side of a
    level whose generation beyond it would not fit the service's time budget, ``most_cells`` its cells (a long
    thin board costs what its cells cost). ``name`` and ``module`` are where the class is bound, so a worker
    process unpickles its instances."""
    levels = Literal[tuple(graded.names)]  # type: ignore[valid-type]

    class Params(BaseModel):
        size: int | None = Field(default, ge=low, le=high, description="Grid side (`rows` and `cols` override it).")
        rows: int | None = Field(None, ge=low, le=high, description="Number of rows; defaults to `size`.")
        cols: int | None = Field(None, ge=low, le=high, description="Number of columns; defaults to `size`.")
        difficulty: levels = Field(  # type: ignore[valid-type]
            graded.default, description="What a person needs (see the type's `difficulties`): "
                                        f"`{graded.names[0]}` needs the rules alone.")

        @model_validator(mode="after")
        def _normalised(self) -> Params:
            normalise_shape(self)
            cap = (largest or {}).get(self.difficulty)
            if cap is not None and max(self.shape()) > cap:
                raise ValueError(f"difficulty {self.difficulty!r} is made up to {cap}×{cap} (larger ones take too long "
                                 f"to generate): ask a smaller size or an easier level")
            cells = (most_cells or {}).get(self.difficulty)
            if cells is not None and self.shape()[0] * self.shape()[1] > cells:
                raise ValueError(f"difficulty {self.difficulty!r} is made up to {cells} cells (larger boards take too "
                                 f"long to generate): ask a smaller size or an easier level")
            return self

        def shape(self) -> tuple[int, int]:
            return self.rows or self.size or 0, self.cols or self.size or 0

    Params.__name__ = Params.__qualname__ = name
    Params.__module__ = module
    return Params
