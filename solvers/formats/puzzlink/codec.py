"""pzprjs's URL encodings that several genres share: numbers in cells and outside them as "number16" runs.

pzprjs writes a puzzle as ``https://puzz.link/p?<genre>/<cols>/<rows>/<body>``; how a body is read
depends on the genre (its ``src/variety/*.js``), but most genres build it from these pieces.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import unquote

from solvers.common import InvalidInput

BASE_URL = "https://puzz.link/p?"
UNKNOWN = -1  # nothing given
QUESTION = -2  # pzprjs's "?"
SHOWN_CHARS = 40  # how much of a bad part a message quotes: enough to find it, never the whole URL back


def shown(text: str) -> str:
    return repr(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…")


def count_field(text: str) -> int | None:
    """A count as pzprjs writes one (ASCII digits), else None. Not ``str.isdigit``, which is also true of
    `²` or `٣` (int() refuses the first), nor a number too long for int() to read."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def split_url(url: str, genre: str, max_side: int = 100, refused: Mapping[str, str] | None = None) -> tuple[int, int, str]:
    """(cols, rows, body) of a pzprjs URL of ``genre`` (puzz.link, pzv.jp or the bare ``genre/...``);
    raises InvalidInput saying what is wrong. ``refused``: flag letters of a variant this service does not play,
    each with what it is."""
    query = unquote(url.strip()).split("?", 1)[-1]
    fields = query.split("/")
    if fields[0] != genre:
        raise InvalidInput(f"not a {genre} URL: expected `...?{genre}/<cols>/<rows>/<body>`, got genre {shown(fields[0])}")
    if len(fields) > 1 and count_field(fields[1]) is None:
        flags = fields.pop(1)  # a pzprjs flag field: most change nothing of the puzzle; a variant's is refused
        for letter, variant in (refused or {}).items():
            if letter in flags:
                raise InvalidInput(f"the flag `{letter}` makes this {variant}, which is not played here")
    if len(fields) < 4 or count_field(fields[1]) is None or count_field(fields[2]) is None:
        raise InvalidInput(f"a {genre} URL reads `...?{genre}/<cols>/<rows>/<body>` (sizes in digits 0-9), "
                           f"got {shown(query)}")
    cols, rows = int(fields[1]), int(fields[2])
    if not (1 <= rows <= max_side and 1 <= cols <= max_side):
        raise InvalidInput(f"grid size {cols}×{rows} is out of range (1..{max_side} each way)")
    body = "/".join(fields[3:])
    return cols, rows, body[:-1] if body.endswith("/") and not body[-2:-1].isalnum() else body


def url(genre: str, cols: int, rows: int, body: str) -> str:
    """A URL as pzprjs writes it (``outputURLData``): a body ending in anything but a letter or a digit gets a
    closing `/`, so a link shortener cannot drop its last character; ``split_url`` reads it either way."""
    address = f"{BASE_URL}{genre}/{cols}/{rows}/{body}"
    return address if address[-1:].isalnum() else address + "/"


def write_numbers(values: list[int]) -> str:
    """pzprjs's genericEncodeNumber16: numbers as hex, runs of up to 20 blanks as one letter g..z."""
    out, blanks = [], 0
    for value in values:
        if value == UNKNOWN:
            blanks += 1
            if blanks == 20:
                out.append(_skip(blanks))
                blanks = 0
            continue
        if blanks:
            out.append(_skip(blanks))
            blanks = 0
        out.append(_number(value))
    if blanks:
        out.append(_skip(blanks))
    return "".join(out)


def _skip(blanks: int) -> str:
    return base36(15 + blanks)


def _number(value: int) -> str:
    if value == QUESTION:
        return "."
    if 0 <= value < 16:
        return format(value, "x")
    if value < 256:
        return "-" + format(value, "02x")
    raise InvalidInput(f"the number {value} is too large for a puzz.link URL (at most 255)")


