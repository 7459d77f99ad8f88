"""ws/notices/: a signed-in player's pages hear their unread count live (live.py lists
the messages). Nothing a client sends changes anything; it may only ping."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.live import messages
from games.live.dispatch_loop import ReaderPerSource

from . import live

CLOSE_UNAUTHORIZED = 4401


class NoticeConsumer(ReaderPerSource, messages.ReadableRefusal, messages.LenientJson,
                     AsyncJsonWebsocketConsumer):
    async def connect(self):
        self.groups_joined: list[str] = []
        self.frames = messages.FrameBucket()
        user = self.scope.get("user")
        if self.scope.get("handshake_late"):  # games.live.ws_auth: the client tries again
            await self.refuse_busy()
            return
        if self.scope.get("token_invalid") or user is None or not user.is_authenticated \
                or getattr(user, "is_guest", False):
            await self.refuse(CLOSE_UNAUTHORIZED)
            return
        self.user_id = user.pk
        # closed like a table's socket when the session logs out or the token is revoked
        groups = [live.notices_group(user.pk), messages.user_group(user.pk)]
        if self.scope.get("token_id") is not None:
            groups.append(messages.token_group(self.scope["token_id"]))
        elif self.scope.get("session") is not None and self.scope["session"].session_key:
            groups.append(messages.session_group(self.scope["session"].session_key))
        for group in groups:  # joined before counting: a change between is not missed
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.accept()
        count = await database_sync_to_async(live.unread_count)(user.pk)
        await self.send_json(live.unread_message(count))

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if not self.frames.allowed():
            await self.send_json(messages.too_many_message())
        elif text_data is None:
            await self.send_json(messages.error_message(
                "binary frames are not understood: send JSON text"))
        elif not text_data:  # channels' JSON consumer would end the socket
            await self.receive_json(None)
        else:
            await super().receive(text_data=text_data, **kwargs)

    async def receive_json(self, content, **kwargs):
        if isinstance(content, dict) and content.get("type") == messages.PING:
            await self.send_json(messages.pong_message())
        else:
            await self.send_json(messages.error_message(
                'unknown message: send {"type": "ping"}; nothing else is read here'))

    async def notices_unread(self, event):
        await self.send_json(live.unread_message(event["count"]))

    async def auth_revoked(self, event):
        await self.close(code=CLOSE_UNAUTHORIZED)
