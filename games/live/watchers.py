"""Whether anyone without a seat watches a game: the mark a move reads.

A move builds the spectators' views (one a language) only while the game's
`watched_until` lies ahead; a spectator's socket sets it on connect and moves it on,
at most once every few minutes a game and process, as its pings come in. A socket that
finds no spectators' view in a change (a move locked just before the mark) reads its
own view (consumers.GameConsumer.game_views): the mark saves work, it never hides a move.
"""

import time
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from ..models import Game

#: how long one mark lasts, and how long before its end a spectator's ping renews it
WATCH_SECONDS = 300
RENEW_SECONDS = 150

_known: dict[int, float] = {}  # game id -> (this process knows) marked until, time.time()


def watched(game: Game) -> bool:
    """Whether a change of `game` (as read under its lock) needs the spectators' views."""
    return game.watched_until is not None and game.watched_until > timezone.now()


def watch_due(game_id: int) -> bool:
    """Whether a spectator's socket should renew the game's mark (no query)."""
    return _known.get(game_id, 0.0) < time.time() + RENEW_SECONDS


def watch_missed(game_id: int) -> None:
    """A change came without the spectators' views: the mark this process knows of may be
    gone (a row written whole from an older read), so the next check writes it again."""
    _known.pop(game_id, None)


def game_watch_mark(*, game_id: int) -> None:
    """Mark the game watched for WATCH_SECONDS from now, unless a mark lasts long enough
    already (a few spectators or processes: one write every few minutes, not one each)."""
    now = timezone.now()
    soon = now + timedelta(seconds=RENEW_SECONDS)
    until = now + timedelta(seconds=WATCH_SECONDS)
    due = Game.objects.filter(Q(watched_until__isnull=True) | Q(watched_until__lt=soon),
                              pk=game_id)
    if due.update(watched_until=until):
        _known[game_id] = until.timestamp()
    else:  # marked long enough by another socket or process (or no such game)
        current = Game.objects.filter(pk=game_id).values_list("watched_until", flat=True)
        marked = current.first()
        _known[game_id] = marked.timestamp() if marked else until.timestamp()
    if len(_known) > 10_000:  # forget games whose marks ended
        for gone in [g for g, t in _known.items() if t < time.time()]:
            del _known[gone]
