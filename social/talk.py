"""Table talk: phrases and free text at a game, each reader's copy in their language.

`chat_post` is the one write; after commit the message goes to the game's sockets as
one frame text for each kind of reader (games.live.broadcast.deliver_send): players and
spectators apart while the game is on, never to whoever blocked or muted the sender,
free text only to those who read it.
"""

from datetime import timedelta

import orjson
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.language import language_of
from games.live import broadcast
from games.live.presence import presence_here_pairs
from games.models import Game, Seat
from games.visibility import can_watch

from . import readers
from .models import ChatMessage, TableTalk, TalkSettings
from .phrases import LANGUAGES, MAX_TEXT, PHRASES, phrase_in, text_clean
from .refusals import Forbidden, NotFound, SocialError, TooMany

MEMBER, GUEST = "member", "guest"  # games.live.messages. reader classes: free text, phrases only
HISTORY_LIMIT = 200
HIDE_AFTER_REPORTS = 2  # a message reported by this many players waits for staff


def _rate() -> tuple[int, int]:
    count, seconds = settings.SOCIAL_CHAT_RATE
    return count, seconds


def _game_for(game_id: int, user, invite: str = "") -> tuple[Game, list[Seat]]:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_watch(game, user, invite=invite):
        raise NotFound(_("no such game"))
    return game, list(game.seats.select_related("user"))


def channel_for(game: Game, seated: bool) -> str:
    """Where talk goes: players and spectators apart until the game is over."""
    if game.status in (Game.WAITING, Game.PLAYING):
        return ChatMessage.PLAYERS if seated else ChatMessage.SPECTATORS
    return ChatMessage.ALL


def chat_post(*, game_id: int, user, phrase=None, text=None, invite: str = "") -> ChatMessage:
    """Say a phrase (a key of PHRASES) or a free text at a game the user may watch."""
    if (phrase is None) == (text is None):
        raise SocialError(_('send either "phrase" (a key of GET /api/v1/chat/phrases) or '
                            '"text"'))
    if phrase is not None and phrase not in PHRASES:
        raise SocialError(_("unknown phrase %(key)r: GET /api/v1/chat/phrases lists them")
                          % {"key": str(phrase)[:40]})
    if text is not None:
        if not isinstance(text, str):
            raise SocialError(_("text must be a string"))
        text = text_clean(text)
        if not text:
            raise SocialError(_("text is empty"))
        if len(text) > MAX_TEXT:
            raise SocialError(_("text may be at most %(n)d characters") % {"n": MAX_TEXT})
    game, seats = _game_for(game_id, user, invite)
    seat = next((s for s in seats if s.user_id == user.pk), None)
    until = readers.muted_until(user)
    if until is not None:
        raise Forbidden(_("staff muted you until %(when)s") % {
            "when": date_format(until, "DATETIME_FORMAT")})
    channel = channel_for(game, seat is not None)
    with transaction.atomic():
        TableTalk.objects.get_or_create(game=game)
        talk = TableTalk.objects.select_for_update().get(game=game)
        if text is not None:
            if not readers.free_text_on(user):
                raise Forbidden(_("you turned free text off: turn it on, or send a phrase"))
            if talk.free_text_off and channel == ChatMessage.PLAYERS:
                raise Forbidden(_("the players of this table turned free text off: send a "
                                  "phrase"))
        _rate_check(game, user)
        talk.last_seq += 1
        talk.save(update_fields=["last_seq"])
        message = ChatMessage.objects.create(
            game=game, seq=talk.last_seq, sender=user, channel=channel,
            seat=None if seat is None else seat.index, phrase=phrase or "", text=text or "")
        transaction.on_commit(lambda: chat_deliver(message, seats), robust=True)
    return message


def _rate_check(game: Game, user) -> None:
    """At most SOCIAL_CHAT_RATE messages of a user at a table in a window. Holding the
    table's talk row lock, so two at once count one after the other."""
    count, seconds = _rate()
    since = timezone.now() - timedelta(seconds=seconds)
    recent = ChatMessage.objects.filter(game=game, sender=user, created__gte=since)
    if recent.count() >= count:
        raise TooMany(_("at most %(count)d messages in %(seconds)d seconds at a table: wait a "
                        "moment") % {"count": count, "seconds": seconds})


