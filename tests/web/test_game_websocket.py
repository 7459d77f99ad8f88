import random
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from blaze_site.asgi import application
from games import services
from games.models import Game
from games.selectors import game_state
from tests.games_helpers import assert_view_hides_cards, random_legal_move
from tests.web.refusals import close_code

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings):
    # The Redis at 127.0.0.1 may be shared by other test runs: keep our groups apart.
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    if "redis" in layers["default"]["BACKEND"].lower():
        config = dict(layers["default"].get("CONFIG", {}))
        config["prefix"] = f"test-{uuid.uuid4().hex[:8]}"
        layers["default"]["CONFIG"] = config
    settings.CHANNEL_LAYERS = layers


def _started(users):
    game = services.game_create(creator=users[0], players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def _connect(game_id, token):
    return WebsocketCommunicator(
        application, f"/ws/games/{game_id}/?token={token}",
        headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
    )


def _token(user):
    from accounts.services import api_token_create

    return api_token_create(user=user, name="ws")[1]


async def _play(game, seat, user, rng):
    from channels.db import database_sync_to_async

    def play():
        game.refresh_from_db()
        services.move_play(game_id=game.pk, user=user, seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game.refresh_from_db()
        return game_state(game)

    return await database_sync_to_async(play)()


def test_a_seated_player_receives_each_new_view_in_order(players):
    async_to_sync(_test_a_seated_player_receives_each_new_view_in_order)(players)


async def _test_a_seated_player_receives_each_new_view_in_order(players):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(_started)(players)
    seats = await database_sync_to_async(
        lambda: {s.index: s.user for s in game.seats.select_related("user")})()
    watcher_seat = 0
    token = await database_sync_to_async(_token)(seats[watcher_seat])
    ws = _connect(game.pk, token)
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from(timeout=5)
    assert first["type"] == "view" and first["seq"] == 0 and first["view"]["you"] == watcher_seat
    rng = random.Random(2)
    for expected in range(1, 16):
        await database_sync_to_async(game.refresh_from_db)()
        if game.status != Game.PLAYING:
            break
        seat = game.waiting_on[0]
        state = await _play(game, seat, seats[seat], rng)
        message = await ws.receive_json_from(timeout=5)
        assert message["type"] == "view" and message["seq"] == expected
        assert message["view"]["you"] == watcher_seat
        assert_view_hides_cards(message["view"], state, watcher_seat)
    await ws.send_json_to({"type": "make me win"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "error"
    await ws.disconnect()


def test_a_reconnecting_client_gets_the_current_view(players):
    async_to_sync(_test_a_reconnecting_client_gets_the_current_view)(players)


async def _test_a_reconnecting_client_gets_the_current_view(players):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(_started)(players)
    seat = game.waiting_on[0]
    user = await database_sync_to_async(lambda: game.seats.get(index=seat).user)()
    await _play(game, seat, user, random.Random(1))
    token = await database_sync_to_async(_token)(user)
    ws = _connect(game.pk, token)
    assert (await ws.connect())[0]
    message = await ws.receive_json_from(timeout=5)
    assert message["seq"] == 1 and message["view"]["you"] == seat
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["seq"] == 1
    await ws.disconnect()


def test_a_bad_token_or_unknown_game_is_refused(players):
    async_to_sync(_test_a_bad_token_or_unknown_game_is_refused)(players)


async def _test_a_bad_token_or_unknown_game_is_refused(players):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(_started)(players)
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?token=blz_wrong",
                               headers=[(b"origin", b"http://localhost")])
    assert await close_code(ws) == 4401
    token = await database_sync_to_async(_token)(players[0])
    ws = _connect(999999, token)
    assert await close_code(ws) == 4404


def test_a_program_with_a_token_and_no_origin_header_gets_its_view(players):
    # API.md: programs connect with ?token=…; they are not browsers and send no Origin.
    async_to_sync(_test_a_program_with_a_token_and_no_origin_header_gets_its_view)(players)


async def _test_a_program_with_a_token_and_no_origin_header_gets_its_view(players):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(_started)(players)
    token = await database_sync_to_async(_token)(players[0])
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?token={token}",
                               headers=[(b"host", b"localhost")])
    connected, _ = await ws.connect()
    assert connected
    message = await ws.receive_json_from(timeout=5)
    assert message["type"] == "view" and message["view"]["you"] is not None
    await ws.disconnect()


def test_a_foreign_origin_or_no_origin_without_a_token_is_still_refused(players):
    async_to_sync(_test_a_foreign_origin_or_no_origin_without_a_token_is_still_refused)(players)


async def _test_a_foreign_origin_or_no_origin_without_a_token_is_still_refused(players):
    from channels.db import database_sync_to_async

    game = await database_sync_to_async(_started)(players)
    token = await database_sync_to_async(_token)(players[0])
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?token={token}",
                               headers=[(b"origin", b"http://evil.example")])
    assert not (await ws.connect())[0]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/")
    assert not (await ws.connect())[0]
