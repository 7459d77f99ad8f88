import os
from urllib.parse import parse_qs, urlparse

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")
# Set up Django before importing anything that touches models (consumers, auth).
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application

from django.conf import settings  # noqa: E402

from .http_threads import ThreadedWSGIHandler  # noqa: E402
from .scheduling import choose_policy  # noqa: E402

choose_policy(settings.WEB_SCHED_BATCH)  # before the process starts threads: they inherit it

# the threads that serve HTTP requests (no limit at the gate: as many as a busy site uses)
django_asgi_app = ThreadedWSGIHandler(settings.WEB_SYNC_THREADS or 32)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import OriginValidator, WebsocketDenier  # noqa: E402

from games.live.ws_threads import HandshakeAuthMiddlewareStack  # noqa: E402

from .body_limit import BodyLimitMiddleware  # noqa: E402
from .daphne_sockets import DropSendsWhileClosing  # noqa: E402
from .routing import websocket_urlpatterns  # noqa: E402
from .sync_gate import SyncGate  # noqa: E402


class ProgramsOrAllowedOrigins(OriginValidator):
    """Browsers always send Origin: it must be one of ALLOWED_HOSTS (as channels'
    AllowedHostsOriginValidator). Programs send none: API.md lets them connect with
    `?token=…` (or an Authorization header, which no page can set on a socket), which a
    cross-site page cannot know, so no Origin plus a token passes. An Origin that is not
    a URL is refused (channels' parsing would raise: a 500)."""

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        query = parse_qs(scope.get("query_string", b"").decode("latin1"))
        if b"origin" not in headers and ("token" in query or _bearer(headers)):
            return await self.application(scope, receive, send)
        if b"origin" in headers:
            try:
                urlparse(headers[b"origin"].decode("latin1"))
            except ValueError:
                return await WebsocketDenier()(scope, receive, send)
        return await super().__call__(scope, receive, send)


def _bearer(headers: dict) -> bool:
    """Whether the Authorization header carries a bearer token (judged by the socket's
    authentication; an empty or other scheme is no token)."""
    scheme, _sep, token = headers.get(b"authorization", b"").partition(b" ")
    return scheme.lower() == b"bearer" and bool(token.strip())


def _allowed_origins() -> list[str]:
    hosts = settings.ALLOWED_HOSTS
    return ["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG and not hosts else hosts


application = ProtocolTypeRouter(
    {
        "http": BodyLimitMiddleware(SyncGate(django_asgi_app, settings.WEB_SYNC_THREADS),
                                    settings.BLAZE_MAX_BODY_BYTES),
        "websocket": DropSendsWhileClosing(ProgramsOrAllowedOrigins(
            HandshakeAuthMiddlewareStack(URLRouter(websocket_urlpatterns)), _allowed_origins()
        )),
    }
)

from .gc_tuning import tune  # noqa: E402

tune(settings.WEB_GC_GEN0_THRESHOLD)  # last: everything made at start-up is frozen
