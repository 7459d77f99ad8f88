"""Spectators' views are built only while someone without a seat watches the game."""

import random
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.db import OperationalError
from django.utils import timezone

from games import services
from games.live import broadcast, consumers, watchers
from games.models import Game
from tests.conftest import make_user
from tests.web.test_live_updates import (
    _four,
    _own_channel_prefix,  # noqa: F401 (autouse: own Redis prefix)
    _play_one,
    _socket,
    _token,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_process_memory():
    watchers._known.clear()
    yield
    watchers._known.clear()


@pytest.fixture
def sent(monkeypatch):
    """The views each committed change sends."""
    views = []
    real = broadcast.views_send
    monkeypatch.setattr(broadcast, "views_send", lambda v: (views.append(v), real(v)))
    return views


def test_a_move_of_a_game_nobody_watches_builds_no_spectators_views(sent):
    game, seats = _four()
    _play_one(game.pk, seats, random.Random(1))
    assert sent[-1].seq == 1 and len(sent[-1].by_user) == 4
    assert sent[-1].spectators == {}


def test_a_move_of_a_watched_game_builds_the_spectators_view_in_every_language(sent):
    game, seats = _four()
    watchers.game_watch_mark(game_id=game.pk)
    _play_one(game.pk, seats, random.Random(1))
    assert set(sent[-1].spectators) == {code for code, _name in django_settings.LANGUAGES}
    assert sent[-1].spectators[django_settings.LANGUAGE_CODE]["you"] is None
    Game.objects.filter(pk=game.pk).update(watched_until=timezone.now() - timedelta(seconds=1))
    _play_one(game.pk, seats, random.Random(2))
    assert sent[-1].seq == 2 and sent[-1].spectators == {}  # the mark ran out


def test_a_mark_that_lasts_long_enough_is_not_written_again_by_any_process():
    game, _seats = _four()
    assert watchers.watch_due(game.pk)
    watchers.game_watch_mark(game_id=game.pk)
    marked = Game.objects.get(pk=game.pk).watched_until
    assert marked > timezone.now() + timedelta(seconds=watchers.RENEW_SECONDS)
    assert not watchers.watch_due(game.pk)  # this process knows: no query at the next ping
    watchers._known.clear()  # another process, which knows nothing yet
    assert watchers.watch_due(game.pk)
    watchers.game_watch_mark(game_id=game.pk)
    assert Game.objects.get(pk=game.pk).watched_until == marked
    assert not watchers.watch_due(game.pk)  # it learnt the mark from the row


def test_a_spectators_socket_marks_the_game_and_one_that_missed_the_mark_reads_its_view():
    async_to_sync(_spectator_and_lost_mark)()


async def _spectator_and_lost_mark():
    game, seats = await database_sync_to_async(_four)()
    watcher = await database_sync_to_async(make_user)("eve")
    player = _socket(game.pk, (await database_sync_to_async(_token)(seats[0]))[1])
    assert (await player.connect())[0]
    assert (await player.receive_json_from(timeout=10))["view"]["you"] == 0
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).watched_until is None
    ws = _socket(game.pk, (await database_sync_to_async(_token)(watcher))[1])
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=10))["view"]["you"] is None
    marked = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).watched_until
    assert marked is not None and marked > timezone.now()
    rng = random.Random(3)
    await database_sync_to_async(_play_one)(game.pk, seats, rng)
    first = await ws.receive_json_from(timeout=10)
    assert first["seq"] == 1 and first["view"]["you"] is None and "hand" not in first["view"]
    # The mark is lost (as when a move locked the row just before a new socket set it):
    # the next change has no spectators' view, and the socket reads its own.
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(watched_until=None)
    assert not watchers.watch_due(game.pk)  # the process believes the mark still holds
    await database_sync_to_async(_play_one)(game.pk, seats, rng)
    second = await ws.receive_json_from(timeout=10)
    assert second["seq"] == 2 and second["view"]["you"] is None
    assert "hand" not in second["view"]
    again = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).watched_until
    assert again is not None and again > timezone.now()  # and marked the game again
    for socket in (player, ws):
        await socket.disconnect()


def test_a_spectators_ping_renews_the_mark_only_when_it_is_running_out():
    async_to_sync(_ping_renews)()


async def _ping_renews():
    game, _seats = await database_sync_to_async(_four)()
    watcher = await database_sync_to_async(make_user)("eve")
    ws = _socket(game.pk, (await database_sync_to_async(_token)(watcher))[1])
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=10)
    marked = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).watched_until
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=10))["type"] == "pong"
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).watched_until == marked
    soon = timezone.now() + timedelta(seconds=10)  # running out
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(watched_until=soon)
    watchers._known[game.pk] = soon.timestamp()
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=10))["type"] == "pong"
    renewed = (await database_sync_to_async(Game.objects.get)(pk=game.pk)).watched_until
    assert renewed > soon + timedelta(seconds=watchers.RENEW_SECONDS)
    await ws.disconnect()


def test_changes_other_than_moves_send_the_spectators_view_watched_or_not(sent):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, players=4)
    services.game_join(game_id=game.pk, user=bob)  # rare: read from the database, all views
    assert sent[-1].by_user.keys() == {ann.pk, bob.pk}
    assert sent[-1].spectators[django_settings.LANGUAGE_CODE]["you"] is None


def test_a_spectators_ping_while_the_database_is_away_still_gets_its_pong(monkeypatch):
    async_to_sync(_ping_database_away)(monkeypatch)


async def _ping_database_away(monkeypatch):
    game, _seats = await database_sync_to_async(_four)()
    watcher = await database_sync_to_async(make_user)("eve")
    ws = _socket(game.pk, (await database_sync_to_async(_token)(watcher))[1])
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=10)
    tried = []

    def away(*, game_id):
        tried.append(game_id)
        raise OperationalError("the database is restarting")

    monkeypatch.setattr(consumers, "game_watch_mark", away)
    watchers._known.clear()  # the mark is due
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=10))["type"] == "pong"
    assert tried == [game.pk]
    await ws.send_json_to({"type": "ping"})  # the socket is still open, and tries again
    assert (await ws.receive_json_from(timeout=10))["type"] == "pong"
    assert tried == [game.pk, game.pk]
    await ws.disconnect()
