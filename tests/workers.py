"""Real Celery worker processes for tests: each test gets its own queue prefix, so the
per-kind queues (<prefix>.bots, .clocks, .mail) of parallel runs sharing a Redis never meet."""

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import redis
from django.conf import settings
from django.db import connection

from blaze_site.celery import app as celery_app
from blaze_site.queues import queue_names, task_routes

ROOT = Path(__file__).resolve().parents[1]


def new_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"


def database_url() -> str:
    db = connection.settings_dict  # inside a django_db test: NAME is test_<name>
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_env(prefix: str, **extra: str) -> dict:
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "BLAZE_INMEMORY": "0",
        "CELERY_TASK_DEFAULT_QUEUE": prefix,
        "BOT_PAUSE_SECONDS": "0",
        "EMAIL_URL": "consolemail://",
        "LOG_LEVEL": "WARNING",
        **extra,
    }


def worker_start(prefix: str, env: dict, *, pool: str = "solo",
                 beat_schedule: Path | None = None) -> subprocess.Popen:
    """`celery worker` reading every queue of `prefix` (`-B`: with beat inside)."""
    command = [sys.executable, "-m", "celery", "-A", "blaze_site", "worker", "-P", pool,
               "-c", "1", "-Q", ",".join(queue_names(prefix)), "--without-gossip",
               "--without-mingle", "--without-heartbeat", "-l", "warning"]
    if beat_schedule is not None:
        command += ["-B", "-s", str(beat_schedule)]
    # A session of its own: a test can kill the worker with all its children.
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def worker_stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> str:
    """Stop the worker and its children; returns what it wrote to stderr."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
    return err.decode(errors="replace")


def tracebacks(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "Traceback" in line]


@contextmanager
def sending_to(prefix: str, broker_url: str | None = None):
    """Tasks this process queues go to `prefix`'s queues (and `broker_url`), not eagerly."""
    conf = celery_app.conf
    before = (conf.task_always_eager, conf.task_routes, conf.task_default_queue,
              conf.broker_url)
    conf.task_always_eager = False
    conf.task_routes = task_routes(prefix)
    conf.task_default_queue = prefix
    if broker_url:
        conf.broker_url = broker_url
        celery_app.pool.force_close_all()
        celery_app.__dict__.pop("pool", None)
        celery_app.amqp.__dict__.pop("producer_pool", None)
    _routes_reset()
    try:
        yield
    finally:
        (conf.task_always_eager, conf.task_routes, conf.task_default_queue,
         conf.broker_url) = before
        if broker_url:
            celery_app.pool.force_close_all()
            celery_app.__dict__.pop("pool", None)
            celery_app.amqp.__dict__.pop("producer_pool", None)
        _routes_reset()


def _routes_reset() -> None:
    celery_app.amqp.flush_routes()  # the router is cached: rebuild it
    celery_app.amqp.__dict__.pop("router", None)


def broker(url: str | None = None) -> redis.Redis:
    return redis.Redis.from_url(url or settings.CELERY_BROKER_URL)


def queued(prefix: str, url: str | None = None) -> dict:
    """{queue: [task names]} waiting in Redis for `prefix`, and "unacked": tasks taken by a
    worker and not acknowledged yet (kombu keeps them in the `unacked` hash)."""
    r = broker(url)
    out = {q: [json.loads(m)["headers"]["task"] for m in r.lrange(q, 0, -1)]
           for q in queue_names(prefix)}
    out["unacked"] = [
        message["headers"]["task"]
        for message, _exchange, routing_key in _unacked(r)
        if routing_key in out
    ]
    return out


def _unacked(r: redis.Redis) -> list:
    return [json.loads(raw) for raw in r.hvals("unacked")]


def broker_cleanup(prefix: str, url: str | None = None) -> None:
    """Remove this test's queues and unacknowledged tasks from a shared Redis (only ours)."""
    r = broker(url)
    names = set(queue_names(prefix))
    r.delete(*names)
    for tag, raw in r.hgetall("unacked").items():
        if json.loads(raw)[2] in names:
            r.hdel("unacked", tag)
            r.zrem("unacked_index", tag)


def wait_for(predicate, timeout: float = 120.0, interval: float = 0.2) -> bool:
    """Poll until `predicate()` holds; a generous timeout only stops a hung test."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return False
