"""The games part of the JSON API (spec/API.md): parse, call a service or selector, reply."""

from typing import Annotated, Any, Literal

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import Field, Header, Query, Router, Schema, Status
from pydantic import BaseModel, BeforeValidator, ConfigDict, StrictBool, StrictInt

from . import services
from .api_body import declared_length, read_body, sends_json
from .errors import Refused
from .models import Game
from .reviews import review_payload
from .selectors import (
    GameAndSeats,
    game_and_seats,
    game_list_for_user,
    game_list_open,
    game_log,
    game_record,
    game_replay,
    game_summary,
    game_view_for,
)
from .visibility import can_watch, invite_given

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
    abandoned: bool = Field(False, description="the player left (resigned or timed out "
                            "three times in a row): a bot plays the seat, the player ranks last")
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
    final_ranking: list[int] | None = Field(
        None, description="seats best first as the site counts them: the ranking, with "
        "players who left the game last (ratings and tournaments use this)")
    options: dict[str, Any] | None = Field(None, description="only when the game waits on you")
    rematch: int | None = Field(
        None, description="a finished game's next game at the same table, once someone "
        "asked to play again (POST /games/{id}/again on the site)")


def _whole_number(value):
    """JSON has one number type: 3.0 is the integer 3 (JSON Schema agrees); true is not."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


# An integer as JSON Schema means it: 3 or 3.0, never "3" or true.
JsonInt = Annotated[StrictInt, BeforeValidator(_whole_number)]
BotLevel = Literal["random", "basic", "strong"]


class StrictIn(Schema):
    """A request body: unknown fields are refused, naming the field (a typo such as
    "privat" must not silently make a public table)."""

    model_config = ConfigDict(extra="forbid")


class GameCreateIn(StrictIn):
    players: JsonInt = Field(..., ge=3, le=5)
    bots: list[BotLevel] = Field(default_factory=list, max_length=4,
                                 description="bot levels for the seats after yours, at most "
                                             "players - 1 (400 otherwise)")
    rated: StrictBool = False
    private: StrictBool = False
    time_control: dict[str, Any] | None = Field(
        None, description='{"kind": "live", "minutes": 10} or {"kind": "correspondence", '
                          '"days": 3} (docs/operations.md, time controls; 400 for other values)'
    )


class MoveIn(StrictIn):
    seq: JsonInt = Field(..., description="the game's seq you saw")
    move: dict[str, Any] = Field(..., description="a RECORD.md move object without seat; "
                                                  "400 when it is not legal now")


class BotIn(StrictIn):
    level: BotLevel = "basic"


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
    total_moves: int = Field(..., description="moves in the whole game")
    start: int = Field(..., description="the ply of this page's first view")
    next: int | None = Field(..., description="start of the next page, null on the last")
    moves: list[dict[str, Any]] = Field(..., description="the moves numbered start, start+1, …")
    log: list[LogLine] = Field(
        ..., description="the moves of this page in words, as on the table")
    views: list[dict[str, Any]] = Field(
        ..., description="spectator views after plies start, start+1, … (0 = the deal), "
                         "with hands; move k leads from view k to view k+1"
    )


INVITE_QUERY = ("the invite code of a private table (older form: prefer the Blaze-Invite "
                "header, which stays out of access logs)")
INVITE_HEADER = ("the invite code of a private table; the page's session remembers one "
                 "opened in the browser")


def invite_header():
    """The Blaze-Invite request header, in an endpoint's signature (so the schema has it)."""
    return Header("", alias="Blaze-Invite", description=INVITE_HEADER)


def invite_of(header: str, query: str) -> str:
    return header or query


class ReplayPage(Schema):
    model_config = ConfigDict(extra="forbid")

    start: int = Field(0, ge=0, description="the first ply of the page")
    limit: int = Field(500, ge=1, le=500, description="plies a page (at most 500)")
    invite: str = Field("", description=INVITE_QUERY)


TOO_MANY = {429: ErrorOut}

# The shape of a blaze-record/1 (RECORD.md); its deals and moves must also be legal (400).
RECORD_SCHEMA = {
    "type": "object",
    "description": "a blaze-record/1 (RECORD.md): 400 when its deals or moves are not legal",
    "required": ["format", "players", "rounds"],
    "properties": {
        "format": {"const": "blaze-record/1"},
        "players": {"type": "array", "minItems": 3, "maxItems": 5, "items": {"type": "string"}},
        "rounds": {"type": "array", "minItems": 1, "maxItems": 2, "items": {
            "type": "object", "required": ["hands", "deck", "moves"],
            "properties": {
                "hands": {"type": "array", "items": {"type": "array",
                                                     "items": {"type": "string"}}},
                "deck": {"type": "array", "items": {"type": "string"}},
                "start": {"type": "integer"},
                "moves": {"type": "array", "items": {"type": "object"}},
            },
        }},
        "meta": {"type": "object"},
    },
}


