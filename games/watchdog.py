"""The watchdog's view of the rows: games that wait on a bot that does not move.

The queue is only a hint: a bot turn lost with a worker (SIGKILL) or with the broker
(Redis restarted empty) leaves the game waiting on a bot seat with no task to play it.
The rows say so, and queueing the turn again is safe: the task names the game's `seq`.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from .models import Game

LIMIT = 200  # games looked at per sweep, longest waiting first


@dataclass(frozen=True)
class BotWait:
    game_id: int
    seq: int
    since: datetime  # the last move, or the start


def stall_seconds() -> float:
    """How long a bot may take (pause, thinking, a busy queue) before its turn counts as
    lost: one watchdog interval past the longest a healthy turn takes."""
    return (settings.BOT_PAUSE_SECONDS + settings.BLAZE_BOT_BUDGET_MS / 1000
            + settings.BLAZE_WATCHDOG_SECONDS)


def games_waiting_on_bots(*, older_than: datetime | None = None, limit: int = LIMIT) -> list:
    """Playing games whose turn is a bot seat's, longest waiting first ([BotWait]).

    One range of the partial index on Game.bot_turn_since: games waiting on people are
    not in it, however many there are.
    """
    games = Game.objects.filter(status=Game.PLAYING, bot_turn_since__isnull=False)
    if older_than is not None:
        games = games.filter(bot_turn_since__lt=older_than)
    rows = games.order_by("bot_turn_since", "pk").values_list("pk", "seq", "bot_turn_since")
    return [BotWait(game_id, seq, since) for game_id, seq, since in rows[:limit]]


def stalled_bot_games(now: datetime | None = None, limit: int = LIMIT) -> list:
    """Games waiting on a bot for longer than a healthy turn takes."""
    now = now or timezone.now()
    return games_waiting_on_bots(older_than=now - timedelta(seconds=stall_seconds()),
                                 limit=limit)


def bot_turns_requeue(now: datetime | None = None) -> int:
    """Queue the bot turn of every stalled game again; returns how many were queued.

    A game's turn is queued at most once per stall interval (a note in the cache), so a
    slow queue is not flooded; a duplicate that gets through does nothing (same `seq`).
    """
    from .services import bot_turn_queue

    queued = 0
    for wait in stalled_bot_games(now):
        if cache.add(f"watchdog:bot:{wait.game_id}:{wait.seq}", 1, timeout=stall_seconds()):
            bot_turn_queue(game_id=wait.game_id, seq=wait.seq)
            queued += 1
    return queued
