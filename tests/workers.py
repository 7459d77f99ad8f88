"""Real Celery worker processes for tests: each test gets its own queue prefix, so the
per-kind queues (<prefix>.bots, .clocks, .mail) of parallel runs sharing a Redis never meet."""

import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import redis
from django.conf import settings
from django.db import connection

from blaze_site.celery import app as celery_app
from lib.queues import queue_names, task_routes

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
    # stderr to a file (a full pipe would stop the worker); a session of its own, so a
    # test can stop the worker with all its children.
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=log, start_new_session=True)
    proc.log = log
    return proc


def worker_log(proc: subprocess.Popen) -> str:
    proc.log.seek(0)
    return proc.log.read().decode(errors="replace")


def worker_stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> str:
    """Stop the worker and its children; returns what it wrote to stderr."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    try:  # children of a killed worker go with it
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return worker_log(proc)


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
        _connections_reset()
    _routes_reset()
    try:
        yield
    finally:
        (conf.task_always_eager, conf.task_routes, conf.task_default_queue,
         conf.broker_url) = before
        if broker_url:
            _connections_reset()
        _routes_reset()


def _connections_reset() -> None:
    """The next task sent connects to conf.broker_url afresh (as after a fork)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


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


def held_turns(prefix: str, url: str | None = None) -> list[tuple]:
    """(game_id, seq) of every bot turn a worker holds unacknowledged."""
    out = []
    for message, _exchange, routing_key in _unacked(broker(url)):
        if routing_key == f"{prefix}.bots":
            args = json.loads(base64.b64decode(message["body"]))[0]
            out.append(tuple(args))
    return out


def _unacked(r: redis.Redis) -> list:
    return [json.loads(raw) for raw in r.hvals("unacked")]


def broker_cleanup(prefix: str, url: str | None = None) -> None:
    """Remove this test's queues and unacknowledged tasks from a shared Redis (only ours)."""
    r = broker(url)
    names = set(queue_names(prefix))
    r.delete(*names, *(f"_kombu.binding.{name}" for name in names))
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


def wait_value(read, timeout: float = 120.0, interval: float = 0.05):
    """Poll until `read()` gives something other than None; that value (None: timed out)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = read()
        if value is not None:
            return value
        time.sleep(interval)
    return None
