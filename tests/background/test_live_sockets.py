"""The status page's live socket count follows connections to the game socket."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from games.live import live_sockets
from tests.conftest import make_user
from tests.web.test_game_websocket import (  # noqa: F401 (_own_channel_prefix: a fixture)
    _connect,
    _own_channel_prefix,
    _started,
    _token,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def users():
    return [make_user(name) for name in ("ann", "bob", "cat")]


def _open_here() -> int:
    (mine,) = [p for p in live_sockets.per_process() if p["process"] == live_sockets.PROCESS]
    return mine["open"]


def test_a_connection_counts_while_open_and_a_refused_one_never(users):
    async_to_sync(_connections)(users)


async def _connections(users):
    game = await database_sync_to_async(_started)(users)
    token = await database_sync_to_async(_token)(users[0])
    before = await database_sync_to_async(_open_here)()
    ws = _connect(game.pk, token)
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=5)
    assert await database_sync_to_async(_open_here)() == before + 1
    refused = _connect(999999, token)
    assert not (await refused.connect())[0]
    assert await database_sync_to_async(_open_here)() == before + 1
    await ws.disconnect()
    assert await database_sync_to_async(_open_here)() == before
