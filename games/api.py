"""The games part of the JSON API (spec/API.md): parse, call a service or selector, reply."""

import json
from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status
from pydantic import BaseModel, ConfigDict, StrictInt

from . import services
from .models import Game
from .selectors import (
    game_list_for_user,
    game_list_open,
    game_log,
    game_record,
    game_replay,
    game_summary,
    game_view_for,
)

router = Router(tags=["games"])



class ErrorOut(Schema):
    error: str = Field(..., description="a sentence a person can act on")


class StaleOut(Schema):
    error: str
    seq: int = Field(..., description="the game's current seq")


class PlayerOut(BaseModel):
    name: str
    bot: bool
    bot_level: str | None = None
    open: bool = False
    hand_size: int | None
    feathers: list[int]


class GameView(BaseModel):
    """The requesting user's view (spec/API.md "The view"); fields beyond these may appear."""

    model_config = ConfigDict(extra="allow")

    id: int
    seq: int
    status: str = Field(..., description="waiting, playing, finished or aborted")
    you: int | None = Field(..., description="your seat, or null")
    players: list[PlayerOut]
    hand: list[str] | None = Field(None, description="your cards (only when seated)")
    round: int | None
    phase: int | None
    stage: str | None
    waiting_on: list[int]
    trump_card: str | None
    trump: str | None
    deck_size: int | None
    table: list[dict[str, Any]]
    bets: list[dict[str, Any] | None] | None
    scores: list[int] | None
    round_losers: list[int]
    ranking: list[int] | None
    options: dict[str, Any] | None = Field(None, description="only when the game waits on you")


class GameCreateIn(Schema):
    players: StrictInt = Field(..., ge=3, le=5)
    bots: list[str] = Field(default_factory=list, description='levels: "random", "basic", "strong"')
    rated: bool = False
    private: bool = False
    time_control: dict[str, Any] | None = Field(
        None, description='{"kind": "live", "minutes": 10} or {"kind": "correspondence", "days": 3}'
    )


class MoveIn(Schema):
    seq: StrictInt = Field(..., description="the game's seq you saw")
    move: Any = Field(..., description="a RECORD.md move object without seat")


class BotIn(Schema):
    level: str = "basic"


class GameSummaryOut(Schema):
    id: int
    status: str
    seq: int
    seats: int
    players: list[str]
    bots: list[str]
    rated: bool
    private: bool
    time_control: dict[str, Any]
    you: int | None
    your_turn: bool
    created: str


class GameListOut(Schema):
    open: list[GameSummaryOut]
    mine: list[GameSummaryOut]


class LogLine(Schema):
    seq: int = Field(..., description="the move's number (1 = the first move)")
    text: str


class LogOut(Schema):
    seq: int
    lines: list[LogLine]


class ReplayOut(Schema):
    id: int
    players: list[str]
    moves: list[dict[str, Any]]
    log: list[LogLine] = Field(..., description="every move in words, as on the table")
    views: list[dict[str, Any]] = Field(
        ..., description="spectator views after each ply, with hands"
    )


def _game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise services.GameNotFound()
    return game


def _finished_game(game_id: int) -> Game:
    game = _game(game_id)
    if game.status != Game.FINISHED:
        raise services.Forbidden("the record is available once the game is finished")
    return game


@router.get("", response=GameListOut, summary="Open tables and my games")
def game_list(request: HttpRequest):
    return {
        "open": [game_summary(g, request.auth) for g in game_list_open()],
        "mine": [game_summary(g, request.auth) for g in game_list_for_user(user=request.auth)],
    }


@router.post("", response={201: GameView, 400: ErrorOut},
             exclude_unset=True, summary="Create a table")
def game_create(request: HttpRequest, data: GameCreateIn):
    game = services.game_create(
        creator=request.auth, players=data.players, time_control=data.time_control,
        rated=data.rated, private=data.private, bots=data.bots,
    )
    return Status(201, game_view_for(game, request.auth))


@router.post("/import", response={201: GameView, 400: ErrorOut},
             exclude_unset=True,
             summary="Import a blaze-record/1 as a finished, replayable analysis copy",
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": {"type": "object",
                                                 "description": "a blaze-record/1"}}}}})
def game_import(request: HttpRequest):
    try:
        record = json.loads(request.body)
    except (ValueError, RecursionError):
        raise services.BadRequest("the body is not a JSON record") from None
    game = services.record_import(user=request.auth, record=record)
    return Status(201, game_view_for(game, request.auth))


@router.get("/{int:game_id}", response={200: GameView, 404: ErrorOut},
             exclude_unset=True, summary="My view")
def game_detail(request: HttpRequest, game_id: int):
    return game_view_for(_game(game_id), request.auth)


@router.post("/{int:game_id}/join", response={200: GameView, 403: ErrorOut, 404: ErrorOut},
             exclude_unset=True,
             summary="Take a seat (starts the game when full)")
def game_join(request: HttpRequest, game_id: int, invite: str = ""):
    game = services.game_join(game_id=game_id, user=request.auth, invite_code=invite)
    return game_view_for(game, request.auth)


@router.post("/{int:game_id}/leave", response={200: GameView, 403: ErrorOut, 404: ErrorOut},
             exclude_unset=True,
             summary="Leave a table before it starts")
def game_leave(request: HttpRequest, game_id: int):
    game = services.game_leave(game_id=game_id, user=request.auth)
    return game_view_for(game, request.auth)


@router.post("/{int:game_id}/bots",
             response={200: GameView, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
             exclude_unset=True,
             summary="Fill a free seat with a bot (the table's creator)")
def game_add_bot(request: HttpRequest, game_id: int, data: BotIn):
    game = services.game_add_bot(game_id=game_id, user=request.auth, level=data.level)
    return game_view_for(game, request.auth)


@router.post(
    "/{int:game_id}/moves",
    response={200: GameView, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: StaleOut},
             exclude_unset=True,
    summary="Make a move",
)
def move_play(request: HttpRequest, game_id: int, data: MoveIn):
    game = services.move_play(game_id=game_id, user=request.auth, seq=data.seq, move=data.move)
    return game_view_for(game, request.auth)


@router.get("/{int:game_id}/log", response={200: LogOut, 404: ErrorOut},
            summary="Every move so far in words, as the requesting user may see them")
def game_log_get(request: HttpRequest, game_id: int):
    game = _game(game_id)
    return {"seq": game.seq, "lines": game_log(game, request.auth)}


@router.get("/{int:game_id}/record",
            response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
            summary="The blaze-record/1 of a finished game")
def game_record_get(request: HttpRequest, game_id: int):
    return game_record(_finished_game(game_id))


@router.get("/{int:game_id}/replay", response={200: ReplayOut, 403: ErrorOut, 404: ErrorOut},
            summary="Spectator views after every ply of a finished game")
def game_replay_get(request: HttpRequest, game_id: int):
    return game_replay(_finished_game(game_id))


def game_error_response(api, request, exc: services.GameError):
    body = {"error": exc.message}
    if isinstance(exc, services.StaleSeq):
        body["seq"] = exc.current
    return api.create_response(request, body, status=exc.status)
