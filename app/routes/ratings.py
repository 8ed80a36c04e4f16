"""Players' ratings and the next puzzle for a player. A player is only a token (``app/ratings.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.ratings import PlayerToken
from app.routes.puzzles import ERRORS, StoredRecord, record_response, unknown_type
from app.service import ServiceDep
from generators.registry import TYPES

router = APIRouter(tags=["players and ratings"], responses=ERRORS)


class Perf(BaseModel):
    rating: float = Field(description="Glicko-2 rating in this type (1500 for a newcomer).")
    rd: float = Field(description="Rating deviation: how uncertain the rating is (350 for a newcomer).")
    volatility: float = Field(description="Glicko-2 volatility: how erratic the player's results are.")
    games: int = Field(description="Rated games: first checks of puzzles the player fetched.")


class PlayerRatings(BaseModel):
    player: str
    perfs: dict[str, Perf] = Field(description="Every type, by name (named as Lichess names them).")


@router.get("/players/{token}", response_model=PlayerRatings, summary="A player's rating in every type")
async def player_ratings(token: Annotated[PlayerToken, Path()], service: ServiceDep) -> dict[str, Any]:
    """A token nobody has used yet is a newcomer in every type: tokens are pseudonyms, not accounts."""
    return {"player": token, "perfs": await service.perfs(token)}


@router.get("/next/{type_name}", response_model=StoredRecord, summary="The next puzzle for a player",
            responses={404: {"description": "Unknown type, or no stored puzzle of it that the player has not played."}})
async def next_puzzle(type_name: str, player: Annotated[PlayerToken, Query()], service: ServiceDep,
                      request: Request) -> Response:
    """A stored puzzle of the type that the player has not played, rated close to the player's rating in
    that type, and fetched for them: their first check of it is a rated game."""
    puzzle_type = TYPES.get(type_name)
    if puzzle_type is None:
        raise unknown_type(type_name)
    row = await service.next_for(player, puzzle_type)
    if row is None:
        raise HTTPException(404, f"No stored {type_name} puzzle that this player has not played. Puzzles are stored "
                                 f"by POST /generate/{type_name} and `puzzlegen pregenerate --pool N`.")
    return record_response(request, row, shared=False)
