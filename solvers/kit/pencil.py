"""Digits as the play page's digits widget speaks them (``app/static/play-digits.js``): a hint places a digit,
``{"cell": [r, c], "value": d}``, or takes a pencil mark out, ``{"cell": [r, c], "value": d, "eliminate": true}``;
a hint request sends the player's ``digits`` and, optionally, their pencil marks (``candidates``), whose
narrowing decides keys too, so an elimination the player has made is not hinted again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from solvers.common import InvalidInput
from solvers.kit.rules import Digits, Key


@dataclass(frozen=True)
class PencilDigits(Digits):
    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        r, c, d = key  # type: ignore[misc]
        return {"cell": [r, c], "value": d} if value else {"cell": [r, c], "value": d, "eliminate": True}

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        decided = super().partial(state)
        marks = state.get("candidates") or []
        if marks and (len(marks) != self.rows or any(len(row) != self.cols for row in marks)):
            raise InvalidInput(f"`candidates` must have {self.rows} rows of {self.cols} lists (or nulls), as the puzzle has")
        for r, row in enumerate(marks):
            for c, kept in enumerate(row):
                if kept and (r, c, 1) not in decided:
                    decided.update({(r, c, d): 0 for d in range(1, self.digits + 1) if d not in kept})
        return decided

    def state_fields(self, description: str) -> dict[str, Any]:
        return {**super().state_fields(description),
                "candidates": (list[list[list[int] | None]] | None, Field(
                    None, description="Optional pencil marks: a cell's list narrows it to those digits; null or [] "
                                      "where the player has made none."))}
