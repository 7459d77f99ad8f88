"""Live updates after a change: every seat's view and the spectators' view, built once.

The writer builds the views from what it holds in memory (the state it just applied,
the seats, the clock rows) and, after commit, sends them all in one message to the
game's group; each socket forwards its own user's view (or the spectators'): no database
work per socket and per move (messages.py lists the groups and events).
"""

import logging
from dataclasses import dataclass, field

from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation
from redis.exceptions import RedisError

from accounts.language import language_of

from .. import events
from ..models import Game, Seat
from ..selectors import game_seats, game_state, view_build
from . import messages, publisher

log = logging.getLogger(__name__)


@dataclass
class GameViews:
    """The views of one committed change: by seated user id (in that user's language),
    and the spectators' one in each of the site's languages."""

    game_id: int
    seq: int
    by_user: dict[int, dict] = field(default_factory=dict)
    languages: dict[int, str] = field(default_factory=dict)  # user id -> by_user's language
    spectators: dict[str, dict] = field(default_factory=dict)
    rebuild: object = None  # (seat index or None, language) -> that view, from memory

    @property
    def spectator(self) -> dict | None:
        return self.spectators.get(settings.LANGUAGE_CODE)

    def for_user(self, user, language: str | None = None) -> dict:
        """The user's view (the spectators' when not seated), in `language` (default:
        the user's own)."""
        language = language or settings.LANGUAGE_CODE
        if user is not None and user.is_authenticated and user.pk in self.by_user:
            if language == self.languages[user.pk]:
                return self.by_user[user.pk]
            return self.rebuild(self.seat_of[user.pk], language)
        return self.spectators.get(language) or self.spectator

    def encoded(self, view: dict) -> str:
        """One of these views as JSON, encoded once for every socket and the answer."""
        key = id(view)
        if key not in self._encoded:
            self._encoded[key] = messages.view_json(view)
        return self._encoded[key]

    def __post_init__(self):
        self._encoded: dict[int, str] = {}
        self.seat_of: dict[int, int] = {}


def views_build(game: Game, seats: list[Seat], state, clocks: dict,
                last_events: list | None = None, spectators: bool = True) -> GameViews:
    """Each seated user's view and (unless not `spectators`: nobody watches) the spectator
    view in each language, from memory (no query); `last_events`: what the move just made
    did (games.narration), for the log lines."""
    views = GameViews(game.pk, game.seq)
    said: dict = {}  # the log's words, made once for the readers who get the same ones
    alike: dict = {}  # what every reader sees alike, made once (per language)
    viewer = {s.index: s.user_id for s in seats}

    def build(you: int | None, language: str) -> dict:
        # whatever words a view carries (log lines, bots' names) are said in its
        # reader's language, not the language of whoever made the move
        with translation.override(language):
            return built(you)

    def built(you: int | None) -> dict:
        return view_build(game, seats, state, you, clocks, viewer_id=viewer.get(you),
                          last_events=last_events, said=said, alike=alike)

    views.rebuild = build
    readers: dict[str, list] = {language: [] for language, _name in settings.LANGUAGES}
    for seat in seats:
        if seat.user_id is not None:
            language = language_of(seat.user)
            views.languages[seat.user_id] = language
            views.seat_of[seat.user_id] = seat.index
            readers.setdefault(language, []).append(seat)
    spectated = dict(settings.LANGUAGES) if spectators else {}
    for language, seated in readers.items():  # one language switch for all its readers
        with translation.override(language):
            for seat in seated:
                views.by_user[seat.user_id] = built(seat.index)
            if language in spectated:
                views.spectators[language] = built(None)
    return views


def views_load(game_id: int) -> GameViews | None:
    """The same, read from the database: for the rare changes other than moves (a seat
    taken or left, a start, an abort)."""
    game = Game.objects.select_related("created_by").filter(pk=game_id).first()
    if game is None:
        return None
    return views_build(game, game_seats(game), game_state(game), events.view_parts(game))


def views_send(views: GameViews) -> None:
    """Deliver after commit: one message to the game's group with every view in it."""
    layer = get_channel_layer()
    if layer is None:
        return
    texts = {user_id: messages.view_text(view, views.encoded(view))
             for user_id, view in views.by_user.items()}
    spectators = {language: messages.view_text(view, views.encoded(view))
                  for language, view in views.spectators.items()}
    try:
        publisher.group_send_now(layer, messages.game_group(views.game_id), messages.game_views(
            views.seq, texts, spectators.get(settings.LANGUAGE_CODE),
            languages=views.languages, spectators=spectators or None))
    except (OSError, RedisError) as exc:  # Redis unreachable (a restart): clients resync
        log.warning("broadcast of game %s seq %s not sent: %s", views.game_id, views.seq, exc)
    except Exception:  # a broken channel layer must not lose the move
        log.exception("broadcast of game %s seq %s failed", views.game_id, views.seq)


def deliver_send(game_id: int, texts: dict[str, str], users: dict[int, str | None],
                 only_users: bool = False) -> None:
    """After commit, from an app above games: one frame text for each kind of reader of
    the game's sockets (messages.game_deliver), sent in one message to the game's group."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        publisher.group_send_now(layer, messages.game_group(game_id),
                                 messages.game_deliver(texts, users, only_users))
    except (OSError, RedisError) as exc:  # Redis unreachable: history has it
        log.warning("delivery to game %s not sent: %s", game_id, exc)
    except Exception:
        log.exception("delivery to game %s failed", game_id)
