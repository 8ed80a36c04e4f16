"""`puzzlegen book`: a printable A4 PDF of N puzzles of one type, several to a page, each with its id
(and difficulty, once graded), the solutions at the back.

    puzzlegen book --type battleship --size 8 --count 12 --out book.pdf

Puzzle k uses seed ``--seed + k``, so the book's puzzles are the very ones `POST /generate` returns for
those parameters and seeds, under the same ids; they are stored like any generated puzzle (a rerun
reuses them), so every id printed can also be played at `/play/{id}`.

Pages are drawn from the same SVG pictures the service serves, converted by svglib into reportlab
drawings: both install from PyPI as wheels, with no system graphics library.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from pydantic import BaseModel
from reportlab.graphics import renderPDF
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import svg2rlg
from tqdm import tqdm

from app.service import build_row, identity
from app.settings import get_settings
from app.store import PuzzleRow, PuzzleStore, derive_id
from app.work import envelope, generate_job, warm_up_worker
from generators.registry import TYPES
from generators.spec import PuzzleType
from pictures.grid import CELL

MARGIN = 36.0  # points (half an inch)
HEADER = 28.0
LABEL = 14.0
LAYOUTS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}  # puzzles per page -> (columns, rows)


def register(commands: argparse._SubParsersAction) -> None:
    book = commands.add_parser("book", help="write a printable PDF of puzzles with solutions at the back")
    book.add_argument("--type", required=True, choices=list(TYPES))
    book.add_argument("--count", type=int, default=12, help="how many puzzles (default 12)")
    book.add_argument("--size", type=int, help="the type's `size` parameter")
    book.add_argument("--difficulty", help="the type's `difficulty` parameter, for types that have one")
    book.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                      help="any other generation parameter, e.g. --param regions=true (repeatable)")
    book.add_argument("--seed", type=int, default=1, help="seed of the first puzzle; the k-th uses seed+k")
    book.add_argument("--per-page", type=int, choices=sorted(LAYOUTS), help="puzzles per page (default: by size)")
    book.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    book.add_argument("--budget", type=float, default=120.0, help="seconds allowed per puzzle")
    book.add_argument("--out", required=True, help="the PDF to write")
    book.set_defaults(run=make_book)


def book_params(puzzle_type: PuzzleType, args: argparse.Namespace) -> BaseModel:
    """The generation parameters, validated by the type's model as the service validates them."""
    given: dict[str, Any] = dict(item.split("=", 1) for item in args.param if "=" in item)
    bad = [item for item in args.param if "=" not in item]
    fields = puzzle_type.params_model.model_fields
    if args.size is not None:
        given["size"] = args.size
    if args.difficulty is not None:
        if "difficulty" not in fields:
            raise ValueError(f"{puzzle_type.name} has no difficulty levels to choose from (no `difficulty` parameter)")
        given["difficulty"] = args.difficulty
    unknown = sorted(set(given) - set(fields)) + bad
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {puzzle_type.name}; known: {', '.join(fields)}")
    return puzzle_type.params_model.model_validate(given)


def _generate(type_name: str, params: BaseModel, seed: int, budget: float) -> dict[str, Any]:
    return envelope(generate_job, type_name, params, seed, time.monotonic() + budget)


def collect(puzzle_type: PuzzleType, params: BaseModel, seeds: list[int], store: PuzzleStore, jobs: int,
            budget: float) -> list[PuzzleRow]:
    """The stored puzzles for these seeds, generating (in parallel, with a progress bar) what is missing.
    Ids are derived as the service derives them, so they are the ids `POST /generate` gives."""
    shown = identity(params)
    ids = [derive_id(puzzle_type.id_prefix, puzzle_type.name, shown, seed) for seed in seeds]
    rows: dict[int, PuzzleRow] = {seed: row for seed, puzzle_id in zip(seeds, ids, strict=True)
                                  if (row := store.get(puzzle_id)) is not None}
    todo = [seed for seed in seeds if seed not in rows]
    with tqdm(total=len(seeds), initial=len(rows), unit="puzzle", desc="puzzles") as bar:
        if todo:
            with ProcessPoolExecutor(min(jobs, len(todo)), initializer=warm_up_worker) as pool:
                futures = {seed: pool.submit(_generate, puzzle_type.name, params, seed, budget) for seed in todo}
                for seed, future in futures.items():
                    result = future.result()
                    if "ok" not in result:
                        raise RuntimeError(f"seed {seed}: {result['message']}")
                    puzzle_id = ids[seeds.index(seed)]
                    rows[seed] = store.add(build_row(puzzle_type, shown, seed, puzzle_id, result["ok"]))
                    bar.update(1)
    return [rows[seed] for seed in seeds]


