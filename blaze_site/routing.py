"""WebSocket routes (wrapped in AuthMiddlewareStack + AllowedHostsOriginValidator by asgi)."""

from django.urls import path

from games.live.consumers import GameConsumer
from games.live.ws_auth import TokenAuthMiddleware
from notifications.consumers import NoticeConsumer

websocket_urlpatterns: list = [
    path("ws/games/<int:game_id>/", TokenAuthMiddleware(GameConsumer.as_asgi())),
    path("ws/notices/", TokenAuthMiddleware(NoticeConsumer.as_asgi())),
]
