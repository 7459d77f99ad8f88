"""Live updates for one game: each connection gets its own user's view, never a relay."""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from . import messages
from .models import Game
from .presence import apresence_leave, apresence_touch
from .selectors import game_view_for
from .visibility import can_watch, invite_given

CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404


@database_sync_to_async
def _view_for(game_id: int, user) -> dict | None:
    game = Game.objects.filter(pk=game_id).first()
    return None if game is None else game_view_for(game, user)


@database_sync_to_async
def _watchable(game_id: int, user, scope) -> bool:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    given = parse_qs(scope.get("query_string", b"").decode("latin1")).get("invite", [""])[0]
    invite = invite_given(scope.get("session"), game_id, given)
    return can_watch(game, user, invite=invite)


class GameConsumer(AsyncJsonWebsocketConsumer):
    """ws/games/<id>/: sends {"type": "view", ...} on connect and after every change."""

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = messages.group_name(self.game_id)
        self.last_seq = -1
        user = self.scope.get("user")
        if self.scope.get("token_invalid"):
            await self.close(code=CLOSE_UNAUTHORIZED)
            return
        if not await _watchable(self.game_id, user, self.scope):
            # Anonymous visitors may watch public games only; a game one may not watch
            # is as good as missing.
            anonymous = user is None or not user.is_authenticated
            await self.close(code=CLOSE_UNAUTHORIZED if anonymous else CLOSE_NOT_FOUND)
            return
        await self.accept()
        # An open table means no "your turn" email for this game (correspondence).
        if user is not None and user.is_authenticated:
            await apresence_touch(user.pk, self.game_id)
        # Join before reading, so a change between the two is not missed.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send_view()

    async def disconnect(self, code):
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await apresence_leave(user.pk, self.game_id)
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if self.scope["user"].is_authenticated:
            await apresence_touch(self.scope["user"].pk, self.game_id)
        if kind == messages.SYNC:
            await self._send_view(force=True)
        elif kind == messages.PING:
            await self.send_json(messages.pong_message())
        else:
            await self.send_json(messages.error_message(
                'unknown message: send {"type": "sync"} or {"type": "ping"}; '
                "moves go through POST /api/v1/games/{id}/moves"
            ))

    async def game_changed(self, event):
        """Channel-layer event: rebuild this connection's view from the database."""
        await self._send_view()

    async def _send_view(self, force: bool = False):
        view = await _view_for(self.game_id, self.scope["user"])
        if view is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if view["seq"] < self.last_seq and not force:
            return  # an older event arriving late: the client already has newer
        self.last_seq = view["seq"]
        await self.send_json(messages.view_message(view))

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None
