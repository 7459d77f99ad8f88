"""Open game WebSockets, counted per server process for the staff status page.

Each process keeps its own count and writes it to the cache on every change (with
CACHE_URL=redis://… every process's count is seen; with the default local-memory cache
only the process that renders the page).
"""

import logging
import os
import socket
import time

from django.core.cache import cache

log = logging.getLogger(__name__)
PROCESS = f"{socket.gethostname()}:{os.getpid()}"
KEY = "live-sockets"
KEEP = 24 * 3600  # a process not heard of for a day is forgotten
_open = 0


async def opened() -> None:
    global _open
    _open += 1
    await _publish()


async def closed() -> None:
    global _open
    _open = max(0, _open - 1)
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
    """[{"process", "open", "at"}] for every process heard of, this one included."""
    processes = cache.get(KEY) or []
    counts = cache.get_many([f"{KEY}:{p}" for p in processes])
    out = [{"process": p, **counts[f"{KEY}:{p}"]} for p in processes
           if f"{KEY}:{p}" in counts]
    if PROCESS not in processes:
        out.append({"process": PROCESS, "open": _open, "at": None})
    return out
