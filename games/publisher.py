"""Where synchronous code (a request's thread, a Celery task) sends to the channel layer:
one event loop a process, on a thread of its own, with its Redis connection kept open.

`async_to_sync` from a Celery task made a new event loop, and so a new channel-layer
connection, for every broadcast; from a request's thread it waited for daphne's event
loop, busy with every socket. The in-memory layer (no Redis) keeps `async_to_sync`: its
queues belong to the loop of the consumers that read them.
"""

import asyncio
import os
import threading

from asgiref.sync import async_to_sync
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


def publish(layer, send, *args) -> None:
    """Run the coroutine function `send(layer, *args)` to its end, from synchronous code."""
    if isinstance(layer, InMemoryChannelLayer):
        async_to_sync(send)(layer, *args)
        return
    future = asyncio.run_coroutine_threadsafe(send(layer, *args), _publisher_loop())
    future.result(timeout=SEND_SECONDS)