def base36(value: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[value]


def read_outside_numbers(body: str, count: int) -> tuple[list[int], str]:
    """pzprjs's decodeNumber16ExCell: ``count`` outside-cell numbers, and the rest of the body."""
    values = [UNKNOWN] * count
    at = index = 0
    while index < len(body):
        ch = body[index]
        if ch in "0123456789abcdef":
            values[at] = int(ch, 16)
        elif ch == "-":
            values[at] = _hex(body[index + 1:index + 3])
            index += 2
        elif ch == ".":
            values[at] = QUESTION
        elif "g" <= ch <= "z":
            at += int(ch, 36) - 16
        at += 1
        if at >= count:
            break
        index += 1
    return values, body[index + 1:]


def read_cell_numbers(body: str, count: int) -> tuple[list[int], str]:
    """pzprjs's genericDecodeNumber16: ``count`` cell numbers, and the rest of the body."""
    values = [UNKNOWN] * count
    at = index = 0
    while index < len(body) and at < count:
        ch = body[index]
        if ch in "0123456789abcdef":
            values[at], index, at = int(ch, 16), index + 1, at + 1
        elif ch == "-":
            values[at], index, at = _hex(body[index + 1:index + 3]), index + 3, at + 1
        elif ch == ".":
            values[at], index, at = QUESTION, index + 1, at + 1
        elif "g" <= ch <= "z":
            at, index = at + int(ch, 36) - 15, index + 1
        else:
            index += 1
    return values, body[index:]


def _hex(digits: str) -> int:
    try:
        return int(digits, 16)
    except ValueError:
        raise InvalidInput(f"`-{digits}` is not a two-digit hex number") from None


def read_4cell(body: str, count: int) -> list[int]:
    """pzprjs's "4Cell" encoding (``decode4Cell``): cells holding 0-4, ``.`` for an unnumbered given
    (QUESTION), the rest UNKNOWN. ``0``-``4`` a number; ``5``-``9`` a number and one blank after it, ``a``-``e``
    a number and two; ``g``-``z`` 1-20 blanks."""
    values = [UNKNOWN] * count
    at = 0
    for char in body:
        if at >= count:
            break
        if "0" <= char <= "4":
            values[at] = int(char)
        elif "5" <= char <= "9":
            values[at] = int(char) - 5
            at += 1
        elif "a" <= char <= "e":
            values[at] = int(char, 16) - 10
            at += 2
        elif "g" <= char <= "z":
            at += int(char, 36) - 16
        elif char == ".":
            values[at] = QUESTION
        else:
            raise InvalidInput(f"{shown(char)} is not a cell of pzprjs's 4Cell encoding (0-9, a-e, g-z or .)")
        at += 1
    return values


def write_4cell(values: list[int]) -> str:
    """The inverse of ``read_4cell``, written as pzprjs's ``encode4Cell`` writes it."""
    out, blanks, c = [], 0, 0
    while c < len(values):
        value, piece = values[c], ""
        if value >= 0:
            if c + 1 < len(values) and values[c + 1] != UNKNOWN:
                piece = format(value, "x")
            elif c + 2 < len(values) and values[c + 2] != UNKNOWN:
                piece, c = format(5 + value, "x"), c + 1
            else:
                piece, c = format(10 + value, "x"), c + 2
        elif value == QUESTION:
            piece = "."
        else:
            blanks += 1
        if blanks == 0:
            out.append(piece)
        elif piece or blanks == 20:
            out.append(base36(blanks + 15) + piece)
            blanks = 0
        c += 1
    if blanks:
        out.append(base36(blanks + 15))
    return "".join(out)


def number_grid_url(genre: str, grid: list[list[int | None]]) -> str:
    """A genre whose puzzle is a grid of numbers (None: no number) as pzprjs's cell "number16" runs."""
    return url(genre, len(grid[0]), len(grid), write_numbers([UNKNOWN if v is None else v for row in grid for v in row]))


def read_number_grid(address: str, genre: str, max_side: int, meaning: str, refused: Mapping[str, str] | None = None
                     ) -> tuple[int, int, list[list[int | None]], str]:
    """(rows, cols, the grid, the rest of the body) of ``number_grid_url``'s URL; a number below 1 or a "?" is
    refused (InvalidInput naming the cell, then ``meaning``: what a number there is), as are ``refused`` flags."""
    cols, rows, body = split_url(address, genre, max_side, refused)
    values, rest = read_cell_numbers(body, rows * cols)
    for index, value in enumerate(values):
        if value != UNKNOWN and value < 1:
            raise InvalidInput(f"row {index // cols + 1}, column {index % cols + 1} holds "
                               f"{'a question mark' if value < 0 else value}: {meaning}")
    cells = [None if v == UNKNOWN else v for v in values]
    return rows, cols, [cells[r * cols:(r + 1) * cols] for r in range(rows)], rest
