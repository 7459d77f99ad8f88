"""A wave of socket connections (a restart brings every client back at once): the reads
that decide a handshake have a thread of their own, and one whose handshake has outlived
the limit (daphne's, or ours under uvicorn) is skipped instead of delaying the next ones."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from blaze_site.asgi import application
from games.live import consumers, ws_threads
from tests.web.test_game_websocket import (  # noqa: F401 (_own_channel_prefix: a fixture)
    _connect,
    _own_channel_prefix,
    _started,
    _token,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_handshake_read_that_comes_too_late_is_skipped(players, monkeypatch, settings):
    async_to_sync(_too_late)(players, monkeypatch, settings)


async def _too_late(players, monkeypatch, settings):
    game = await database_sync_to_async(_started)(players)
    token = await database_sync_to_async(_token)(players[0])
    checked = []
    real = consumers._watchable

    def counted(*args):
        checked.append(args[0])
        return real(*args)

    monkeypatch.setattr(consumers, "_watchable", counted)
    on_time = _connect(game.pk, token)
    assert (await on_time.connect())[0]
    assert (await on_time.receive_json_from(timeout=5))["type"] == "view"
    assert checked == [game.pk]
    await on_time.disconnect()

    settings.WS_HANDSHAKE_SECONDS = -1.0  # every read is late
    late = _connect(game.pk, token)
    assert not (await late.connect())[0]
    assert checked == [game.pk]  # nothing read for the late one


def test_handshake_reads_run_on_their_own_thread_not_the_consumers_one(players):
    async_to_sync(_own_thread)(players)


async def _own_thread(players):
    import threading

    seen = []

    async def where(scope):
        return await ws_threads.handshake_read(
            scope, lambda: seen.append(threading.current_thread().name))

    await where({})
    await database_sync_to_async(lambda: seen.append(threading.current_thread().name))()
    assert seen[0].startswith("ws-handshake") and not seen[1].startswith("ws-handshake")


def test_the_limit_is_daphnes_unless_the_server_waits_for_the_applications_answer(settings):
    settings.WS_HANDSHAKE_SECONDS, settings.WS_HANDSHAKE_WAIT_SECONDS = 5.0, 30.0
    assert ws_threads.handshake_limit({"type": "websocket"}) == 5.0  # daphne
    assert ws_threads.handshake_limit(
        {"type": "websocket", "extensions": {"websocket.http.response": {}}}) == 30.0


def test_a_session_socket_too_late_is_refused_as_busy_not_as_signed_out(client, players,
                                                                         settings):
    # a 4401 is final for the pages (static/js): a busy site must not send one
    client.force_login(players[0])
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies['sessionid'].value}"
    settings.WS_HANDSHAKE_SECONDS = -1.0  # every read is late

    async def scenario():
        refused = []
        for path in ("/ws/notices/", f"/ws/games/{players[0].pk}/"):
            ws = WebsocketCommunicator(application, path, headers=[
                (b"origin", b"http://localhost"), (b"host", b"localhost"),
                (b"cookie", cookie.encode())])
            refused.append(await ws.connect())
        return refused

    # refused before the accept: no close code, so the client tries again
    assert [connected for connected, _code in async_to_sync(scenario)()] == [False, False]