def _watched(request: HttpRequest, game_id: int, invite: str = "") -> GameAndSeats:
    """The game and its seats if this user may watch it (games.visibility); else 404, as
    if missing. One statement (games.selectors.game_and_seats): clients read a game after
    every missed view."""
    found = game_and_seats(game_id)
    invite = invite_given(getattr(request, "session", None), game_id, invite)
    if found is None or not can_watch(found[0], request.auth, invite=invite):
        raise services.GameNotFound()
    return found


def _game(request: HttpRequest, game_id: int, invite: str = "") -> Game:
    return _watched(request, game_id, invite)[0]


def _finished_game(request: HttpRequest, game_id: int, invite: str = "") -> Game:
    game = _game(request, game_id, invite)
    if game.status != Game.FINISHED:
        raise services.Forbidden(_("the record is available once the game is finished"))
    return game


@router.get("", response=GameListOut, summary="Open tables and my games")
def game_list(request: HttpRequest):
    return {
        "open": [game_summary(g, request.auth) for g in game_list_open()],
        "mine": [game_summary(g, request.auth) for g in game_list_for_user(user=request.auth)],
    }


@router.post("", response={201: GameView, 400: ErrorOut, **TOO_MANY},
             exclude_unset=True, summary="Create a table",
             description="429 (with Retry-After) past the hourly rate of new tables, the "
                         "number of tables waiting for players or of strong bots at once.")
def game_create(request: HttpRequest, data: GameCreateIn):
    game = services.game_create(
        creator=request.auth, players=data.players, time_control=data.time_control,
        rated=data.rated, private=data.private, bots=data.bots,
    )
    return Status(201, game_view_for(game, request.auth))


