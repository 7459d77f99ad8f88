"""Live updates for one game: each connection gets its own user's view (messages.py).

The view is read from the database once, on connect (and on "sync"); after that the
writer of every change sends each seat's view ready-made (games.live.broadcast), and the
consumer only forwards it.
"""

import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError
from django.utils import translation

from accounts.language import language_of_socket

from ..models import Game
from ..selectors import game_and_seats, game_view_for
from ..visibility import can_watch, invite_given
from . import anon_sockets, live_sockets, messages
from .dispatch_loop import ReaderPerSource
from .presence import apresence_leave, apresence_touch, presence_heartbeat
from .watchers import game_watch_mark, watch_due, watch_missed
from .ws_threads import HandshakeExpired, handshake_read

log = logging.getLogger(__name__)

CLOSE_UNAUTHORIZED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429  # too many anonymous sockets from one address


@database_sync_to_async
def _view_for(game_id: int, user, language: str, mark: bool = False) -> dict | None:
    """The user's view; with `mark`, a user without a seat marks the game watched."""
    found = game_and_seats(game_id)
    if found is None:
        return None
    with translation.override(language):
        view = game_view_for(found[0], user, found[1], log_tail=found.log_tail)
    if mark and view["you"] is None and watch_due(game_id):
        game_watch_mark(game_id=game_id)
    return view


@database_sync_to_async
def _mark_watched(game_id: int) -> None:
    try:
        game_watch_mark(game_id=game_id)
    except DatabaseError as exc:  # a restart: the next ping tries again, the socket stays
        log.warning("game %s not marked watched: %s", game_id, exc)


