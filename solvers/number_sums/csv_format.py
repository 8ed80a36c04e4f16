"""Number Sums as the article's CSV: first line an empty field then the column sums; every other line
the row sum then that row's digits. It cannot express regions."""

from __future__ import annotations

import csv
import io
import re

from pydantic import ValidationError

from solvers.common import InvalidInput
from solvers.number_sums.rules import NumberSumsPuzzle

# Unix (\n), Windows (\r\n) and old Mac (\r) line ends: files written on any of them read alike.
LINE_END = re.compile(r"\r\n?")
SHOWN_CHARS = 20  # how much of a bad field a message quotes: enough to find it, never the whole body back


def _shown(field: str) -> str:
    field = field.strip()
    return repr(field if len(field) <= SHOWN_CHARS else field[:SHOWN_CHARS] + "…")


def parse_csv(text: str) -> NumberSumsPuzzle:
    """The article's format: first row an empty field then the column sums; every other row the
    row sum then that row's digits. Spaces around fields and blank lines are ignored."""
    reader = csv.reader(io.StringIO(LINE_END.sub("\n", text.strip("\ufeff"))))
    try:
        lines = [(reader.line_num, row) for row in reader if any(field.strip() for field in row)]
    except csv.Error as exc:  # e.g. a field past the csv module's size limit
        raise InvalidInput(f"CSV line {reader.line_num} cannot be read as CSV: {exc}") from None
    if len(lines) < 2:
        raise InvalidInput("CSV needs a header line (empty field, then column sums) and at least one row line")

    def ints(line_no: int, fields: list[str], what: str) -> list[int]:
        values = []
        for pos, field in enumerate(fields, start=1):
            try:
                values.append(int(field.strip()))
            except ValueError:
                problem = f"{what} {pos}: {_shown(field)} is not a whole number"
                raise InvalidInput(f"CSV line {line_no}, {problem}") from None
        return values

    head_no, head = lines[0]
    if head[0].strip():
        raise InvalidInput(f"CSV line {head_no}: the first field of the header must be empty, got {_shown(head[0].strip())}")
    col_sums = ints(head_no, head[1:], "column sum")
    row_sums, numbers = [], []
    for line_no, row in lines[1:]:
        if len(row) != len(head):
            raise InvalidInput(
                f"CSV line {line_no}: expected {len(head)} fields (row sum and {len(head) - 1} digits), got {len(row)}"
            )
        row_sums += ints(line_no, row[:1], "row sum")
        digits = ints(line_no, row[1:], "digit")
        wrong = next((pos for pos, d in enumerate(digits, start=1) if not 1 <= d <= 9), None)
        if wrong is not None:
            raise InvalidInput(f"CSV line {line_no}: digits must be 1..9, digit {wrong} is {_shown(row[wrong])}")
        numbers.append(digits)
    try:
        return NumberSumsPuzzle(numbers=numbers, row_sums=row_sums, col_sums=col_sums)
    except ValidationError as exc:
        reasons = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
        raise InvalidInput(f"CSV describes an invalid puzzle: {reasons}") from None


def to_csv(puzzle: NumberSumsPuzzle) -> str:
    """The article's format (without regions, which it cannot express)."""
    out = ["," + ",".join(map(str, puzzle.col_sums))]
    out += [",".join(map(str, [s, *row])) for s, row in zip(puzzle.row_sums, puzzle.numbers, strict=True)]
    return "\n".join(out) + "\n"
