"""Is this process able to serve? Database, Redis (the broker), the channel layer.

Answers name each part and say "ok" or "failing" (or "not used"): never an address, a
message or anything else from the configuration.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

log = logging.getLogger(__name__)
TIMEOUT = 2.0  # seconds per check: a load balancer must get an answer


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
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("the channel layer returned another message")


def _channel_layer() -> str:
    async_to_sync(_layer_round_trip)()
    return "ok"


CHECKS = {"database": _database, "redis": _redis, "channel_layer": _channel_layer}


def health() -> dict:
    """{"status": "ok" | "failing", "checks": {part: "ok" | "failing" | "not used"}}"""
    checks = {}
    for name, check in CHECKS.items():
        try:
            checks[name] = check()
        except Exception:
            log.exception("health check %s failed", name)
            checks[name] = "failing"
    status = "failing" if "failing" in checks.values() else "ok"
    return {"status": status, "checks": checks}
