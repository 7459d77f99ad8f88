"""Who has a game open right now: a short-lived key in the Django cache.

The game's WebSocket consumer touches it on connect and on each of the client's pings (every
25 s); emails about a game are not sent to a player who has it open. With several
processes the cache must be shared (CACHE_URL=redis://…).

A ping's touch waits in this process's `heartbeats` and is written with the others a few
seconds later, in one cache write: Django's cache has no async API, so each touch on its
own was a hop to a thread and back (at 4,000 sockets, about one a move; measured in
docs/history/live-play.md).
"""

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.core.cache import cache

PRESENCE_TTL = 60  # seconds a touch counts
HEARTBEAT_FLUSH_SECONDS = 5  # a ping's touch is written at most this late (<< the TTL)

log = logging.getLogger(__name__)


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def presence_touch(user_id: int, game_id: int) -> None:
    cache.set(_key(user_id, game_id), 1, PRESENCE_TTL)


def presence_leave(user_id: int, game_id: int) -> None:
    cache.delete(_key(user_id, game_id))


def presence_here(user_id: int, game_id: int) -> bool:
    return cache.get(_key(user_id, game_id)) is not None


async def apresence_touch(user_id: int, game_id: int) -> None:
    """For async consumers."""
    await cache.aset(_key(user_id, game_id), 1, PRESENCE_TTL)


async def apresence_leave(user_id: int, game_id: int) -> None:
    heartbeats.pending.discard(_key(user_id, game_id))
    await cache.adelete(_key(user_id, game_id))


class Heartbeats:
    """The touches of this process's sockets not yet written, and the task that writes them
    together every HEARTBEAT_FLUSH_SECONDS (started on the first, on the server's loop)."""

    def __init__(self):
        self.pending: set[str] = set()
        self.task: asyncio.Task | None = None

    def touch(self, user_id: int, game_id: int) -> None:
        self.pending.add(_key(user_id, game_id))
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    async def _run(self) -> None:
        while self.pending:
            await asyncio.sleep(HEARTBEAT_FLUSH_SECONDS)
            await self.flush()

    async def flush(self) -> None:
        keys, self.pending = self.pending, set()
        if keys:
            await sync_to_async(_write, thread_sensitive=False)(keys)


def _write(keys: set[str]) -> None:
    try:
        cache.set_many(dict.fromkeys(keys, 1), PRESENCE_TTL)
    except Exception:  # a cache outage: the next pings touch again
        log.warning("presence: %d heartbeats not written (cache unavailable)", len(keys))


heartbeats = Heartbeats()


def presence_heartbeat(user_id: int, game_id: int) -> None:
    """A socket's ping: its touch is written with the others (see Heartbeats)."""
    heartbeats.touch(user_id, game_id)



def presence_here_pairs(pairs) -> set[tuple[int, int]]:
    """Those (user id, game id) pairs whose user has that game open now (one cache round
    trip, whatever the number)."""
    keys = {_key(user_id, game_id): (user_id, game_id) for user_id, game_id in pairs}
    return {keys[k] for k in cache.get_many(list(keys))} if keys else set()
