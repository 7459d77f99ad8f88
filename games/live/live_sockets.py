"""Open game WebSockets, counted per server process for the staff status page.

Each process keeps its own count and writes it to the cache within a second of a change (with
CACHE_URL=redis://… every process's count is seen; with the default local-memory cache
only the process that renders the page).
"""

import asyncio
import logging
import os
import socket
import time

from django.core.cache import cache

log = logging.getLogger(__name__)
PROCESS = f"{socket.gethostname()}:{os.getpid()}"
KEY = "live-sockets"
KEEP = 24 * 3600  # a process not heard of for a day is forgotten
# The count is written at most this often: a wave of connections (a restart brings every
# client back at once) must not queue a cache write each on the consumers' one thread.
PUBLISH_EVERY = 1.0
_open = 0
_scheduled_on = None  # the loop a publication is waiting on


async def opened() -> None:
    global _open
    _open += 1
    _publish_soon()


async def closed() -> None:
    global _open
    _open = max(0, _open - 1)
    _publish_soon()


def _publish_soon() -> None:
    global _scheduled_on
    loop = asyncio.get_running_loop()
    if _scheduled_on is loop and not loop.is_closed():
        return  # one is on its way, and will carry this change too
    _scheduled_on = loop
    loop.call_later(PUBLISH_EVERY, lambda: loop.create_task(_publish_now()))


async def _publish_now() -> None:
    global _scheduled_on
    _scheduled_on = None
    await _publish()


async def _publish() -> None:
    try:
        await cache.aset(f"{KEY}:{PROCESS}", {"open": _open, "at": time.time()}, KEEP)
        processes = await cache.aget(KEY) or []
        if PROCESS not in processes:
            await cache.aset(KEY, [*processes[-49:], PROCESS], KEEP)
    except Exception:  # counting must never break a connection
        log.exception("could not publish the socket count")


def per_process() -> list[dict]:
    """[{"process", "open", "at"}] for every process heard of; this one's count is its own,
    exact and current."""
    processes = cache.get(KEY) or []
    counts = cache.get_many([f"{KEY}:{p}" for p in processes if p != PROCESS])
    out = [{"process": p, **counts[f"{KEY}:{p}"]} for p in processes
           if f"{KEY}:{p}" in counts]
    out.append({"process": PROCESS, "open": _open, "at": time.time()})
    return out
