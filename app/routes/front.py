"""The front page, `GET /`: today's daily puzzle of every type and level, each with its picture and a
link to play it, and the way to the API (its documentation, and the README's curl examples).

The page itself touches neither the store nor the workers: it is drawn from the registered types alone,
so it answers at once even on a day's first request, when no daily is stored yet. Each picture is a
request of its own (`GET /daily/{type}.svg?difficulty=...`), which makes that daily if it is missing
and is then kept (and replayed) like any daily; so a day's first visitor waits for each picture, not
for eighteen puzzles before seeing anything. The pictures count against the cheap `read` budget, as
the dailies they show do, never against `work`.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from dataclasses import dataclass
from importlib import metadata
from string import Template
from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import Field, ValidationError

from app.routes.pictures import STATIC, VERSION, long_date
from app.routes.puzzles import StrictQuery, daily_date
from app.service import identity
from generators.registry import TYPES
from generators.spec import PuzzleType

PAGE = Template((STATIC / "front.html").read_text())
README_HOST = "localhost:8000"  # the address the README's examples use

router = APIRouter(tags=["pictures and play"])


def readme_curl_examples() -> str | None:
    """The code block of the README's "Using it with curl" section, so the page shows the very examples
    the README keeps current. The README ships as the installed package's description, so a wheel, an
    image and a checkout all have it (None only if the package is not installed at all)."""
    try:
        text = metadata.metadata("puzzlegen").get_payload()
    except metadata.PackageNotFoundError:
        return None
    found = re.search(r"^## Using it with curl\n+```sh\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    return found.group(1) if found else None


CURL = readme_curl_examples()


@dataclass(frozen=True)
class Daily:
    """One daily on the page: its level (None for a type without levels) and the query that shows it, or
    why the type's default parameters cannot have that level."""

    level: str | None
    query: str | None = None
    why_not: str | None = None


def dailies(puzzle_type: PuzzleType) -> list[Daily]:
    """The type's default parameters at each of its levels, as `puzzlegen pregenerate` makes them ahead
    (``app.cli.plan.params_per_level``): the parameters the page asks for are the ones stored in advance.
    A type without a default level (Othello) still has levels, and gets one daily per level."""
    if puzzle_type.difficulty is None:
        return [Daily(None, urlencode(identity(puzzle_type.params_model())))]
    shown = []
    for level in puzzle_type.difficulty.names:
        try:
            puzzle_type.params_model(difficulty=level)
        except ValidationError as exc:  # e.g. a level the default size is too small for
            reasons = "; ".join(error["msg"].removeprefix("Value error, ") for error in exc.errors())
            shown.append(Daily(level, why_not=reasons))
            continue
        # Only the level in the URL: the type's defaults are what `GET /daily/{type}` fills in anyway.
        shown.append(Daily(level, urlencode({"difficulty": level})))
    return shown


def type_section(puzzle_type: PuzzleType, day: dt.date | None) -> str:
    name = puzzle_type.name
    title = name.replace("-", " ").title()
    cards, notes = [], []
    for daily in dailies(puzzle_type):
        level = daily.level or "today"
        if daily.query is None:
            notes.append(f'<p class="note"><strong>{html.escape(level)}</strong>: {html.escape(daily.why_not or "")}</p>')
            continue
        query = "&".join(filter(None, [daily.query, day and f"date={day}"]))
        query = html.escape(f"?{query}" if query else "")
        if puzzle_type.render is None:  # no picture and no play page: the record is what there is
            cards.append(f'<li><a href="/daily/{name}{query}">{html.escape(level)} (JSON)</a></li>')
            continue
        cards.append(
            f'<li><a href="/play/daily/{name}{query}">'
            f'<img src="/daily/{name}.svg{query}" alt="{html.escape(level)} {title} puzzle" loading="lazy" data-daily>'
            f'<span class="level">{html.escape(level)}</span></a></li>'
        )
    return (f'<section class="type" id="{name}" aria-labelledby="{name}-title">\n'
            f'<h2 id="{name}-title">{html.escape(title)}</h2>\n'
            f'<p class="rules">{html.escape(puzzle_type.summary)}</p>\n'
            f'<ul class="dailies">\n{chr(10).join(cards)}\n</ul>\n{chr(10).join(notes)}\n</section>')


class FrontQuery(StrictQuery):
    date: dt.date | None = Field(None, description="Another day's puzzles (UTC), as `GET /daily/{type}` takes it; "
                                                "today when omitted.")


@router.get("/", summary="The front page: the day's puzzles of every type and level", response_class=HTMLResponse,
            responses={200: {"content": {"text/html": {"schema": {"type": "string"}}}, "description": "The page."}})
async def front_page(query: Annotated[FrontQuery, Query()], request: Request) -> HTMLResponse:
    day = daily_date(query.date)
    host = request.headers.get("host")
    if CURL is None:
        curl = "The README's examples are not installed with this copy of the service; /docs lists every route."
    else:  # the examples as this server is reached, ready to paste
        curl = CURL.replace(README_HOST, host) if host else CURL
    page = PAGE.substitute(
        heading="Today's puzzles" if query.date is None else f"Puzzles of {day.day} {day:%B %Y}",
        day=long_date(day),
        types="\n".join(type_section(t, query.date) for t in TYPES.values()),
        curl=html.escape(curl),
        version=VERSION,
    )
    # Today's page moves on at midnight UTC, and it is cheap to draw: no cache keeps it.
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})
