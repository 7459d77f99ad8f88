"""Redis stops under a live game served by a real uvicorn: moves are kept, and the log says
what was skipped in one line each (no traceback); once Redis is back, moves broadcast
again."""

import os
import random
import uuid

import pytest
from django.conf import settings

from games.models import Game
from tests import servers
from tests.web.test_two_processes import _game, chosen_move

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="needs PostgreSQL: SQLite's test database is this process's"),
]


@pytest.fixture
def web_on_private_redis(tmp_path):
    """One web process whose channel layer, cache and Celery broker are a private redis-server;
    yields its URL, its log's path and a function that stops or starts that Redis (its
    `.url` and the process's key `.prefix` beside)."""
    redis_port = servers.free_port()
    with servers.redis_server(redis_port, tmp_path) as restart:
        redis_url = f"redis://127.0.0.1:{redis_port}/0"
        restart.url, restart.prefix = redis_url, uuid.uuid4().hex[:8]
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "blaze_site.settings",
               "DATABASE_URL": servers.database_url(settings.DATABASES["default"]),
               "BLAZE_INMEMORY": "0", "REDIS_URL": redis_url, "CACHE_URL": redis_url,
               "CELERY_BROKER_URL": redis_url, "CELERY_TASK_ALWAYS_EAGER": "0",
               "CHANNEL_LAYER_PREFIX": restart.prefix,
               "DEBUG": "1", "BLAZE_ENV": "development", "DB_POOL_MAX_SIZE": "2"}
        log = tmp_path / "web.log"
        with servers.web(env, log) as site:
            yield site.url, log, restart


def _play(url, game_id, tokens, rng) -> int:
    """One move by a seat the game waits on; the seq the server answers."""
    seat = servers.http_json("GET", f"{url}/api/v1/games/{game_id}", tokens[0][1])[
        "waiting_on"][0]
    seq, move = chosen_move(url, game_id, tokens[seat][1], seat, rng)
    answer = servers.http_json("POST", f"{url}/api/v1/games/{game_id}/moves",
                               tokens[seat][1], {"seq": seq, "move": move})
    return answer["seq"]


def test_a_move_made_while_redis_is_down_is_kept_and_what_was_skipped_is_one_log_line(
        web_on_private_redis):
    url, log_path, redis = web_on_private_redis
    game_id, tokens = _game()
    rng = random.Random(2)
    redis.stop()
    # the process's first move: its live deadline check is not queued yet
    seq = _play(url, game_id, tokens, rng)
    assert Game.objects.get(pk=game_id).seq == seq == 1  # the move is kept
    text = log_path.read_text()
    assert f"broadcast of game {game_id} seq {seq} not sent" in text
    assert f"live deadline check of game {game_id} not queued" in text  # the sweep's job
    assert "Traceback" not in text, text[-3000:]
    redis.start()
    seq = _play(url, game_id, tokens, rng)
    assert Game.objects.get(pk=game_id).seq == seq == 2
    text = log_path.read_text()
    assert f"seq {seq} not sent" not in text and "Traceback" not in text, text[-3000:]


def test_a_token_revoked_after_a_redis_restart_is_refused_by_the_web_process(
        web_on_private_redis, settings):
    """The process's listener of token changes (lib.change_feed) reconnects by itself: a
    revocation announced once Redis is back (empty) reaches it, with no hand."""
    from accounts.services import api_token_create, api_token_revoke
    from tests.conftest import make_user

    url, log_path, redis = web_on_private_redis
    settings.CACHES = {"default": {"BACKEND": "lib.redis_cache.SharedPoolRedisCache",
                                   "LOCATION": redis.url, "KEY_PREFIX": redis.prefix}}
    token, secret = api_token_create(user=make_user("ann"), name="t")
    for _ in range(3):  # remembered, while Redis answers
        servers.http_json("GET", f"{url}/api/v1/games", secret)
    redis.stop()
    servers.http_json("GET", f"{url}/api/v1/games", secret)  # looked up in the database
    redis.start()
    assert api_token_revoke(user=token.user, token_id=token.pk)
    servers.until_refused(url, secret)
    assert "Traceback" not in log_path.read_text()
