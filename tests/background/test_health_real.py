"""/healthz on a real uvicorn with a private Redis: it says whether a worker and beat are
alive (their heartbeats), keeps no subscription per call, and a database connection that
died with the server (PostgreSQL restarted) fails no request."""

import io
import json
import subprocess
import sys
import urllib.error
import urllib.request
import uuid

import psycopg
import pytest
import redis
from django.conf import settings
from django.db import connection

from tests import servers, workers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.BLAZE_INMEMORY
                       or "postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="needs Redis and PostgreSQL"),
]
ANSWERS = {"ok", "failing", "not used"}


@pytest.fixture
def site(tmp_path):
    """A web server on a private redis-server, with the environment a worker and beat share."""
    redis_port = servers.free_port()
    with servers.redis_server(redis_port, tmp_path):
        url = f"redis://127.0.0.1:{redis_port}/0"
        prefix = workers.new_prefix()
        env = workers.worker_env(
            prefix, REDIS_URL=url, CACHE_URL=url, CELERY_BROKER_URL=url,
            CHANNEL_LAYER_PREFIX=uuid.uuid4().hex[:8], BLAZE_HEARTBEAT_SECONDS="1",
            DJANGO_SETTINGS_MODULE="blaze_site.settings", DEBUG="1",
            BLAZE_ENV="development", DB_POOL_MAX_SIZE="2")
        with servers.web(env, tmp_path / "web.log") as web:
            yield web.url, env, prefix, redis.Redis.from_url(url)


def _healthz(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _beat(env: dict, tmp_path) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "blaze_site", "beat", "-l", "warning",
         "-s", str(tmp_path / "beat-schedule")],
        cwd=workers.ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    proc.log = io.BytesIO()  # workers.worker_stop reads it
    return proc


def _parts(url: str) -> dict:
    return _healthz(url)[1]["checks"]


def test_healthz_tells_whether_a_worker_and_beat_are_alive(site, tmp_path):
    url, env, prefix, _ = site
    status, body = _healthz(url)
    assert status == 503 and body["checks"]["worker"] == body["checks"]["beat"] == "failing"
    beat = _beat(env, tmp_path)
    worker = workers.worker_start(prefix, env)
    try:
        assert workers.wait_for(lambda: _healthz(url)[0] == 200), _healthz(url)
        status, body = _healthz(url)
        assert body["checks"] == {"database": "ok", "redis": "ok", "channel_layer": "ok",
                                  "worker": "ok", "beat": "ok"}
        workers.worker_stop(worker)
        assert workers.wait_for(lambda: _parts(url)["worker"] == "failing")
        status, body = _healthz(url)
        assert status == 503 and body["checks"]["beat"] == "ok"
        assert set(body) == {"status", "checks"} and set(body["checks"].values()) <= ANSWERS
    finally:
        workers.worker_stop(worker)
        workers.worker_stop(beat)
        workers.broker_cleanup(prefix, env["CELERY_BROKER_URL"])


def _subscriptions(client) -> int:
    return len(client.pubsub_channels())


def test_anonymous_healthz_calls_leave_no_subscription_behind(site):
    url, _, _, client = site
    _healthz(url)
    before = _subscriptions(client)
    for _ in range(200):
        assert _parts(url)["channel_layer"] == "ok"
    assert _subscriptions(client) == before


def _connections_opened(client) -> int:
    return client.info("stats")["total_connections_received"]


def test_health_probes_share_one_channel_layer_connection_per_web_process(site):
    """Each probe used to run its round trip on an event loop of its own (a sync view's
    async_to_sync), with a Redis connection and subscription of its own and channels-redis's
    first wait: now only the Redis check's own ping connects anew."""
    url, _, _, client = site
    _healthz(url)  # the process's layer connection and its one subscription
    before = _connections_opened(client)
    for _ in range(20):
        assert _parts(url)["channel_layer"] == "ok"
    assert _connections_opened(client) - before <= 20  # the Redis check's pings


def test_connections_that_died_with_the_database_server_fail_no_request(site):
    url, *_ = site
    for _ in range(4):  # the pool holds connections now
        assert _parts(url)["database"] == "ok"
    connection.ensure_connection()
    ours = connection.connection.info.backend_pid  # this test's own: not the site's
    with psycopg.connect(servers.database_url(settings.DATABASES["default"]),
                         autocommit=True) as admin:
        # with a timeout it returns once the backends ended, not when they were signalled:
        # a request in between meets a connection still alive (as Django's own check would)
        killed = admin.execute(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), %s)",
            [ours]).fetchone()[0]
    assert killed, "no pooled connection to cut"
    assert [_parts(url)["database"] for _ in range(6)] == ["ok"] * 6
