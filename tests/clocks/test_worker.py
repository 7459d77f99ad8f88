"""A real Celery worker (not eager) against Redis and the test database plays a game."""

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from clocks.clocks import clocks_start
from clocks.models import SeatClock
from clocks.tasks import clocks_sweep
from games import services
from games.bot_moves import bot_choose_move
from games.engine import deal_game, view
from games.models import Game, Move, Seat
from games.selectors import initial_state
from games.services import bot_turn_queue
from notifications.models import Notification
from tests import workers

pytestmark = pytest.mark.skipif(
    settings.BLAZE_INMEMORY or connection.vendor != "postgresql",
    reason="needs Redis and PostgreSQL",
)


@pytest.fixture
def worker_env():
    """More environment for the worker process; a test module may override this."""
    return {}


@pytest.fixture
def worker(transactional_db, worker_env):
    """`celery -A blaze_site worker` on queues of its own (bots, clocks, mail, the rest),
    using the test database."""
    prefix = workers.new_prefix()
    proc = workers.worker_start(prefix, workers.worker_env(prefix, **worker_env))
    try:
        with workers.sending_to(prefix):
            yield proc
    finally:
        err = workers.worker_stop(proc)
        workers.broker_cleanup(prefix)
        assert not workers.tracebacks(err), err[-3000:]


def _wait_for(predicate, timeout=45.0):
    return workers.wait_for(predicate, timeout=timeout, interval=0.1)


def _finishes(deal, rng, limit=600) -> bool:
    state = initial_state(deal)
    for _ in range(limit):
        if state.finished:
            return True
        seat = state.waiting_on[0]
        state.apply({**bot_choose_move(view(state, seat), seat, "basic", rng), "seat": seat})
    return state.finished


def _finishing_deal(players: int) -> dict:
    """A deal the placeholder bots play to the end (they can loop forever on some deals)."""
    for _ in range(200):
        deal = deal_game(players)
        if all(_finishes(deal, random.Random(k)) for k in range(4)):
            return deal
    raise AssertionError("no deal the bots finish")


def test_a_game_of_bots_plays_to_the_end_through_the_worker(worker):
    deal = _finishing_deal(4)
    with transaction.atomic():
        game = Game.objects.create(
            players=4, status=Game.PLAYING, deal=deal, started=timezone.now(),
            waiting_on=initial_state(deal).waiting_on,
            time_control={"kind": "live", "minutes": 5},
        )
        for i, level in enumerate(["random", "basic", "strong", "basic"]):
            Seat.objects.create(game=game, index=i, bot_level=level, name=f"bot {i}")
        clocks_start(game)
        transaction.on_commit(lambda: bot_turn_queue(game_id=game.pk, seq=0))
    assert SeatClock.objects.filter(game=game, running_since__isnull=False).exists()
    assert _wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.FINISHED), (
        f"stuck at seq {Game.objects.get(pk=game.pk).seq}"
    )
    game.refresh_from_db()
    assert game.result["ranking"] and Move.objects.filter(game=game).count() == game.seq
    assert not SeatClock.objects.filter(game=game, running_since__isnull=False).exists()


def test_a_timed_out_player_is_moved_for_and_the_bots_answer_through_the_worker(
        worker, ann):
    game = services.game_create(creator=ann, players=3, bots=["basic", "basic"],
                                time_control={"kind": "correspondence", "days": 1})
    # Bots answer through the worker until the game waits on ann.
    assert _wait_for(lambda: (g := Game.objects.get(pk=game.pk)).waiting_on
                     and all(Seat.objects.get(game=g, index=s).user_id == ann.pk
                             for s in g.waiting_on))
    game.refresh_from_db()
    seq = game.seq
    seat = game.waiting_on[0]
    past = timezone.now() - timedelta(days=2)
    SeatClock.objects.filter(game=game, seat=seat).update(
        running_since=past, deadline=past + timedelta(days=1))
    assert clocks_sweep() == 1  # in this process; the bots' replies come from the worker
    assert Move.objects.get(game=game, seq=seq).seat == seat
    assert Notification.objects.filter(user=ann, kind="timeout", game=game).count() == 1
    assert _wait_for(lambda: (g := Game.objects.get(pk=game.pk)).seq > seq + 1
                     or g.status == Game.FINISHED
                     or any(Seat.objects.get(game=g, index=s).user_id == ann.pk
                            for s in g.waiting_on))
