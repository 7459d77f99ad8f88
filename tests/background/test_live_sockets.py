"""The status page's live socket count follows connections to the game socket."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.live import live_sockets
from tests.web.refusals import close_code
from tests.web.test_game_websocket import (  # noqa: F401 (_own_channel_prefix: a fixture)
    _connect,
    _own_channel_prefix,
    _started,
    _token,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _open_here() -> int:
    (mine,) = [p for p in live_sockets.per_process() if p["process"] == live_sockets.PROCESS]
    return mine["open"]


def test_a_connection_counts_while_open_and_a_refused_one_never(players):
    async_to_sync(_connections)(players)


async def _connections(players):
    game = await database_sync_to_async(_started)(players)
    token = await database_sync_to_async(_token)(players[0])
    before = await database_sync_to_async(_open_here)()
    ws = _connect(game.pk, token)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=5)
    assert await database_sync_to_async(_open_here)() == before + 1
    refused = _connect(999999, token)
    assert await close_code(refused) == 4404
    assert await database_sync_to_async(_open_here)() == before + 1
    await ws.disconnect()
    assert await database_sync_to_async(_open_here)() == before
