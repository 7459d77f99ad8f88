"""Where a game socket's database reads run.

The reads that decide a handshake (who is connecting, may they watch) run on a thread of
their own, so a wave of connections (a restart brings every client back at once) is not
queued behind the views being read for sockets already open. A read whose handshake has
outlived daphne's time limit is skipped: the client is gone, and doing its work anyway
would only push the next handshakes past the limit too, and so on. A server that waits
for the application's answer (uvicorn) has no such limit: the client is still there, and
refused, it would come back for a handshake of its own, more work than waiting. There the
limit is a longer one of ours (settings.WS_HANDSHAKE_WAIT_SECONDS): at 500 tables opened
at once, 5 s gave 5,207 faults and 30-60 s none (docs/live-play.md, session 34).
"""

import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from asgiref.sync import sync_to_async
from channels.middleware import BaseMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.db import connections

from . import messages

STARTED = "handshake_started"

_handshakes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ws-handshake")


class HandshakeExpired(Exception):
    """The handshake outlived its time limit before its read had its turn."""


def handshake_limit(scope) -> float:
    """Seconds a handshake's read may wait for its turn: daphne's limit, or ours where the
    server waits for the application's answer (uvicorn)."""
    if messages.server_awaits_answer(scope):
        return settings.WS_HANDSHAKE_WAIT_SECONDS
    return settings.WS_HANDSHAKE_SECONDS


async def handshake_read(scope, function, *args):
    """function(*args) on the handshake thread; HandshakeExpired when it is too late."""
    started = scope.get(STARTED) or time.monotonic()
    limit = handshake_limit(scope)

    def run():
        if time.monotonic() - started > limit:
            raise HandshakeExpired()
        try:
            return function(*args)
        finally:
            # back to the pool at once: the connection belongs to this call's context,
            # which channels' own clean-up (run outside it) would never see
            connections.close_all()

    return await sync_to_async(run, thread_sensitive=False, executor=_handshakes)()


def session_user(session):
    """The session's user, as Django's own `auth.get_user` finds it for a request."""
    return auth.get_user(SimpleNamespace(session=session))


class HandshakeAuthMiddleware(BaseMiddleware):
    """`scope["user"]` from the session (as channels' AuthMiddleware), read on the
    handshake thread."""

    async def __call__(self, scope, receive, send):
        scope = dict(scope, **{STARTED: time.monotonic()})
        if "session" not in scope:
            raise ValueError("HandshakeAuthMiddleware needs SessionMiddleware above it")
        try:
            user = await handshake_read(scope, session_user, scope["session"])
        except HandshakeExpired:  # refused as busy by the consumer, not as a stranger
            user = AnonymousUser()
            scope["handshake_late"] = True
        scope["user"] = user
        return await super().__call__(scope, receive, send)


def HandshakeAuthMiddlewareStack(inner):  # noqa: N802 (as channels' AuthMiddlewareStack)
    return CookieMiddleware(SessionMiddleware(HandshakeAuthMiddleware(inner)))