def table_free_text(*, game_id: int, user, on: bool) -> TableTalk:
    """A player turns free text off (or back on) for the players of the whole table."""
    game, seats = _game_for(game_id, user)
    if not any(s.user_id == user.pk for s in seats):
        raise Forbidden(_("only the players of this table can change its talk"))
    with transaction.atomic():
        talk, _created = TableTalk.objects.get_or_create(game=game)
        TableTalk.objects.filter(pk=talk.pk).update(free_text_off=not on)
    talk.free_text_off = not on
    return talk


def free_text_set(*, user, on: bool) -> TalkSettings:
    """The user's own choice: read and write free text, or phrases only."""
    row, _created = TalkSettings.objects.update_or_create(user=user, defaults={"free_text": on})
    return row


# ---- what each reader gets -----------------------------------------------------------------


def message_for(message: ChatMessage, name: str, language: str) -> dict:
    """The socket's and the history's {"type": "chat", ...} for a reader of `language`."""
    return {
        "type": "chat", "seq": message.seq, "from": name, "seat": message.seat,
        "phrase": message.phrase or None,
        "text": phrase_in(message.phrase, language) if message.phrase else message.text,
    }


def _reader_class(user, row) -> str:
    return MEMBER if readers.free_text_on(user, row) else GUEST


def chat_deliver(message: ChatMessage, seats: list[Seat]) -> None:
    """After commit: one frame text for each kind of reader, and the readers that differ
    from their socket's default (a few queries, whatever the number of sockets)."""
    name = message.sender.username
    texts: dict[str, str] = {}
    for language in LANGUAGES:
        frame = orjson.dumps(message_for(message, name, language)).decode()
        texts[f"{MEMBER}:{language}"] = frame
        if message.phrase:
            texts[f"{GUEST}:{language}"] = frame
    users: dict[int, str | None] = {}
    seated = [s.user for s in seats if s.user_id is not None]
    rows = {r.user_id: r for r in TalkSettings.objects.filter(user__in=seated)}
    if message.channel == ChatMessage.PLAYERS:
        users.update({u.pk: _reader_class(u, rows.get(u.pk)) for u in seated})
    else:
        if message.channel == ChatMessage.SPECTATORS:
            users.update({u.pk: None for u in seated})
        else:
            users.update({u.pk: _reader_class(u, rows.get(u.pk)) for u in seated})
        if not message.phrase:
            # spectators whose choice differs from their kind's default, if here now
            pairs = [(u, message.game_id) for u in readers.free_text_exceptions() - set(users)]
            here = {u for u, _game in presence_here_pairs(pairs)}
            guests = _guests(here)
            users.update({u: MEMBER if u in guests else GUEST for u in here})
    users.update({user_id: None for user_id in readers.not_hearing(message.sender_id,
                                                                   message.game_id)})
    broadcast.deliver_send(message.game_id, texts, users,
                           only_users=message.channel == ChatMessage.PLAYERS)


def _guests(user_ids) -> set[int]:
    if not user_ids:
        return set()
    return set(get_user_model().objects.filter(pk__in=user_ids, is_guest=True)
               .values_list("pk", flat=True))


def chat_history(*, game_id: int, user, invite: str = "", language: str | None = None
                 ) -> list[dict]:
    """The talk this user may read at this game, oldest first, in their language."""
    game, seats = _game_for(game_id, user, invite)
    seated = user.is_authenticated and any(s.user_id == user.pk for s in seats)
    channels = [ChatMessage.ALL, ChatMessage.PLAYERS if seated else ChatMessage.SPECTATORS]
    if not seated and game.status not in (Game.WAITING, Game.PLAYING):
        channels.append(ChatMessage.SPECTATORS)
    found = ChatMessage.objects.filter(game=game, channel__in=channels, hidden=False)
    if user.is_authenticated:
        found = found.exclude(sender_id__in=readers.unheard_by(user.pk, game.pk))
        free_text = readers.free_text_on(user)
    else:
        free_text = False
    if not free_text:
        found = found.exclude(phrase="")
    if language is None:
        language = language_of(user) if getattr(user, "language", "") \
            else translation.get_language()
    latest = list(found.select_related("sender").order_by("-seq")[:HISTORY_LIMIT])
    return [message_for(m, m.sender.username, language) for m in reversed(latest)]
