"""Where synchronous code outside daphne (a Celery task) sends to the channel layer: one
event loop a process, on a thread of its own, with its Redis connection kept open.

`async_to_sync` there made a new event loop, and so a new channel-layer connection, for
every broadcast. A request's thread keeps sending through daphne's loop, and the
in-memory layer (no Redis) keeps `async_to_sync` too: its queues belong to the loop of
the consumers that read them.
"""

import asyncio
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer

SEND_SECONDS = 10.0  # a send still pending after this is given up (and logged)

_loop = None
_loop_pid = None
_lock = threading.Lock()


def _publisher_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():  # a forked worker starts its own
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-publisher",
                             daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def _callers_loop():
    """The running event loop that called this thread through sync_to_async (daphne's,
    for a request), read where async_to_sync reads it; None in a Celery task."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(local, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def publish(layer, send, *args) -> None:
    """Run the coroutine function `send(layer, *args)` to its end, from synchronous code."""
    if isinstance(layer, InMemoryChannelLayer) or _callers_loop() is not None:
        # a request's thread: daphne's loop sends (measured: a third thread costs the web
        # process more than it saves)
        async_to_sync(send)(layer, *args)
        return
    future = asyncio.run_coroutine_threadsafe(send(layer, *args), _publisher_loop())
    future.result(timeout=SEND_SECONDS)
