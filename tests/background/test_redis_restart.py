"""A Redis restart under a real worker that holds countdown tasks (bots pausing in live
games): the worker goes on consuming, or its supervisor starts it again, and every game
that waited on a bot moves again, with no hand restarting anything."""

import io
import signal
import subprocess

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.engine import deal_game
from games.models import Game, Seat
from games.selectors import initial_state
from games.services import bot_turn_queue
from tests import servers, workers

pytestmark = pytest.mark.skipif(
    settings.BLAZE_INMEMORY or connection.vendor != "postgresql",
    reason="needs Redis and PostgreSQL",
)
GAMES = 4
LIVE = {"kind": "live", "minutes": 30}
WORKER_ENV = {
    "BOT_PAUSE_SECONDS": "1",  # every bot turn is a countdown task the worker holds
    "BLAZE_BOT_BUDGET_MS": "50",
    "BLAZE_WATCHDOG_SECONDS": "2",
}


@pytest.fixture
def prefix(transactional_db):
    return workers.new_prefix()


@pytest.fixture
def private_redis(tmp_path):
    port = servers.free_port()
    with servers.redis_server(port, tmp_path) as restart:
        yield f"redis://127.0.0.1:{port}/0", restart


def _bot_games() -> list[Game]:
    """Games of bots only, in live play (each bot turn waits its pause)."""
    games = []
    with transaction.atomic():
        for _ in range(GAMES):
            deal = deal_game(3)
            game = Game.objects.create(
                players=3, status=Game.PLAYING, deal=deal, started=timezone.now(),
                waiting_on=initial_state(deal).waiting_on, time_control=LIVE,
                bot_turn_since=timezone.now())
            for i in range(3):
                Seat.objects.create(game=game, index=i, bot_level="basic", name=f"bot {i}")
            games.append(game)
        for game in games:
            transaction.on_commit(lambda g=game.pk: bot_turn_queue(game_id=g, seq=0))
    return games


def _seqs(games) -> dict:
    return dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "seq"))


def _all_moved_since(games, before: dict) -> bool:
    now = Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "seq", "status")
    return all(seq > before[pk] or status != Game.PLAYING for pk, seq, status in now)


def _serve_many(env: dict, tmp_path) -> subprocess.Popen:
    """scripts/serve_many.sh with no web process: its worker (every queue) and its beat,
    each under the supervisor; logs in tmp_path."""
    env = {**env, "RUN_DIR": str(tmp_path)}
    proc = subprocess.Popen(["bash", "scripts/serve_many.sh", "0", "0"], cwd=workers.ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    proc.log = io.BytesIO()  # worker_stop reads it: the real logs are the files below
    return proc


def _logs(tmp_path) -> str:
    return "".join((tmp_path / name).read_text(errors="replace")[-3000:]
                   for name in ("celery.log", "beat.log") if (tmp_path / name).exists())


def test_a_redis_restart_under_a_busy_worker_leaves_every_bot_game_moving(
        prefix, private_redis, tmp_path):
    url, restart = private_redis
    env = workers.worker_env(prefix, REDIS_URL=url, CELERY_BROKER_URL=url,
                             CACHE_URL=url.replace("/0", "/1"), **WORKER_ENV)
    proc = _serve_many(env, tmp_path)
    try:
        with workers.sending_to(prefix, broker_url=url):
            games = _bot_games()
        started = _seqs(games)
        assert workers.wait_for(lambda: _all_moved_since(games, started)), _logs(tmp_path)
        restart.stop()
        workers.wait_for(lambda: False, timeout=5)  # Redis is away for five seconds
        restart.start()
        back = _seqs(games)
        assert workers.wait_for(lambda: _all_moved_since(games, back), timeout=120), (
            f"stuck at {_seqs(games)}; the worker wrote:\n{_logs(tmp_path)}")
        assert proc.poll() is None, "serve_many.sh exited"
    finally:
        workers.worker_stop(proc, signal.SIGTERM)
