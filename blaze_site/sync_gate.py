"""At most a few HTTP requests of a process run Django's synchronous code at once.

Django's ASGI handler gives every request its own thread. Under load dozens of threads
then compete for the GIL with the event loop, which holds every WebSocket and every
channel-layer message: each time the loop waits on the network it waits again for the
GIL (up to 5 ms a thread), and a broadcast of four views took half a second with ten busy
tables. Requests beyond the limit wait here, in the loop, which costs nothing; their body
is read first, so a slow upload never holds a place.
"""

import asyncio


class SyncGate:
    def __init__(self, app, limit: int):
        self.app = app
        self.limit = limit
        self._gates: dict = {}  # one semaphore per event loop

    def _gate(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(self.limit)
        return gate

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or self.limit <= 0:
            return await self.app(scope, receive, send)
        buffered = []
        while True:
            message = await receive()
            buffered.append(message)
            if message["type"] != "http.request" or not message.get("more_body", False):
                break

        async def replay():
            return buffered.pop(0) if buffered else await receive()

        async with self._gate():
            return await self.app(scope, replay, send)
