"""Who has a game open right now: a short-lived key in the Django cache.

The game's WebSocket consumer calls `presence_touch` on connect and on every message (or a
heartbeat); emails about a game are not sent to a player who has it open. With several
processes the cache must be shared (CACHE_URL=redis://…).
"""

from django.core.cache import cache

PRESENCE_TTL = 60  # seconds a touch counts


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
    await cache.adelete(_key(user_id, game_id))



def presence_here_pairs(pairs) -> set[tuple[int, int]]:
    """Those (user id, game id) pairs whose user has that game open now (one cache round
    trip, whatever the number)."""
    keys = {_key(user_id, game_id): (user_id, game_id) for user_id, game_id in pairs}
    return {keys[k] for k in cache.get_many(list(keys))} if keys else set()
