"""Battleship as a puzz.link URL: the `battleship` genre of pzprjs (`src/variety/statuepark.js`).

    https://puzz.link/p?battleship/<cols>/<rows>/<counts><cells><bank>

- counts: pzprjs's "number16" run encoding over the outside cells, first one per column (top), then
  one per row (left): `0`-`f` a number, `-xx` two hex digits, `.` a question mark, `g`-`z` skips
  1-20 empty ones.
- cells: the same encoding over the cells in row-major order; a number is a revealed cell:
  0 water, 1 top end, 2 bottom end, 3 left end, 4 right end, 5 middle, 6 submarine.
- bank: `//c`, `//d`, `//e` name pzprjs's preset fleets (b = 3, 4, 5), `//p` the pentominoes; otherwise `/N/p1/.../pN`,
  each piece `<w><h><bits>` (base 36 sizes, the w×h cells' bits in base 32 digits of 5 bits).

This service's fleets are straight ships, so a bank piece that is not a straight line (pzprjs also
plays pentomino fleets), or a revealed cell pzprjs draws as a bent corner or a bare question mark,
has no equivalent here and is refused with the reason.
"""

from __future__ import annotations

from solvers.battleship.rules import BattleshipPuzzle, Revealed
from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import (
    BASE_URL,
    QUESTION,
    UNKNOWN,
    base36,
    count_field,
    read_cell_numbers,
    read_outside_numbers,
    shown,
    split_url,
    write_numbers,
)

GENRE = "battleship"
KIND_CODES = {"water": 0, "top": 1, "bottom": 2, "left": 3, "right": 4, "middle": 5, "sub": 6}
CODE_KINDS = {code: kind for kind, code in KIND_CODES.items()}
MAX_SHIP = 35  # a piece's width is one base-36 digit
PRESETS = {  # pzprjs's preset fleets, pieces in its order (ascending length)
    "c": ["11g", "11g", "11g", "21o", "21o", "31s"],
    "d": ["11g"] * 4 + ["21o"] * 3 + ["31s"] * 2 + ["41u"],
    "e": ["11g"] * 5 + ["21o"] * 4 + ["31s"] * 3 + ["41u"] * 2 + ["51v"],
    "p": ["337k", "15v", "24as", "24bo", "23fg", "337i", "23rg", "334u", "335s", "33bk", "24bk", "337o"],  # pentominoes
}


# --- the piece bank --------------------------------------------------------------------------------


def ship_piece(length: int) -> str:
    """A straight ship as pzprjs serialises a 1-high piece: width, height, then 5-bit groups."""
    if not 1 <= length <= MAX_SHIP:
        raise InvalidInput(f"pzprjs cannot express a ship of length {length} (1..{MAX_SHIP})")
    bits = "1" * length
    groups = "".join(base36(int(bits[i:i + 5].ljust(5, "0"), 2)) for i in range(0, len(bits), 5))
    return (base36(length) + "1" + groups).rstrip("0")


def piece_length(piece: str, number: int) -> int:
    """The length of a straight-ship piece; anything else is not a fleet this service knows."""
    try:
        if ":" in piece:
            width_text, bits = piece.split(":", 1)
            width = int(width_text)
            height = len(bits) // width if width else 0
        else:
            width, height = int(piece[0], 36), int(piece[1], 36)
            bits = "".join(format(int(ch, 32), "05b") for ch in piece[2:])[:width * height].ljust(width * height, "0")
    except (ValueError, IndexError, ZeroDivisionError):
        raise InvalidInput(f"fleet piece {number} ({shown(piece)}) is not a pzprjs piece") from None
    if min(width, height) != 1 or set(bits) != {"1"}:
        raise InvalidInput(f"fleet piece {number} ({shown(piece)}, {width}×{height} cells {shown(bits)}) is not a "
                           "straight ship: pzprjs allows any polyomino fleet, this service plays fleets of straight ships only")
    return max(width, height)


def read_bank(rest: str) -> list[int]:
    if rest.startswith("//"):
        key = rest[2:3]
        if key not in PRESETS:
            raise InvalidInput(f"unknown fleet preset `//{key}`; pzprjs's battleship presets are //{', //'.join(PRESETS)}")
        pieces = PRESETS[key]
    else:
        fields = rest[1:].split("/") if rest.startswith("/") else []
        count = count_field(fields[0]) if fields else None
        if not count:
            raise InvalidInput("the URL names no fleet: after the clues it needs `//c`, `//d`, `//e` or `/N/piece/...`")
        pieces = fields[1:1 + count]
        if len(pieces) != count:
            raise InvalidInput(f"the fleet announces {count} pieces but lists {len(pieces)}")
    return [piece_length(piece, number) for number, piece in enumerate(pieces, 1)]


def write_bank(fleet: list[int]) -> str:
    pieces = [ship_piece(length) for length in sorted(fleet)]
    for key, preset in PRESETS.items():
        if pieces == preset:
            return "//" + key
    return "/" + "/".join([str(len(pieces)), *pieces])


# --- whole URLs --------------------------------------------------------------------------------------


def battleship_url(puzzle: BattleshipPuzzle) -> str:
    counts = [UNKNOWN if n is None else n for n in [*puzzle.col_counts, *puzzle.row_counts]]
    cells = [UNKNOWN] * (puzzle.rows * puzzle.cols)
    for item in puzzle.revealed:
        r, c = item.cell
        cells[r * puzzle.cols + c] = KIND_CODES[item.kind]
    body = write_numbers(counts) + write_numbers(cells) + write_bank(puzzle.fleet)
    return f"{BASE_URL}{GENRE}/{puzzle.cols}/{puzzle.rows}/{body}"


def parse_battleship_url(url: str) -> BattleshipPuzzle:
    """The puzzle of a puzz.link (or any pzprjs host's) battleship URL; raises InvalidInput with why not.
    Model validation (sizes, counts, fleet) then applies as for a JSON puzzle."""
    cols, rows, body = split_url(url, GENRE)
    counts, rest = ([UNKNOWN] * (cols + rows), body) if body.startswith("/") else read_outside_numbers(body, cols + rows)
    cells, rest = ([UNKNOWN] * (rows * cols), rest) if body.startswith("/") else read_cell_numbers(rest, rows * cols)
    fleet = read_bank(rest.rstrip("="))
    revealed = []
    for index, code in enumerate(cells):
        if code == UNKNOWN:
            continue
        if code not in CODE_KINDS:
            what = "a question mark" if code == QUESTION else f"clue {code} (a bent ship's corner)"
            raise InvalidInput(f"cell row {index // cols}, column {index % cols} holds {what}, which a battleship "
                               f"puzzle here cannot express (revealed kinds: {', '.join(KIND_CODES)})")
        revealed.append(Revealed(cell=(index // cols, index % cols), kind=CODE_KINDS[code]))

    def count(value: int) -> int | None:
        return None if value in (UNKNOWN, QUESTION) else value

    return BattleshipPuzzle(rows=rows, cols=cols, fleet=sorted(fleet, reverse=True),
                            col_counts=[count(v) for v in counts[:cols]], row_counts=[count(v) for v in counts[cols:]],
                            revealed=revealed)
