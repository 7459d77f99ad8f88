"""Who keeps a socket: deactivating a user closes every socket of theirs, and programs may
give their token in an Authorization header (out of access logs) as well as in ?token=."""


import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import api_token_create, user_deactivate
from blaze_site.asgi import application
from games import services
from games.live import consumers
from tests.conftest import make_user
from tests.web.refusals import close_code

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("own_channel_prefix")]


def _table():
    users = [make_user(n) for n in ("ann", "bob", "cat")]
    game = services.game_create(creator=users[0], players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game, {s.user.username: s.index for s in game.seats.select_related("user")}, users


def _secret(user) -> str:
    return api_token_create(user=user, name="ws")[1]


def _socket(game_id, *, query="", header=None):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if header:
        headers.append((b"authorization", f"Bearer {header}".encode()))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/{query}", headers=headers)


def test_a_token_in_the_authorization_header_opens_a_players_socket():
    async def scenario():
        game, seats, users = await database_sync_to_async(_table)()
        secret = await database_sync_to_async(_secret)(users[1])
        for ws in (_socket(game.pk, header=secret), _socket(game.pk, query=f"?token={secret}")):
            assert (await ws.connect())[0]
            first = await ws.receive_json_from(timeout=10)
            assert first["view"]["you"] == seats["bob"]  # seated: bob's own view
            await ws.disconnect()
        wrong = _socket(game.pk, header="blz_wrong")
        assert await close_code(wrong) == consumers.CLOSE_UNAUTHORIZED

    async_to_sync(scenario)()


def test_deactivating_a_user_closes_every_socket_of_theirs():
    async def scenario():
        game, seats, users = await database_sync_to_async(_table)()
        ann, bob = users[0], users[1]
        doomed = [_socket(game.pk, header=await database_sync_to_async(_secret)(ann)),
                  _socket(game.pk, query=f"?token={await database_sync_to_async(_secret)(ann)}")]
        kept = _socket(game.pk, header=await database_sync_to_async(_secret)(bob))
        for ws in (*doomed, kept):
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=10)
        await database_sync_to_async(user_deactivate)(user=ann)
        for ws in doomed:
            closed = await ws.receive_output(timeout=10)
            assert closed == {"type": "websocket.close", "code": consumers.CLOSE_UNAUTHORIZED}
        await kept.send_json_to({"type": "ping"})
        assert (await kept.receive_json_from(timeout=10))["type"] == "pong"
        await kept.disconnect()

    async_to_sync(scenario)()


def test_one_address_holds_a_few_anonymous_sockets_at_most(settings):
    settings.BLAZE_MAX_ANON_SOCKETS_PER_ADDRESS = 2

    async def scenario():
        game, seats, users = await database_sync_to_async(_table)()
        watchers = [_socket(game.pk) for _ in range(2)]
        for ws in watchers:
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=10)
        third = _socket(game.pk)
        assert await close_code(third) == consumers.CLOSE_TOO_MANY
        # a signed-in player is not counted with them
        player = _socket(game.pk, header=await database_sync_to_async(_secret)(users[0]))
        assert (await player.connect())[0]
        await player.disconnect()
        await watchers[0].disconnect()  # one leaves: another may come
        again = _socket(game.pk)
        assert (await again.connect())[0]
        for ws in (watchers[1], again):
            await ws.disconnect()

    async_to_sync(scenario)()
