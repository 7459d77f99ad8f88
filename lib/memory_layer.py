"""channels' in-memory layer, told which event loop reads it.

Its queues are asyncio queues of the loop the sockets' consumers run on (daphne's). A
request thread that sends a view with `async_to_sync` runs the send on a loop of its own:
the consumer's waiting future was completed from the wrong thread and its loop was not
woken, so views waited for the next timer and piled up past the layer's capacity (a bot
game ended inside one request lost its last views: the page never showed the ranking).
This layer remembers the loop of its readers; games.live.publisher sends on it.
"""

import asyncio

from channels.layers import InMemoryChannelLayer


class InMemoryLayer(InMemoryChannelLayer):
    loop: asyncio.AbstractEventLoop | None = None

    async def receive(self, channel):
        self.loop = asyncio.get_running_loop()
        return await super().receive(channel)

    async def group_add(self, group, channel):
        self.loop = asyncio.get_running_loop()
        return await super().group_add(group, channel)

    def reader_loop(self) -> asyncio.AbstractEventLoop | None:
        """The running loop of this layer's readers, when the calling thread is not in it."""
        loop = self.loop
        if loop is None or loop.is_closed() or not loop.is_running():
            return None
        try:
            if asyncio.get_running_loop() is loop:
                return None
        except RuntimeError:  # no loop in this thread
            pass
        return loop