def drawing(svg: str) -> Any:
    return svg2rlg(io.BytesIO(svg.encode()))


def auto_per_page(svg_width: float) -> int:
    """Small pictures six to a page, larger ones fewer, so a cell stays at least ~6 mm wide."""
    cells = svg_width / CELL
    return 6 if cells <= 11 else 2 if cells <= 20 else 1


def label(row: PuzzleRow, number: int) -> str:
    level = (row.difficulty or {}).get("level") if getattr(row, "difficulty", None) else None
    return f"{number}.  {row.id}" + (f"  ·  difficulty: {level}" if level else "")


def write_pdf(path: str, puzzle_type: PuzzleType, rows: list[PuzzleRow], per_page: int | None) -> int:
    """Puzzle pages, then solution pages in the same order; returns the page count."""
    pictures = [puzzle_type.render(puzzle_type.puzzle_model.model_validate(row.puzzle), None)  # type: ignore[misc]
                for row in rows]
    first = drawing(pictures[0])
    per_page = per_page or auto_per_page(first.width)
    columns, lines = LAYOUTS[per_page]
    page_width, page_height = A4
    slot_width = (page_width - 2 * MARGIN) / columns
    slot_height = (page_height - 2 * MARGIN - HEADER) / lines
    title = puzzle_type.name.replace("-", " ").title()
    pdf = Canvas(path, pagesize=A4)
    pdf.setTitle(f"{title}: {len(rows)} puzzles")
    pdf.setAuthor("puzzlegen")
    pages = 0
    for section, answers in (("Puzzles", False), ("Solutions", True)):
        for start in range(0, len(rows), per_page):
            chunk = rows[start:start + per_page]
            pages += 1
            pdf.setFont("Helvetica-Bold", 13)
            pdf.drawString(MARGIN, page_height - MARGIN - 12, f"{title} — {section} {start + 1}–{start + len(chunk)}")
            pdf.setFont("Helvetica", 8)
            pdf.drawRightString(page_width - MARGIN, MARGIN / 2, str(pages))
            for index, row in enumerate(chunk):
                column, line = index % columns, index // columns
                x = MARGIN + column * slot_width
                top = page_height - MARGIN - HEADER - line * slot_height
                pdf.setFont("Helvetica", 8.5)
                pdf.drawString(x + 4, top - 10, label(row, start + index + 1))
                svg = (puzzle_type.render(puzzle_type.puzzle_model.model_validate(row.puzzle),  # type: ignore[misc]
                                          puzzle_type.answer_model.model_validate(row.solution))
                       if answers else pictures[start + index])
                picture = drawing(svg)
                room_width, room_height = slot_width - 12, slot_height - LABEL - 12
                scale = min(room_width / picture.width, room_height / picture.height)
                picture.scale(scale, scale)
                renderPDF.draw(picture, pdf, x + 4 + (room_width - picture.width * scale) / 2,
                               top - LABEL - 4 - picture.height * scale)
            pdf.showPage()
    pdf.save()
    return pages


def make_book(args: argparse.Namespace) -> int:
    puzzle_type = TYPES[args.type]
    if args.count < 1:
        print("--count must be at least 1", file=sys.stderr)
        return 2
    try:
        params = book_params(puzzle_type, args)
    except ValueError as exc:  # pydantic's ValidationError is a ValueError too
        print(f"puzzlegen book: {exc}", file=sys.stderr)
        return 2
    store = PuzzleStore(args.database_url or get_settings().database_url)
    try:
        rows = collect(puzzle_type, params, [args.seed + k for k in range(args.count)], store,
                       args.jobs or 1, args.budget)
    except RuntimeError as exc:
        print(f"puzzlegen book: {exc}", file=sys.stderr)
        return 1
    finally:
        store.dispose()
    pages = write_pdf(args.out, puzzle_type, rows, args.per_page)
    print(f"wrote {args.out}: {len(rows)} {puzzle_type.name} puzzles on {pages} pages (solutions from page "
          f"{pages // 2 + 1})", file=sys.stderr)
    return 0
