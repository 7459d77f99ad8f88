"""'Play again' is offered live to the other people of the table: their open table page
gets the next game's link through its socket at once, and each is told through the
notify path (games.events.player_notice: in the site, and by mail as they chose)."""

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
from notifications.models import Notification
from tests.conftest import make_user
from tests.games_helpers import random_legal_move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings):
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    if "redis" in layers["default"]["BACKEND"].lower():
        config = dict(layers["default"].get("CONFIG", {}))
        config["prefix"] = f"test-{uuid.uuid4().hex[:8]}"
        layers["default"]["CONFIG"] = config
    settings.CHANNEL_LAYERS = layers


def _finished_game():
    ann, bob, cat = make_user("ann"), make_user("bob"), make_user("cat")
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    rng = random.Random(4)
    while True:
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            break
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=game.seats.get(index=seat).user, seq=game.seq,
                           move=random_legal_move(game, seat, rng), queue_bots=False)
    return game.pk, ann, bob, cat, api_token_create(user=bob, name="ws")[1]


def test_the_others_see_the_next_game_at_once_and_are_told(eager_tasks):
    async_to_sync(_offered_live)()


async def _offered_live():
    old_id, ann, bob, cat, secret = await database_sync_to_async(_finished_game)()
    ws = WebsocketCommunicator(application, f"/ws/games/{old_id}/?token={secret}",
                               headers=[(b"host", b"localhost")])
    assert (await ws.connect())[0]
    first = await ws.receive_json_from(timeout=10)
    assert first["view"]["status"] == "finished" and first["view"]["rematch"] is None
    game = await database_sync_to_async(services.game_again)(game_id=old_id, user=ann)
    pushed = await ws.receive_json_from(timeout=10)
    assert pushed["view"]["rematch"] == game.pk  # bob's open page can offer "Join"
    await ws.disconnect()

    def told():
        return {n.user.username: (n.kind, n.text) for n in
                Notification.objects.filter(kind=Notification.REMATCH).select_related("user")}
    notes = await database_sync_to_async(told)()
    assert set(notes) == {"bob", "cat"}  # not ann, who asked
    kind, text = notes["bob"]
    assert kind == "rematch" and "ann" in text and f"/games/{game.pk}/" in text
