"""The social part of the JSON API (docs/chat.md): parse, call a service, reply."""

from typing import Any

from django.http import HttpRequest
from django.utils.translation import get_language
from ninja import Field, Query, Router, Schema, Status
from pydantic import StrictBool

from accounts.language import language_of
from games.api import INVITE_QUERY, ErrorOut, JsonInt, StrictIn, invite_header, invite_of, no_fields

from . import challenges, relations, reports, talk
from .models import Challenge
from .phrases import MAX_TEXT, phrases_in
from .selectors import friends_of

router = Router(tags=["social"])
TOO_MANY = {429: ErrorOut}


class PhraseOut(Schema):
    key: str
    text: str = Field(..., description="in the request's language (Accept-Language)")


class ChatIn(StrictIn):
    phrase: str | None = Field(None, description="a key of GET /api/v1/chat/phrases")
    text: str | None = Field(None, description=f"free text, at most {MAX_TEXT} characters once "
                                        "control and bidi-override characters are removed")


class ChatOut(Schema):
    type: str = "chat"
    seq: int = Field(..., description="the message's number at this game (1, 2, …)")
    from_: str = Field(..., alias="from", description="the sender's name")
    seat: int | None = Field(..., description="the sender's seat, null for a spectator")
    phrase: str | None = Field(..., description="the phrase's key, null for free text")
    text: str = Field(..., description="the phrase in the reader's language, or the free "
                                       "text as written (plain text: never markup)")


class ChatHistoryOut(Schema):
    messages: list[ChatOut]


class FreeTextIn(StrictIn):
    free_text: StrictBool


class TalkSettingsOut(Schema):
    free_text: bool


class MuteIn(StrictIn):
    muted: StrictBool = True


class ReportIn(StrictIn):
    reason: str = Field(..., min_length=1, max_length=500,
                        description="why, for staff (at most 500 characters)")
    username: str | None = Field(None, description="the player reported")
    game: JsonInt | None = Field(None, description="with seq: the message reported")
    seq: JsonInt | None = None


class ReportOut(Schema):
    id: int


class FriendOut(Schema):
    name: str
    online: bool = Field(..., description="has a game of theirs open right now")
    playing: list[int] = Field(..., description="their games being played now, that you "
                                                "may watch")


class FriendsOut(Schema):
    friends: list[FriendOut]


class ChallengeIn(StrictIn):
    invite: list[str] = Field(..., min_length=1, max_length=4,
                              description="usernames of the players invited")
    players: JsonInt = Field(..., ge=3, le=5)
    bots: list[str] = Field(default_factory=list, description="bot levels for the other "
                                                             "seats: random, basic, strong")
    rated: StrictBool = False
    private: StrictBool = True
    time_control: dict[str, Any] | None = None


class InvitedOut(Schema):
    name: str
    answer: str = Field(..., description="pending, accepted or declined")


class ChallengeOut(Schema):
    id: int
    from_: str = Field(..., alias="from")
    players: int
    bots: list[str]
    rated: bool
    private: bool
    time_control: dict[str, Any] | None
    status: str = Field(..., description="open, started, declined, expired or cancelled")
    expires: str
    invited: list[InvitedOut]
    game: int | None = Field(..., description="the table, once started")


class ChallengeListOut(Schema):
    challenges: list[ChallengeOut]


@router.get("/chat/phrases", response=list[PhraseOut], summary="The phrasebook")
def chat_phrases(request: HttpRequest):
    return phrases_in(get_language())


def _reader_language(request) -> str:
    return language_of(request.auth) if request.auth.language else get_language()


@router.post("/games/{int:game_id}/chat",
             response={201: ChatOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut, **TOO_MANY},
             by_alias=True, summary="Say a phrase or a free text at a table")
def chat_post(request: HttpRequest, game_id: int, data: ChatIn,
              invite: str = Query("", description=INVITE_QUERY),
              blaze_invite: str = invite_header()):
    message = talk.chat_post(game_id=game_id, user=request.auth, phrase=data.phrase,
                             text=data.text, invite=invite_of(blaze_invite, invite))
    return Status(201, talk.message_for(message, request.auth.username,
                                        _reader_language(request)))


@router.get("/games/{int:game_id}/chat", response={200: ChatHistoryOut, 404: ErrorOut},
            by_alias=True, summary="The talk at a table that you may read, oldest first")
def chat_history(request: HttpRequest, game_id: int,
                 invite: str = Query("", description=INVITE_QUERY),
                 blaze_invite: str = invite_header()):
    return {"messages": talk.chat_history(game_id=game_id, user=request.auth,
                                          invite=invite_of(blaze_invite, invite),
                                          language=_reader_language(request))}


@router.post("/games/{int:game_id}/chat/free-text",
             response={200: TalkSettingsOut, 403: ErrorOut, 404: ErrorOut},
             summary="A player turns free text off (or on) for the players of the table")
