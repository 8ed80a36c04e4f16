"""What people's play says about the levels: `python -m bench.ratings_by_level [--database-url URL]`.

Reads a store (``--database-url``, else ``DATABASE_URL``, else the service's default) and prints, per
type and level, the puzzles, rated games, mean puzzle rating, first-try solve rate and median solving
time of solved first checks, as a Markdown table: the same figures as ``GET /plays``. A level whose
puzzles nobody has played shows its priors' mean and no time.
"""

from __future__ import annotations

import argparse
import sys

from app.settings import get_settings
from app.store import PuzzleStore


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args(argv)
    store = PuzzleStore(args.database_url or get_settings().database_url)
    rows = store.plays_by_level()
    store.dispose()
    print("| type | level | puzzles | rated games | mean rating | first-try solve rate | median seconds |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        rate = "–" if row["first_try_solve_rate"] is None else f"{row['first_try_solve_rate']:.0%}"
        seconds = "–" if row["median_seconds"] is None else f"{row['median_seconds']:.0f}"
        rating = "–" if row["mean_rating"] is None else f"{row['mean_rating']:.0f}"
        level = row["level"] or "none"
        print(f"| {row['type']} | {level} | {row['puzzles']} | {row['rated_games']} | {rating} | {rate} | {seconds} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
