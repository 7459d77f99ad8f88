"""WebSocket routes (wrapped in AuthMiddlewareStack + AllowedHostsOriginValidator by asgi)."""

from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from games.live.consumers import GameConsumer
from games.live.ws_auth import TokenAuthMiddleware
from notifications.consumers import NoticeConsumer

websocket_urlpatterns: list = [
    path("ws/games/<int:game_id>/", TokenAuthMiddleware(GameConsumer.as_asgi())),
    path("ws/notices/", TokenAuthMiddleware(NoticeConsumer.as_asgi())),
    # any other path: the handshake is refused (403), as for a game that is not there;
    # without it channels' router raises and the server answers 500
    re_path(r"", WebsocketDenier.as_asgi()),
]
