"""Is the site able to serve? Database, Redis (the broker), the channel layer of this
process, and the background: a worker and beat alive (their heartbeats, ops.heartbeat).

Answers name each part and say "ok" or "failing" (or "not used"): never an address, a
message or anything else from the configuration.
"""

import asyncio
import logging
import threading
import weakref

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)
TIMEOUT = 2.0  # seconds per check: a load balancer must get an answer
# One channel per event loop (_health_loop's: one a process), for every call: a new channel a
# call stayed subscribed (pub/sub layer) and kept its queue, a leak per anonymous request.
_channels: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _redis() -> str:
    if settings.BLAZE_INMEMORY:
        return "not used"
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=TIMEOUT,
                                  socket_connect_timeout=TIMEOUT)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


async def _layer_round_trip() -> None:
    layer = get_channel_layer()
    loop = asyncio.get_running_loop()
    channel = _channels.get(loop)
    if channel is None:  # subscribed before the first send (pub/sub drops unheard ones)
        channel = _channels[loop] = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    try:
        message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
    except BaseException:
        _channels.pop(loop, None)  # a cancelled receive unsubscribed it: a new one next
        raise
    if message.get("type") != "healthz.ping":
        raise RuntimeError("the channel layer returned another message")


def _health_loop() -> asyncio.AbstractEventLoop:
    """The process's one event loop for the round trip, in a thread of its own. A view's
    async_to_sync (behind sync middleware even an async view's) ran each round trip on a
    new loop: a Redis connection, a subscription and channels-redis's first 0.1 s wait a
    probe."""
    global _loop
    with _loop_lock:
        if _loop is None or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="healthz-loop",
                             daemon=True).start()
        return _loop


def _channel_layer() -> str:
    asyncio.run_coroutine_threadsafe(_layer_round_trip(), _health_loop()).result(2 * TIMEOUT)
    return "ok"


def _background() -> dict:
    """{"worker": ..., "beat": ...}: "not used" when tasks run in the web process."""
    if settings.BLAZE_INMEMORY or settings.CELERY_TASK_ALWAYS_EAGER:
        return {"worker": "not used", "beat": "not used"}
    from .heartbeat import alive

    return {part: "ok" if up else "failing" for part, up in alive().items()}


CHECKS = {"database": _database, "redis": _redis, "channel_layer": _channel_layer}


def _failure(e: Exception) -> str:
    lines = str(e).strip().splitlines()
    return f"{type(e).__name__}: {lines[0]}" if lines else type(e).__name__


def health() -> dict:
    """{"status": "ok" | "failing", "checks": {part: "ok" | "failing" | "not used"}}"""
    checks = {}
    for name, check in CHECKS.items():
        try:
            checks[name] = check()
        except Exception as e:  # one line for the operator's log, not a traceback a call
            log.warning("health check %s failing: %s", name, _failure(e))
            checks[name] = "failing"
    if checks["database"] == "ok":
        try:
            checks.update(_background())
        except Exception as e:
            log.warning("health check background failing: %s", _failure(e))
            checks.update(worker="failing", beat="failing")
    else:  # the heartbeats are rows: unknown without the database
        checks.update(worker="failing", beat="failing")
    status = "failing" if "failing" in checks.values() else "ok"
    return {"status": status, "checks": checks}
