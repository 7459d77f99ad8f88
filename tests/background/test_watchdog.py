"""The watchdog reads the rows: a game waiting on a bot with no move for too long gets its
bot turn queued again, once per stall interval; healthy games are left alone."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from games import services
from games.models import Game, Seat
from games.watchdog import LIMIT, bot_turns_requeue, games_waiting_on_bots, stalled_bot_games
from tests.conftest import make_user

from .test_tasks_run_twice import _stalled, _waiting_on_a_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch, settings):
    """Bot turns the watchdog queues, recorded instead of run."""
    settings.BOT_PAUSE_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    turns = []
    monkeypatch.setattr(services, "bot_turn_queue",
                        lambda *, game_id, seq: turns.append((game_id, seq)))
    return turns


def test_a_lost_bot_turn_is_queued_again_once_per_stall(ann, queued):
    game = _stalled(_waiting_on_a_bot(ann))
    assert bot_turns_requeue() == 1
    assert bot_turns_requeue() == 0  # the turn is queued: not again at once
    assert queued == [(game.pk, game.seq)]


def test_a_bot_that_just_moved_is_not_hurried(ann, queued):
    game = _waiting_on_a_bot(ann)
    assert [w.game_id for w in games_waiting_on_bots()] == [game.pk]
    assert stalled_bot_games() == []
    assert bot_turns_requeue() == 0 and queued == []
    later = timezone.now() + timedelta(minutes=5)
    assert [w.seq for w in stalled_bot_games(later)] == [game.seq]


def test_a_game_waiting_on_a_person_is_not_a_stalled_bot(ann, queued):
    game = _stalled(_waiting_on_a_bot(ann))
    game.waiting_on = [game.seats.get(user=ann).index]
    game.bot_turn_since = None  # as a move to the person's turn writes it
    game.save(update_fields=["waiting_on", "bot_turn_since"])
    assert games_waiting_on_bots() == [] and bot_turns_requeue() == 0 and queued == []


def _games_waiting_on_people(owner, n: int, since) -> None:
    """n games in play, each with bot seats, each waiting on its person since `since`
    (older than any stalled bot turn): rows only, written in bulk."""
    games = Game.objects.bulk_create(
        Game(players=3, status=Game.PLAYING, started=since, seq=0, waiting_on=[0])
        for _ in range(n))
    Seat.objects.bulk_create(
        Seat(game=g, index=i, user=owner if i == 0 else None,
             bot_level=None if i == 0 else "basic")
        for g in games for i in range(3))


def _requeue_counting_queries(queued):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    queued.clear()
    cache.clear()  # forget the watchdog's notes: each sweep is a first look
    with CaptureQueriesContext(connection) as ctx:
        requeued = bot_turns_requeue()
    return requeued, len(ctx.captured_queries)


def test_every_stalled_bot_turn_is_found_among_many_games_waiting_on_people(ann, queued):
    long_ago = timezone.now() - timedelta(days=3)
    stalled = [_stalled(_waiting_on_a_bot(make_user(f"p{i}"))) for i in range(10)]
    expected = sorted((g.pk, g.seq) for g in stalled)

    _games_waiting_on_people(ann, LIMIT + 50, long_ago)  # more than one sweep looks at
    found_small, queries_small = _requeue_counting_queries(queued)
    assert found_small == 10 and sorted(queued) == expected

    _games_waiting_on_people(ann, 2 * (LIMIT + 50), long_ago)  # three times as many
    found_large, queries_large = _requeue_counting_queries(queued)
    assert found_large == 10 and sorted(queued) == expected
    assert queries_large == queries_small


def test_a_seat_handed_to_the_bot_while_waited_on_is_a_bot_turn(ann, queued):
    game = _waiting_on_a_bot(ann)
    human = game.seats.get(user=ann)
    game.waiting_on = [human.index]
    game.bot_turn_since = None
    game.save(update_fields=["waiting_on", "bot_turn_since"])
    services.game_resign(game_id=game.pk, user=ann)
    assert [w.game_id for w in games_waiting_on_bots()] == [game.pk]


def test_a_finished_game_is_not_waiting_on_anyone(ann, queued):
    game = _stalled(_waiting_on_a_bot(ann))
    assert services.game_abort_stalled(game_id=game.pk) is False  # not circling yet
    Game.objects.filter(pk=game.pk).update(seq=10_000)
    assert services.game_abort_stalled(game_id=game.pk) is True
    assert games_waiting_on_bots() == [] and bot_turns_requeue() == 0
