"""The play page's shared scripts name no puzzle type: each type says through its ``PuzzleType`` which shared
widget it plays with (``play_mode``) and which module of its own the page adds (``play_script``, a file in
the genre's folder), so a new genre needs no edit of app/static."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from app.routes.pictures import GENRE_ASSETS, STATIC, play_script
from generators.registry import TYPES


def pieces(source: str) -> Iterator[tuple[str, str]]:
    """A JavaScript source as ("code" | "string" | "comment", text) pieces: strings are "...", '...' and
    `...` (a string's text without its quotes); enough of a lexer for these scripts."""
    i = start = 0
    while i < len(source):
        if source.startswith(("//", "/*"), i):
            end = source.find("\n", i) if source[i + 1] == "/" else source.index("*/", i) + 2
            end = len(source) if end < 0 else end
            kind, text, after = "comment", source[i:end], end
        elif source[i] in "\"'`":
            end = i + 1
            while source[end] != source[i]:
                end += 2 if source[end] == "\\" else 1
            kind, text, after = "string", source[i + 1:end], end + 1
        else:
            i += 1
            continue
        yield "code", source[start:i]
        yield kind, text
        i = start = after
    yield "code", source[start:]


def string_literals(source: str) -> list[str]:
    return [text for kind, text in pieces(source) if kind == "string"]


def named_types(source: str) -> set[str]:
    """The registered type names the script's code or strings hold (as a word: `play-nonogram.js` counts),
    comments aside."""
    return {name for kind, text in pieces(source) if kind != "comment" for name in TYPES
            if re.search(rf"(?<![A-Za-z0-9_$]){re.escape(name)}(?![A-Za-z0-9_$])", text)}


def test_the_script_reader_skips_comments_and_sees_keys_and_strings() -> None:
    source = """// the genre's "othello" in a comment\nconst a = "one", b = 'it\\'s', c = `x${d}`; /* "sudoku" */ e("two");"""
    assert string_literals(source) == ["one", "it\\'s", "x${d}", "two"]
    assert named_types(source) == set()
    assert named_types('const MODES = { othello: "square" };\nimport(`./play-nonogram.js`);') == {"othello", "nonogram"}


def test_the_shared_play_scripts_name_no_puzzle_type() -> None:
    scripts = sorted(STATIC.glob("*.js"))
    assert {path.name for path in scripts} >= {"play.js", "play-digits.js", "play-links.js", "front.js"}
    named = {path.name: sorted(named_types(path.read_text())) for path in scripts}
    assert {script: names for script, names in named.items() if names} == {}


def test_every_type_plays_with_a_widget_play_js_implements_and_ships_its_own_module() -> None:
    play = (STATIC / "play.js").read_text()
    declared = re.search(r"^const MODES = \[([^\]]*)\];", play, re.MULTILINE)
    assert declared, "play.js declares its shared widgets as `const MODES = [...]`"
    implemented = set(string_literals(declared.group(1)))
    assert implemented == {"cycle", "square", "pieces", "digits", "edges", "links"}
    assert {name: t.play_mode for name, t in TYPES.items() if t.play_mode not in implemented} == {}
    for name, puzzle_type in TYPES.items():
        path = play_script(puzzle_type)
        if path is None:
            continue
        assert Path(puzzle_type.play_script).parts[0] == "solvers", (name, "a genre module ships in its folder")
        assert GENRE_ASSETS[(name, path.name)] == path
        assert re.search(r"^export function setup\(", path.read_text(), re.MULTILINE), (name, path)
    assert {name for name, t in TYPES.items() if t.play_script} >= {"nonogram", "battleship"}
