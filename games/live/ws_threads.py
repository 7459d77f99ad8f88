"""Where a game socket's database reads run.

The reads that decide a handshake (who is connecting, may they watch) run on a thread of
their own, so a wave of connections (a restart brings every client back at once) is not
queued behind the views being read for sockets already open. A read whose handshake has
outlived daphne's time limit is skipped: the client is gone, and doing its work anyway
would only push the next handshakes past the limit too, and so on.
"""

import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import connections

# daphne's --websocket_connect_timeout (its default): past it the connection is dropped.
HANDSHAKE_SECONDS = 5.0
STARTED = "handshake_started"

_handshakes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ws-handshake")


class HandshakeExpired(Exception):
    """The handshake outlived its time limit before its read had its turn."""


async def handshake_read(scope, function, *args):
    """function(*args) on the handshake thread; HandshakeExpired when it is too late."""
    started = scope.get(STARTED) or time.monotonic()

    def run():
        if time.monotonic() - started > HANDSHAKE_SECONDS:
            raise HandshakeExpired()
        try:
            return function(*args)
        finally:
            # back to the pool at once: the connection belongs to this call's context,
            # which channels' own clean-up (run outside it) would never see
            connections.close_all()

    return await SyncToAsync(run, thread_sensitive=False, executor=_handshakes)()


class HandshakeAuthMiddleware(AuthMiddleware):
    """channels' AuthMiddleware, reading the session's user on the handshake thread."""

    async def resolve_scope(self, scope):
        try:
            user = await handshake_read(scope, get_user.func, scope)
        except HandshakeExpired:
            user = AnonymousUser()  # the consumer's own read refuses the late socket
        scope["user"]._wrapped = user

    async def __call__(self, scope, receive, send):
        scope = dict(scope, **{STARTED: time.monotonic()})
        return await super().__call__(scope, receive, send)


def HandshakeAuthMiddlewareStack(inner):  # noqa: N802 (as channels' AuthMiddlewareStack)
    return CookieMiddleware(SessionMiddleware(HandshakeAuthMiddleware(inner)))
