"""WebSocket routes; later issues add e.g. path("ws/games/<int:game_id>/", GameConsumer)."""

websocket_urlpatterns: list = []
