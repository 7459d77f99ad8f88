"""A real Celery worker (not eager) against Redis and the test database plays a game."""

import os
import random
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from blaze_site.celery import app as celery_app
from correspondence.clocks import clocks_start
from correspondence.models import Notification, SeatClock
from correspondence.tasks import clocks_sweep
from games import services
from games.bot_moves import bot_choose_move
from games.engine import deal_game, view
from games.models import Game, Move, Seat
from games.selectors import initial_state
from games.services import bot_turn_queue

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    settings.BLAZE_INMEMORY or connection.vendor != "postgresql",
    reason="needs Redis and PostgreSQL",
)


def _database_url() -> str:
    db = connection.settings_dict  # inside a django_db test: NAME is test_<name>
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _route_all(queue, routes=None) -> None:
    """Send every task this process queues to `queue` (the router is cached: rebuild it)."""
    celery_app.conf.task_routes = {"*": {"queue": queue}} if queue else routes
    celery_app.amqp.flush_routes()
    celery_app.amqp.__dict__.pop("router", None)


@pytest.fixture
def worker_env():
    """More environment for the worker process; a test module may override this."""
    return {}


@pytest.fixture
def worker(transactional_db, worker_env):
    """`celery -A blaze_site worker` on a queue of its own, using the test database."""
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "BLAZE_INMEMORY": "0",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "BOT_PAUSE_SECONDS": "0",
        "EMAIL_URL": "consolemail://",
        "LOG_LEVEL": "WARNING",
        **worker_env,
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "blaze_site", "worker", "-P", "solo",
         "-Q", queue, "--without-gossip", "--without-mingle", "--without-heartbeat",
         "-l", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    conf = celery_app.conf
    before = conf.task_always_eager, conf.task_routes
    conf.task_always_eager = False
    _route_all(queue)
    try:
        yield proc
    finally:
        conf.task_always_eager = before[0]
        _route_all(None, before[1])
        proc.terminate()
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
        errors = [line for line in err.decode().splitlines() if "Traceback" in line]
        assert not errors, err.decode()[-3000:]


def _wait_for(predicate, timeout=45.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


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
