"""Two sweepers at once, on separate PostgreSQL connections: one timeout, not two."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from blaze_site.celery import app as celery_app
from clocks.models import SeatClock
from clocks.tasks import clocks_sweep
from clocks.timeouts import deadline_expire
from games.models import Game, Move

from .helpers import started_game

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL"
)


def _overdue(game):
    """Make every running clock of the game four days old."""
    past = timezone.now() - timedelta(days=4)
    SeatClock.objects.filter(game=game, running_since__isnull=False).update(
        running_since=past, deadline=past + timedelta(days=3))


def _at_once(fn, n=2):
    barrier = threading.Barrier(n)
    results, errors = [], []

    def run():
        try:
            barrier.wait()
            results.append(fn())
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors, errors
    return results


@pytest.fixture
def eager_tasks():
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("runner", ["sweep", "expire"])
def test_two_sweepers_at_once_time_a_seat_out_once(runner, ann, bob, cat, eager_tasks):
    game = started_game([ann, bob, cat])
    waited = len(game.waiting_on)
    _overdue(game)
    if runner == "sweep":
        results = _at_once(clocks_sweep)
    else:
        results = _at_once(lambda: deadline_expire(game_id=game.pk))
    game.refresh_from_db()
    assert sum(results) == waited
    assert game.seq == waited and Move.objects.filter(game=game).count() == waited
    assert sum(SeatClock.objects.filter(game=game).values_list("timeouts", flat=True)) == waited
    # And once more, later: nothing is due any more.
    assert clocks_sweep() == 0
    assert Game.objects.get(pk=game.pk).seq == waited