@router.post("/import", response={201: GameView, 400: ErrorOut, 413: ErrorOut, **TOO_MANY},
             exclude_unset=True,
             summary="Import a blaze-record/1 as a finished, replayable analysis copy",
             description="A record is at most 1 MB (413 past that) and as many moves as a "
                         "game on the site; 429 (with Retry-After) past the daily imports.",
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": RECORD_SCHEMA}}}})
def game_import(request: HttpRequest):
    cap = settings.BLAZE_MAX_RECORD_BYTES
    if declared_length(request) > cap or len(request.body) > cap:  # the header first
        return Status(413, {"error": _too_big_sentence()})
    record = read_body(request) if request.body.strip() else None
    if record is None:  # nothing, or null
        raise services.BadRequest(_("the body is not a JSON record"))
    game = services.record_import(user=request.auth, record=record)
    return Status(201, game_view_for(game, request.auth))


@router.get("/{int:game_id}", response={200: GameView, 404: ErrorOut},
             exclude_unset=True, summary="My view")
def game_detail(request: HttpRequest, game_id: int,
                invite: str = Query("", description=INVITE_QUERY),
                blaze_invite: str = invite_header()):
    found = _watched(request, game_id, invite_of(blaze_invite, invite))
    return game_view_for(found[0], request.auth, found[1], log_tail=found.log_tail)


@router.post("/{int:game_id}/join", response={200: GameView, 403: ErrorOut, 404: ErrorOut},
             exclude_unset=True,
             summary="Take a seat (starts the game when full)")
def game_join(request: HttpRequest, game_id: int,
              invite: str = Query("", description=INVITE_QUERY),
              blaze_invite: str = invite_header()):
    no_fields(request)
    game = services.game_join(game_id=game_id, user=request.auth,
                              invite_code=invite_of(blaze_invite, invite))
    return game_view_for(game, request.auth)


@router.post("/{int:game_id}/leave", response={200: GameView, 403: ErrorOut, 404: ErrorOut},
             exclude_unset=True,
             summary="Leave a table before it starts")
def game_leave(request: HttpRequest, game_id: int):
    no_fields(request)
    game = services.game_leave(game_id=game_id, user=request.auth)
    return game_view_for(game, request.auth)


@router.post("/{int:game_id}/bots",
             response={200: GameView, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, **TOO_MANY},
             exclude_unset=True,
             summary="Fill a free seat with a bot (the table's creator)")
def game_add_bot(request: HttpRequest, game_id: int, data: BotIn):
    game = services.game_add_bot(game_id=game_id, user=request.auth, level=data.level)
    return game_view_for(game, request.auth)


@router.post(
    "/{int:game_id}/moves",
    response={200: GameView, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: StaleOut,
              **TOO_MANY},
    exclude_unset=True,
    summary="Make a move",
    description="429 (with Retry-After) only for many moves a second: far more than one "
                "move a turn in every game one plays.",
)
def move_play(request: HttpRequest, game_id: int, data: MoveIn):
    # the view as the sockets get it, already encoded (GameView describes it)
    return HttpResponse(services.move_play_view_json(
        game_id=game_id, user=request.auth, seq=data.seq, move=data.move),
        content_type="application/json")


@router.get("/{int:game_id}/log", response={200: LogOut, 404: ErrorOut},
            summary="Every move so far in words, as the requesting user may see them")
def game_log_get(request: HttpRequest, game_id: int,
                 invite: str = Query("", description=INVITE_QUERY),
                 blaze_invite: str = invite_header()):
    game = _game(request, game_id, invite_of(blaze_invite, invite))
    return {"seq": game.seq, "lines": game_log(game, request.auth)}


@router.post(
    "/{int:game_id}/resign",
    response={200: GameView, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    exclude_unset=True,
    summary="Resign: the built-in bot plays your seat on and you rank last",
    openapi_extra={"requestBody": {"required": False, "content": {"application/json": {
        "schema": {"type": "object", "additionalProperties": False, "maxProperties": 0,
                   "description": "nothing, or {}"}}}}},
)
def game_resign(request: HttpRequest, game_id: int):
    no_fields(request)
    game = services.game_resign(game_id=game_id, user=request.auth)
    return game_view_for(game, request.auth)


def no_fields(request: HttpRequest) -> None:
    """An action that takes no input accepts no body, {} or null, and nothing else (a
    body sent is JSON already: games.api_body)."""
    if sends_json(request) and read_body(request) not in ({}, None):
        raise services.BadRequest(_("this action takes no fields: send {} or nothing"))


@router.get("/{int:game_id}/record",
            response={200: dict[str, Any], 403: ErrorOut, 404: ErrorOut},
            summary="The blaze-record/1 of a finished game")
def game_record_get(request: HttpRequest, game_id: int,
                    invite: str = Query("", description=INVITE_QUERY),
                    blaze_invite: str = invite_header()):
    return game_record(_finished_game(request, game_id, invite_of(blaze_invite, invite)))


@router.get("/{int:game_id}/replay", response={200: ReplayOut, 403: ErrorOut, 404: ErrorOut},
            summary="Spectator views after every ply of a finished game, a page at a time")
def game_replay_get(request: HttpRequest, game_id: int, page: Query[ReplayPage],
                    blaze_invite: str = invite_header()):
    limit = min(page.limit, settings.BLAZE_REPLAY_PAGE_SIZE)
    game = _finished_game(request, game_id, invite_of(blaze_invite, page.invite))
    return game_replay(game, start=page.start, limit=limit)


class ReviewDecisionOut(Schema):
    seq: int = Field(..., description="the move's number in the log (0 = the first move)")
    seat: int
    played: dict[str, Any] = Field(..., description="the move played (RECORD.md)")
    best: dict[str, Any] = Field(..., description="the strong bot's choice (RECORD.md)")
    p_played: float = Field(..., description="estimated chance of ranking first, 0..1, "
                                             "after the move played")
    p_best: float = Field(..., description="the same after the bot's choice")


class ReviewOut(Schema):
    id: int
    iterations: int = Field(..., description="search iterations per decision")
    reviewed: int = Field(..., description="decisions of people looked at (bets are not)")
    margin: float = Field(..., description="how much better (0..1) the page's decisions are")
    decisions: list[ReviewDecisionOut] = Field(
        ..., description="the decisions of the seats you may read where the bot would have "
                         "played otherwise: your own; every seat's in a public game")


@router.get("/{int:game_id}/review", response={200: ReviewOut, 404: ErrorOut},
            summary="The strong bot's review of a finished game (404 until it is made)")
def game_review_get(request: HttpRequest, game_id: int,
                    invite: str = Query("", description=INVITE_QUERY),
                    blaze_invite: str = invite_header()):
    game = _game(request, game_id, invite_of(blaze_invite, invite))
    review = review_payload(game, request.auth)
    if review is None:
        raise services.GameNotFound(_("this game has no review for you (yet)"))
    return review


def _too_big_sentence() -> str:
    return _("a record may be at most %(cap)s bytes") % {
        "cap": f"{settings.BLAZE_MAX_RECORD_BYTES:,}"}


def game_error_response(api, request, exc: Refused):
    """Every refused request, whichever app refused it: {"error": sentence}."""
    body = {"error": exc.message}
    if isinstance(exc, services.StaleSeq):
        body["seq"] = exc.current
    response = api.create_response(request, body, status=exc.status)
    if exc.retry_after is not None:
        response["Retry-After"] = str(exc.retry_after)
    return response
