"""WebSocket authentication: `?token=` for programs (browsers use the session), and the
closing of open sockets when their token is revoked or their session logs out."""

import logging
from urllib.parse import parse_qs

from channels.layers import get_channel_layer

from accounts.services import api_token_find

from . import messages, publisher
from .ws_threads import HandshakeExpired, handshake_read

log = logging.getLogger(__name__)


class TokenAuthMiddleware:
    """A `token` query parameter, when present, decides the user alone: a wrong one
    marks the scope `token_invalid` and the consumer refuses the connection."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode())
        if "token" in query:
            try:
                token = await handshake_read(scope, api_token_find, query["token"][0])
            except HandshakeExpired:
                token = None  # too late: refused like a wrong token
            user = None if token is None else token.user
            scope = dict(scope, user=user, token_invalid=token is None,
                         token_id=None if token is None else token.pk)
        return await self.inner(scope, receive, send)


def _close_group(group: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        publisher.group_send_now(layer, group, messages.auth_revoked())
    except Exception:  # the revocation itself stands; sockets close on their next check
        log.exception("closing the sockets of %s failed", group)


def on_token_revoked(sender, *, token_id, **kwargs) -> None:
    _close_group(messages.token_group(token_id))


def on_logged_out(sender, request=None, **kwargs) -> None:
    session = getattr(request, "session", None)  # an HttpRequest may have no session
    if session is not None and session.session_key:
        _close_group(messages.session_group(session.session_key))
