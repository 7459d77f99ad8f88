"""A socket's messages dispatched one at a time, as channels' consumers do, by one reader
task per source for the socket's life.

channels' `AsyncConsumer.__call__` hands its two sources (the client's frames and the
channel layer) to `await_many_dispatch`, which after every message makes a new task for
the source it came from and waits on both again with `asyncio.wait`: a task, its context
and coroutines, a waiter future, sets and callbacks, for every message to every socket.
At 1,000 tables (2,000 sockets a process, each renewing them at every view) that was a
third of the young objects each run of the garbage collector walked, and every run
pauses the process. Here each source has one reader that hands its message to `dispatch`
under a lock, and reads its next message only once that one is dispatched: messages
still go one at a time, each source's in order, as in channels' loop.
"""

import asyncio
import functools

from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer


async def dispatch_each(sources, dispatch) -> None:
    """Read every source (an async callable returning one message) until `dispatch`
    raises; one message is dispatched at a time. The first exception ends every reader
    and is raised here."""
    lock = asyncio.Lock()

    async def read(source):
        while True:
            message = await source()
            async with lock:
                await dispatch(message)

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        done, _pending = await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
        for reader in done:
            reader.result()  # raises what ended it (readers only end by raising)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


class ReaderPerSource:
    """For an async consumer (before channels' class in the bases): channels'
    `AsyncConsumer.__call__`, the same attributes set the same way (docs/upgrades.md),
    with `dispatch_each` in place of `await_many_dispatch`."""

    async def __call__(self, scope, receive, send):
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive,
                                                     self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        try:
            await dispatch_each(sources, self.dispatch)
        except StopConsumer:
            pass
