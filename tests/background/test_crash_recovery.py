"""Real workers die and a real broker loses its queues mid-game: the games go on.

A game of bots (one strong bot that thinks) is played by `celery worker` subprocesses on
queues of the test's own; the Redis of the flush test is a private redis-server (never
the shared one). Waits are generous timeouts on the outcome, never bounds on durations.
"""

import os
import random
import signal
import socket
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from games.models import Game, Move, Seat
from games.selectors import initial_state
from games.services import bot_turn_queue
from tests import servers, workers

pytestmark = pytest.mark.skipif(
    settings.BLAZE_INMEMORY or connection.vendor != "postgresql",
    reason="needs Redis and PostgreSQL",
)
PRIVATE_REDIS_PORT = 8799
OVER = (Game.FINISHED, Game.ABORTED)  # aborted: bots circled past the move limit (§9)
WORKER_ENV = {
    "BLAZE_BOT_BUDGET_MS": "300",  # the strong bot thinks long enough to be caught at it
    "BLAZE_WATCHDOG_SECONDS": "2",
    "BLAZE_MAX_GAME_MOVES": "600",
}


@pytest.fixture
def prefix(transactional_db):
    prefix = workers.new_prefix()
    yield prefix
    workers.broker_cleanup(prefix)


def _bot_game() -> Game:
    """Four bots, one of them strong; its first turn queued after commit."""
    deal = _deal()
    with transaction.atomic():
        game = Game.objects.create(
            players=4, status=Game.PLAYING, deal=deal, started=timezone.now(),
            waiting_on=initial_state(deal).waiting_on,
            time_control={"kind": "correspondence", "days": 1},
        )
        for i, level in enumerate(["strong", "basic", "random", "basic"]):
            Seat.objects.create(game=game, index=i, bot_level=level, name=f"bot {i}")
        transaction.on_commit(lambda: bot_turn_queue(game_id=game.pk, seq=0))
    return game


def _deal() -> dict:
    from games.engine import deal_game

    random.seed(17)
    return deal_game(4)


def _game(game) -> Game:
    return Game.objects.get(pk=game.pk)


def _thinking_turn(game, prefix, url=None) -> int | None:
    """The seq of the strong bot's turn a worker holds now (it thinks), else None."""
    g = _game(game)
    if g.status != Game.PLAYING or g.seq < 4 or g.waiting_on != [0]:
        return None
    return g.seq if (g.pk, g.seq) in workers.held_turns(prefix, url) else None


def _kill_mid_move(game, prefix, kill, url=None) -> int:
    """Kill while the strong bot thinks; returns the seq of the turn that died with it.

    If the kill landed just after the move was stored (the turn was over), the next turn
    may be lost too: queue it (as the watchdog would) and try again, until a kill lands
    mid-move."""
    for _ in range(10):
        seq = workers.wait_value(lambda: _thinking_turn(game, prefix, url))
        assert seq is not None, f"the strong bot never thought; at seq {_game(game).seq}"
        kill()
        if _game(game).seq == seq:
            return seq
        bot_turn_queue(game_id=game.pk, seq=_game(game).seq)
    raise AssertionError("no kill landed mid-move")


def _plays_to_the_end(game, proc) -> None:
    assert workers.wait_for(lambda: _game(game).status in OVER, timeout=600), (
        f"stuck at seq {_game(game).seq}; the worker wrote:\n{workers.worker_log(proc)[-3000:]}")
    game = _game(game)
    assert Move.objects.filter(game=game).count() == game.seq


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def test_a_pool_process_killed_mid_move_has_its_bot_turn_run_again(prefix):
    """acks_late + reject_on_worker_lost: the worker's parent puts the task back at once
    (no watchdog runs here: without the requeue the game would wait forever)."""
    env = workers.worker_env(prefix, **WORKER_ENV)
    proc = workers.worker_start(prefix, env, pool="prefork")
    try:
        with workers.sending_to(prefix):
            game = _bot_game()
        seq = _kill_mid_move(game, prefix,
                             lambda: os.kill(_children(proc.pid)[0], signal.SIGKILL))
        _plays_to_the_end(game, proc)
        assert _game(game).seq > seq
    finally:
        err = workers.worker_stop(proc)
    assert "WorkerLostError" in err  # the kill did land mid-task


def test_a_worker_killed_mid_move_is_replaced_and_the_watchdog_resumes_the_game(
        prefix, tmp_path):
    """SIGKILL takes the whole worker: its task waits in Redis for the visibility timeout
    (half an hour); the watchdog of the next worker's beat queues the turn again."""
    env = workers.worker_env(prefix, **WORKER_ENV)
    first = workers.worker_start(prefix, env)
    try:
        with workers.sending_to(prefix):
            game = _bot_game()
        assert workers.wait_for(lambda: _thinking_turn(game, prefix) is not None)
    finally:
        workers.worker_stop(first, signal.SIGKILL)
    seq = _game(game).seq
    assert workers.held_turns(prefix)  # held by the dead worker: no one else will run it
    second = workers.worker_start(prefix, env, beat_schedule=tmp_path / "beat")
    try:
        _plays_to_the_end(game, second)
    finally:
        err = workers.worker_stop(second)
    assert _game(game).seq > seq
    assert not workers.tracebacks(err), err[-3000:]


@pytest.fixture
def private_redis(tmp_path):
    """A redis-server of this test's own (never the shared one: it gets flushed)."""
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", PRIVATE_REDIS_PORT)) == 0:
            pytest.skip(f"port {PRIVATE_REDIS_PORT} is taken")
    with servers.redis_server(PRIVATE_REDIS_PORT, tmp_path):
        yield f"redis://127.0.0.1:{PRIVATE_REDIS_PORT}/0"


def test_a_broker_that_lost_its_queues_mid_game_is_refilled_by_the_watchdog(
        prefix, private_redis, tmp_path):
    """As a Redis restart without persistence would: the queued bot turn is gone."""
    env = workers.worker_env(prefix, REDIS_URL=private_redis,
                             CELERY_BROKER_URL=private_redis, **WORKER_ENV)
    first = workers.worker_start(prefix, env)
    try:
        with workers.sending_to(prefix, broker_url=private_redis):
            game = _bot_game()
        assert workers.wait_for(
            lambda: _thinking_turn(game, prefix, private_redis) is not None)
    finally:
        err = workers.worker_stop(first)  # warm: the running turn ends, the next is queued
    assert not workers.tracebacks(err), err[-3000:]
    pending = workers.queued(prefix, private_redis)
    assert pending[f"{prefix}.bots"] + pending["unacked"], "no bot turn was waiting"
    seq = _game(game).seq
    redis.Redis.from_url(private_redis).flushall()
    assert not any(workers.queued(prefix, private_redis).values())
    second = workers.worker_start(prefix, env, beat_schedule=tmp_path / "beat")
    try:
        _plays_to_the_end(game, second)
    finally:
        err = workers.worker_stop(second)
    assert _game(game).seq > seq
    assert not workers.tracebacks(err), err[-3000:]