def chat_table_free_text(request: HttpRequest, game_id: int, data: FreeTextIn):
    found = talk.table_free_text(game_id=game_id, user=request.auth, on=data.free_text)
    return {"free_text": not found.free_text_off}


@router.post("/games/{int:game_id}/mutes/{username}",
             response={200: dict[str, bool], 400: ErrorOut, 404: ErrorOut},
             summary="Stop (or start again) hearing one player at this table")
def chat_mute(request: HttpRequest, game_id: int, username: str, data: MuteIn):
    relations.table_mute(user=request.auth, game_id=game_id, username=username,
                         muted=data.muted)
    return {"muted": data.muted}


@router.put("/chat/settings", response={200: TalkSettingsOut, 400: ErrorOut},
            summary="Read and write free text, or phrases only (your own choice)")
def chat_settings(request: HttpRequest, data: FreeTextIn):
    talk.free_text_set(user=request.auth, on=data.free_text)
    return {"free_text": data.free_text}


@router.post("/blocks/{username}", response={204: None, 400: ErrorOut, 404: ErrorOut},
             summary="Block a player")
def block_add(request: HttpRequest, username: str):
    no_fields(request)
    relations.block_add(user=request.auth, username=username)
    return Status(204, None)


@router.delete("/blocks/{username}", response={204: None, 404: ErrorOut},
               summary="Unblock a player")
def block_remove(request: HttpRequest, username: str):
    no_fields(request)
    relations.block_remove(user=request.auth, username=username)
    return Status(204, None)


@router.post("/friends/{username}",
             response={204: None, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
             summary="Follow a player (count them among your friends)")
def follow_add(request: HttpRequest, username: str):
    no_fields(request)
    relations.follow_add(user=request.auth, username=username)
    return Status(204, None)


@router.delete("/friends/{username}", response={204: None, 404: ErrorOut},
               summary="Stop following a player")
def follow_remove(request: HttpRequest, username: str):
    no_fields(request)
    relations.follow_remove(user=request.auth, username=username)
    return Status(204, None)


@router.get("/friends", response=FriendsOut, summary="The players you follow, who is online")
def friends(request: HttpRequest):
    return {"friends": friends_of(request.auth)}


@router.post("/reports", response={201: ReportOut, 400: ErrorOut, 404: ErrorOut},
             summary="Report a player or a message to staff")
def report_create(request: HttpRequest, data: ReportIn):
    report = reports.report_create(user=request.auth, reason=data.reason,
                                   username=data.username, game_id=data.game, seq=data.seq)
    return Status(201, {"id": report.pk})


@router.post("/challenges", response={201: ChallengeOut, 400: ErrorOut, 403: ErrorOut,
                                      404: ErrorOut},
             by_alias=True, summary="Invite named players (and bots) to a new table")
def challenge_create(request: HttpRequest, data: ChallengeIn):
    challenge = challenges.challenge_create(
        sender=request.auth, usernames=data.invite, players=data.players, bots=data.bots,
        rated=data.rated, private=data.private, time_control=data.time_control)
    return Status(201, challenges.challenge_summary(challenge))


@router.get("/challenges", response=ChallengeListOut, by_alias=True,
            summary="Open invitations you sent or received")
def challenge_list(request: HttpRequest):
    return {"challenges": [challenges.challenge_summary(c)
                           for c in challenges.challenges_of(request.auth)]}


def _answer(request, challenge_id: int, accept: bool):
    challenge = challenges.challenge_answer(user=request.auth, challenge_id=challenge_id,
                                            accept=accept)
    challenge = Challenge.objects.select_related("sender").get(pk=challenge.pk)
    return challenges.challenge_summary(challenge)


@router.post("/challenges/{int:challenge_id}/accept",
             response={200: ChallengeOut, 403: ErrorOut, 404: ErrorOut}, by_alias=True,
             summary="Accept an invitation (the table starts when everyone has)")
def challenge_accept(request: HttpRequest, challenge_id: int):
    no_fields(request)
    return _answer(request, challenge_id, True)


@router.post("/challenges/{int:challenge_id}/decline",
             response={200: ChallengeOut, 403: ErrorOut, 404: ErrorOut}, by_alias=True,
             summary="Decline an invitation")
def challenge_decline(request: HttpRequest, challenge_id: int):
    no_fields(request)
    return _answer(request, challenge_id, False)


@router.delete("/challenges/{int:challenge_id}",
               response={204: None, 403: ErrorOut, 404: ErrorOut},
               summary="Withdraw an invitation you sent")
def challenge_cancel(request: HttpRequest, challenge_id: int):
    no_fields(request)
    challenges.challenge_cancel(user=request.auth, challenge_id=challenge_id)
    return Status(204, None)
