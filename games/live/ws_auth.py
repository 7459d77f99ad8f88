"""WebSocket authentication: an API token for programs (an `Authorization: Bearer` header,
or `?token=`), the session for browsers; and the closing of open sockets when their token
is revoked, their session logs out or their user is deactivated."""

import logging
from urllib.parse import parse_qs

from channels.layers import get_channel_layer

from accounts.services import api_token_find

from . import messages
from .ws_threads import HandshakeExpired, handshake_read

log = logging.getLogger(__name__)


def token_given(scope) -> str | None:
    """The API token a socket's request carries: an `Authorization: Bearer …` header (kept
    out of access logs), or the older `?token=` parameter; None for neither."""
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            kind, _, secret = value.decode("latin-1").partition(" ")
            if kind.lower() == "bearer" and secret.strip():
                return secret.strip()
    query = parse_qs(scope.get("query_string", b"").decode())
    return query["token"][0] if "token" in query else None


class TokenAuthMiddleware:
    """A token (header or `?token=`), when present, decides the user alone: a wrong one
    marks the scope `token_invalid` and the consumer refuses the connection (a final
    4401); one whose read came too late (ws_threads) marks it `handshake_late`, refused as
    busy (messages.ReadableRefusal.refuse_busy), so the client tries again."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        secret = token_given(scope)
        if secret is not None:
            try:
                token = await handshake_read(scope, api_token_find, secret)
            except HandshakeExpired:  # too late: refused, but not as a wrong token is
                return await self.inner(dict(scope, user=None, token_invalid=False,
                                             token_id=None, handshake_late=True),
                                        receive, send)
            user = None if token is None else token.user
            scope = dict(scope, user=user, token_invalid=token is None,
                         token_id=None if token is None else token.pk)
        return await self.inner(scope, receive, send)


def _close_group(group: str) -> None:
    # Imported here: the games app connects these handlers at every start, and a command
    # that only computes (blaze_replay) should not load Redis's channel layer for them.
    from . import publisher

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        publisher.group_send_now(layer, group, messages.auth_revoked())
    except Exception:  # the revocation itself stands; sockets close on their next check
        log.exception("closing the sockets of %s failed", group)


def on_token_revoked(sender, *, token_id, **kwargs) -> None:
    _close_group(messages.token_group(token_id))


def on_user_deactivated(sender, *, user_id, **kwargs) -> None:
    _close_group(messages.user_group(user_id))


def on_logged_out(sender, request=None, **kwargs) -> None:
    session = getattr(request, "session", None)  # an HttpRequest may have no session
    if session is not None and session.session_key:
        _close_group(messages.session_group(session.session_key))
