"""A quiet socket stays open: the channel layer's blocking read outlasts any pause."""

import asyncio
import random
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from accounts.services import api_token_create
from blaze_site.asgi import application
from games import services
from games.models import Game
from tests.conftest import make_user
from tests.games_helpers import random_legal_move

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(django_settings.BLAZE_INMEMORY,
                       reason="needs Redis: the in-memory layer has no socket timeout"),
]

# Longer than channels-redis's 5 s blocking read and redis-py 8's 5 s default timeout.
IDLE_SECONDS = 12


@pytest.fixture(autouse=True, params=["channels_redis.core.RedisChannelLayer",
                                      "channels_redis.pubsub.RedisPubSubChannelLayer"])
def _layer(settings, request):
    """Both Redis layers the site may run (CHANNEL_LAYER_KIND), with the site's config."""
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    config = dict(layers["default"]["CONFIG"])
    config["prefix"] = f"test-{uuid.uuid4().hex[:8]}"
    layers["default"]["CONFIG"] = config
    layers["default"]["BACKEND"] = request.param
    settings.CHANNEL_LAYERS = layers


def _game():
    users = [make_user(n) for n in ("ann", "bob", "cat")]
    game = services.game_create(creator=users[0], players=3)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game, {s.index: s.user for s in game.seats.select_related("user")}


def test_a_socket_left_idle_past_the_redis_timeout_stays_open_and_gets_the_next_move():
    async_to_sync(_idle)()


async def _idle():
    game, seats = await database_sync_to_async(_game)()
    secret = (await database_sync_to_async(api_token_create)(user=seats[0], name="ws"))[1]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?token={secret}")
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=10))["seq"] == 0
    await asyncio.sleep(IDLE_SECONDS)  # nothing happens at the table
    assert await ws.receive_nothing(timeout=0.5)  # no close, no error

    def move():
        mover = Game.objects.get(pk=game.pk).waiting_on[0]
        fresh = Game.objects.get(pk=game.pk)
        services.move_play(game_id=game.pk, user=seats[mover], seq=0,
                           move=random_legal_move(fresh, mover, random.Random(3)))

    await database_sync_to_async(move)()
    assert (await ws.receive_json_from(timeout=10))["seq"] == 1
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=10)) == {"type": "pong"}
    await ws.disconnect()
