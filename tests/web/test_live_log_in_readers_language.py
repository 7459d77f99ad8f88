"""The live game log and the seats' names reach every socket in its reader's language,
without a reload: the writer says each move for each seated user in their language and
for spectators in every language; a socket whose language differs reads its own."""

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

pytestmark = pytest.mark.django_db(transaction=True)
KANA = set(range(0x3040, 0x3100)) | set(range(0x4E00, 0x9FFF)) | set(range(0x30A0, 0x3100))


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings):
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    if "redis" in layers["default"]["BACKEND"].lower():
        config = dict(layers["default"].get("CONFIG", {}))
        config["prefix"] = f"test-{uuid.uuid4().hex[:8]}"
        layers["default"]["CONFIG"] = config
    settings.CHANNEL_LAYERS = layers


def _japanese(text: str) -> bool:
    return any(ord(ch) in KANA for ch in text)


def _table():
    """ann (her account says Japanese), bob (no language set), a basic bot; eve watches."""
    ann = make_user("ann", language="ja")
    bob = make_user("bob")
    eve = make_user("eve")
    game = services.game_create(creator=ann, players=3, bots=["basic"])
    services.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    secrets = [api_token_create(user=u, name="ws")[1] for u in (ann, bob, eve)]
    people = {s.index: s.user for s in game.seats.select_related("user") if s.user_id}
    return game.pk, people, secrets


def _socket(game_id, secret, language=None):
    headers = [(b"host", b"localhost")]
    if language:
        headers.append((b"accept-language", language.encode()))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/?token={secret}",
                                 headers=headers)


def _play_people(game_id, people, rng) -> int:
    """Moves by the people (and the bots, queued in-process) until the game waits on a
    person again; returns the new seq."""
    game = Game.objects.get(pk=game_id)
    seat = next(s for s in game.waiting_on if s in people)
    services.move_play(game_id=game_id, user=people[seat], seq=game.seq,
                       move=random_legal_move(game, seat, rng))
    return Game.objects.get(pk=game_id).seq


def test_a_japanese_player_and_watcher_get_every_live_line_and_name_in_japanese(eager_tasks):
    async_to_sync(_lines_in_each_language)()


async def _lines_in_each_language():
    game_id, people, (ann, bob, eve) = await database_sync_to_async(_table)()
    sockets = {"ann": _socket(game_id, ann), "bob": _socket(game_id, bob, "es"),
               "eve": _socket(game_id, eve, "ja;q=1, en;q=0.5")}
    first = {}
    for name, ws in sockets.items():
        assert (await ws.connect())[0]
        first[name] = (await ws.receive_json_from(timeout=10))["view"]
    seat = next(i for i, p in enumerate(first["eve"]["players"]) if p["bot"])
    bot = first["eve"]["players"][seat]["name"]
    assert _japanese(bot) and first["ann"]["players"][seat]["name"] == bot
    assert first["bob"]["players"][seat]["name"] == "Bot básico"
    rng = random.Random(3)
    lines = {name: [] for name in sockets}
    for _ in range(6):
        seq = await database_sync_to_async(_play_people)(game_id, people, rng)
        for name, ws in sockets.items():
            while True:  # every view up to the latest (bots may have moved too)
                message = await ws.receive_json_from(timeout=10)
                lines[name] += [line["text"] for line in message["view"]["log"]]
                if message["seq"] == seq:
                    break
    assert lines["ann"] and all(_japanese(t) for t in lines["ann"]), lines["ann"]
    assert lines["eve"] and all(_japanese(t) for t in lines["eve"]), lines["eve"]
    assert lines["bob"] and not any(_japanese(t) for t in lines["bob"])
    assert any("Bot básico" in t for t in lines["bob"]), lines["bob"]
    for ws in sockets.values():
        await ws.disconnect()
