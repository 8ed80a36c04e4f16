"""pzprjs's encoding of cells that hold one of three values (none and two kinds: white and black circles):
``genericEncodeTriple``, three cells to a base-27 character, the first worth 9, the second 3, the third 1."""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import shown

DIGITS = "0123456789abcdefghijklmnopq"


def read_triples(body: str, count: int) -> list[int]:
    """``count`` values 0-2 from the body's first characters (a short body leaves the rest 0)."""
    values: list[int] = []
    for char in body[:(count + 2) // 3]:
        if char not in DIGITS:
            raise InvalidInput(f"a base-27 triple character is 0-9 or a-q, got {shown(char)} in {shown(body)}")
        number = DIGITS.index(char)
        values.extend((number // 9, number // 3 % 3, number % 3))
    return (values + [0] * count)[:count]


def write_triples(values: list[int]) -> str:
    padded = values + [0] * (-len(values) % 3)
    return "".join(DIGITS[9 * a + 3 * b + c] for a, b, c in zip(padded[::3], padded[1::3], padded[2::3], strict=True))
