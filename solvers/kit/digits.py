"""The kit's digits layout for genres whose every cell holds exactly one digit (Latin squares, cages): keys that
put two digits in one cell are no answer, where the kit's ``Digits.write`` would keep one of them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from solvers.common import InvalidInput
from solvers.kit.rules import Digits, Key
from solvers.techniques.human import cell_name


class OneDigit(Digits):
    """``Digits`` whose ``write`` refuses a cell of two digits: InvalidInput names the cell."""

    def write(self, ones: set[Key]) -> dict[str, Any]:
        cells = Counter((r, c) for r, c, _ in ones)  # type: ignore[misc]
        if cells and max(cells.values()) > 1:
            raise InvalidInput(f"{cell_name(cells.most_common(1)[0][0])} would hold two digits")
        return super().write(ones)
