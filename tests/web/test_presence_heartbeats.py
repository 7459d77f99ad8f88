"""A socket's ping keeps its player "here" (no email about an open game): the pings of a
process's sockets are written to the cache together, not one thread hop each."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.core.cache import cache

from games.live import presence
from tests.web.test_game_websocket import (  # noqa: F401 (_own_channel_prefix: a fixture)
    _connect,
    _own_channel_prefix,
    _started,
    _token,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def _open_and_forget(game, players):
    """Each user's socket, connected (its view read), with the connect's touch removed."""
    sockets = []
    for user in players:
        ws = _connect(game.pk, await database_sync_to_async(_token)(user))
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=5))["type"] == "view"
        sockets.append(ws)
    await database_sync_to_async(cache.delete_many)(
        [presence._key(u.pk, game.pk) for u in players])
    return sockets


async def _ping(ws):
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "pong"


def _here(players, game):
    return [presence.presence_here(u.pk, game.pk) for u in players]


def test_the_pings_of_many_sockets_are_written_together_in_one_cache_write(players, monkeypatch):
    writes = []
    real_set_many = cache.set_many
    monkeypatch.setattr(cache, "set_many", lambda data, *a, **k: (
        writes.append(sorted(data)), real_set_many(data, *a, **k))[1])
    monkeypatch.setattr(presence, "HEARTBEAT_FLUSH_SECONDS", 3600)  # flushed by hand below

    async def scenario():
        game = await database_sync_to_async(_started)(players)
        sockets = await _open_and_forget(game, players)
        writes.clear()
        for ws in sockets:
            await _ping(ws)
        # answered at once, written later
        assert await database_sync_to_async(_here)(players, game) == [False] * 3
        await presence.heartbeats.flush()
        assert writes == [sorted(presence._key(u.pk, game.pk) for u in players)]
        assert await database_sync_to_async(_here)(players, game) == [True] * 3
        for ws in sockets:
            await ws.disconnect()

    async_to_sync(scenario)()


def test_a_ping_is_written_by_itself_a_few_seconds_later(players, monkeypatch):
    monkeypatch.setattr(presence, "HEARTBEAT_FLUSH_SECONDS", 0.05)

    async def scenario():
        game = await database_sync_to_async(_started)(players)
        [ws, *others] = await _open_and_forget(game, players)
        await _ping(ws)
        for _ in range(600):  # a guard against a hang, not a bound on speed
            if (await database_sync_to_async(_here)(players, game))[0]:
                break
            await asyncio.sleep(0.05)
        assert await database_sync_to_async(_here)(players, game) == [True, False, False]
        for socket in [ws, *others]:
            await socket.disconnect()

    async_to_sync(scenario)()


def test_closing_the_socket_drops_its_unwritten_ping_and_its_presence(players, monkeypatch):
    monkeypatch.setattr(presence, "HEARTBEAT_FLUSH_SECONDS", 3600)

    async def scenario():
        game = await database_sync_to_async(_started)(players)
        sockets = await _open_and_forget(game, players)
        for ws in sockets:
            await _ping(ws)
        await sockets[0].disconnect()
        await presence.heartbeats.flush()
        assert await database_sync_to_async(_here)(players, game) == [False, True, True]
        for ws in sockets[1:]:
            await ws.disconnect()

    async_to_sync(scenario)()
