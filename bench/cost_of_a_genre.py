"""What a genre costs in code: the lines of its folder under ``solvers/`` and its module in ``generators/``
(tests, data, docs and benchmarks excluded), and how many of them are blank or comments.

    python -m bench.cost_of_a_genre            # every registered genre, kit genres marked
    python -m bench.cost_of_a_genre --markdown
"""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path

from generators.registry import TYPES

ROOT = Path(__file__).resolve().parent.parent


def code_lines(path: Path) -> tuple[int, int]:
    """(all lines, lines of code): a line of code is neither blank nor only a comment."""
    lines = path.read_text().splitlines()
    comment = "//" if path.suffix == ".js" else "#"
    return len(lines), sum(1 for line in lines if line.strip() and not line.strip().startswith(comment))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    for name, puzzle_type in sorted(TYPES.items()):
        generator = Path(inspect.getfile(puzzle_type.generate))
        folder = ROOT / "solvers" / generator.stem
        files = [generator, *sorted(p for p in folder.rglob("*") if p.suffix in (".py", ".js"))]
        total = [code_lines(p) for p in files]
        rows.append((name, puzzle_type.model is not None, len(files), sum(t for t, _ in total), sum(c for _, c in total)))
    if args.markdown:
        print("| type | on the kit | files | lines | lines of code |\n| --- | --- | --- | --- | --- |")
        for name, kit, files, lines, code in rows:
            print(f"| {name} | {'yes' if kit else ''} | {files} | {lines} | {code} |")
        return
    print(f"{'type':<14} {'kit':<4} {'files':>5} {'lines':>6} {'code':>6}")
    for name, kit, files, lines, code in rows:
        print(f"{name:<14} {'yes' if kit else '':<4} {files:>5} {lines:>6} {code:>6}")


if __name__ == "__main__":
    main()