def _watchable(game_id: int, user, scope) -> bool:
    """Whether the game exists and the user may watch it: all that is read before the
    handshake completes (the view is read after), so a wave of connections is answered
    within the handshake's time limit."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False
    given = dict(scope.get("headers") or ()).get(b"blaze-invite", b"").decode("latin1") or \
        parse_qs(scope.get("query_string", b"").decode("latin1")).get("invite", [""])[0]
    return can_watch(game, user, invite=invite_given(scope.get("session"), game_id, given))


class GameConsumer(ReaderPerSource, messages.ReadableRefusal, messages.LenientJson,
                   AsyncJsonWebsocketConsumer):
    """ws/games/<id>/: sends {"type": "view", ...} on connect and after every change."""

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.groups_joined: set[str] = set()
        self.last_seq = -1
        self.watching = False  # set once the user may see the game: views go out then
        self.spectating = False  # without a seat (its pings keep the game marked watched)
        self.frames = messages.FrameBucket()
        user = self.scope.get("user")
        self.language = language_of_socket(self.scope)  # its log lines and names in it
        if self.scope.get("handshake_late"):
            await self.refuse_busy()
            return
        if self.scope.get("token_invalid"):
            await self.refuse(CLOSE_UNAUTHORIZED)
            return
        # Anonymous visitors may watch public games (no presence).
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        guest = self.user_id is None or getattr(user, "is_guest", False)
        self.reader_class = messages.GUEST if guest else messages.MEMBER
        if self.user_id is None:
            if not anon_sockets.claim(self.scope):
                await self.refuse(CLOSE_TOO_MANY)
                return
            self.anon_claimed = True
        await self._join(self._auth_group())
        if self.user_id is not None:
            await self._join(messages.user_group(self.user_id))
        try:
            watchable = await handshake_read(self.scope, _watchable, self.game_id, user,
                                             self.scope)
        except HandshakeExpired:
            # daphne has dropped the connection already (the close goes nowhere); uvicorn
            # has no handshake limit and waits for an answer: busy, try again
            await self.refuse_busy()
            return
        if not watchable:
            # A game one may not watch is as good as missing.
            self._anon_release()
            await self.refuse(CLOSE_NOT_FOUND if self.user_id else CLOSE_UNAUTHORIZED)
            return
        # The game's views reach only a socket allowed to watch; it joins before its first
        # view is read, so a change between the two is not missed.
        self.watching = True
        await self._join(messages.game_group(self.game_id))
        await self.accept()
        await live_sockets.opened()
        self.counted = True
        view = await _view_for(self.game_id, user, self.language, mark=True)
        if view is None:  # deleted meanwhile
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if self.user_id is not None:
            # An open table means no "your turn" email for this game (correspondence).
            await apresence_touch(self.user_id, self.game_id)
        self.spectating = view["you"] is None
        await self._forward(view)

    def _anon_release(self) -> None:
        """Once per socket, whichever way it ends (refused, or closed later)."""
        if getattr(self, "anon_claimed", False):
            self.anon_claimed = False
            anon_sockets.release(self.scope)

    async def disconnect(self, code):
        self._anon_release()
        if getattr(self, "counted", False):
            await live_sockets.closed()
        if getattr(self, "user_id", None) is not None:
            await apresence_leave(self.user_id, self.game_id)
        for group in list(getattr(self, "groups_joined", ())):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def dispatch(self, message):
        """Messages the writer built ready to send touch no database: they go straight to
        their handler. channels' own dispatch (which every other message still takes) first
        hops to a thread to close old database connections, for every message to every
        socket: measured, 1.6 ms of a web process's CPU a move (docs/history/live-play.md). So do
        the client's frames (a ping every 25 s a socket): the one that reads the database
        ("sync") does it through database_sync_to_async, which closes old connections."""
        kind = message.get("type")
        if kind == messages.GAME_VIEWS:
            await self.game_views(message)
        elif kind == messages.GAME_DELIVER:
            await self.game_deliver(message)
        elif kind == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    # ---- from the client ------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if not self.frames.allowed():
            await self.send_json(messages.too_many_message())
            return
        if text_data is None:
            await self.send_json(messages.error_message(
                "binary frames are not understood: send JSON text"))
            return
        if not text_data:  # an empty frame: channels' JSON consumer would end the socket
            await self.receive_json(None)
            return
        await super().receive(text_data=text_data, **kwargs)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == messages.SYNC:
            view = await _view_for(self.game_id, self.scope["user"], self.language)
            if view is None:
                await self.close(code=CLOSE_NOT_FOUND)
                return
            await self._forward(view, force=True)
        elif kind == messages.PING:
            if self.user_id is not None:
                presence_heartbeat(self.user_id, self.game_id)
            if self.spectating and watch_due(self.game_id):
                await _mark_watched(self.game_id)
            await self.send_json(messages.pong_message())
        else:
            await self.send_json(messages.error_message(
                'unknown message: send {"type": "sync"} or {"type": "ping"}; '
                "moves go through POST /api/v1/games/{id}/moves"
            ))

    # ---- from the channel layer ------------------------------------------------------------

    async def game_views(self, event):
        """A committed change: every view, encoded by the writer; this socket sends its
        own user's (the spectators' when the user has no seat)."""
        if not self.watching:
            return
        key = str(self.user_id)
        if key in event["texts"]:
            self.spectating = False
            if event.get("languages", {}).get(key, self.language) == self.language:
                await self._forward_text(event["seq"], event["texts"][key])
                return
            # a player whose account names no language, on a page in another one: the
            # view again, in this socket's language (rare: guests get the page's language)
            view = await _view_for(self.game_id, self.scope["user"], self.language)
            if view is not None:
                await self._forward(view)
            return
        self.spectating = True
        text = (event.get("spectators") or {}).get(self.language) or event["spectator"]
        if text is None:  # built while the game was not marked watched: read it
            watch_missed(self.game_id)
            view = await _view_for(self.game_id, self.scope["user"], self.language, mark=True)
            if view is not None:
                await self._forward(view)
            return
        await self._forward_text(event["seq"], text)

    async def game_deliver(self, event):
        """A text for each kind of reader (messages.py): this socket sends its own."""
        if not self.watching:
            return
        reader_class = event["users"].get(str(self.user_id), False)
        if reader_class is False:
            if event.get("only_users"):
                return
            reader_class = self.reader_class
        text = event["texts"].get(f"{reader_class}:{self.language}") \
            if reader_class else None
        if text:
            await self.send(text_data=text)

    async def auth_revoked(self, event):
        await self.close(code=CLOSE_UNAUTHORIZED)

    # ---- helpers ---------------------------------------------------------------------------

    async def _forward(self, view: dict, force: bool = False):
        await self._forward_text(view["seq"], messages.view_text(view), force)

    async def _forward_text(self, seq: int, text: str, force: bool = False):
        if seq < self.last_seq and not force:
            return  # an older event arriving late: the client already has newer
        self.last_seq = seq
        await self.send(text_data=text)

    async def _join(self, group: str | None):
        if group and group not in self.groups_joined:
            self.groups_joined.add(group)
            await self.channel_layer.group_add(group, self.channel_name)

    def _auth_group(self) -> str | None:
        """Closed when the token is revoked or the session logs out."""
        if self.scope.get("token_id") is not None:
            return messages.token_group(self.scope["token_id"])
        session = self.scope.get("session")
        if session is not None and session.session_key:
            return messages.session_group(session.session_key)
        return None
