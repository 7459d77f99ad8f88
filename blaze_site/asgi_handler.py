"""Django's ASGI handler, running a request's whole middleware chain and view in one go on
its thread.

The stock handler builds an async chain; our middleware is synchronous, so Django adapts
and a request went thread → event loop → thread and back (URL resolution on the loop in
between): two extra hops that each wait for the loop and the GIL under load. Here the
chain is built synchronous and called once through sync_to_async (an async view, should
one appear, is adapted by Django as in WSGI).
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
