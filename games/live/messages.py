"""Every WebSocket message of ws/games/<id>/, both ways, and the channel-layer events.

Server -> client
    {"type": "view", "seq": n, "view": {...}}    after connecting, after every change,
                                                 and in answer to "sync"; the view is the
                                                 connection user's own (their seat's, or
                                                 the spectators'), never another seat's
    {"type": "pong"}                             the answer to "ping"
    {"type": "error", "error": sentence}         an unknown, malformed or binary frame, or
                                                 too many messages (the frame is dropped;
                                                 the socket stays open)
    other frames from the apps above             sent by "game.deliver" (below): table
                                                 talk's {"type": "chat", ...} (docs/chat.md)

Client -> server (conveniences only: nothing here changes a game; moves are POSTed)
    {"type": "sync"}                             resend my current view
    {"type": "ping"}                             answered with {"type": "pong"}; also marks
                                                 the table as open for the user, so no
                                                 "your turn" mail goes out meanwhile

Heartbeat and resync (what a client does; static/js builds it for the browser): send
"ping" about every 25 s (presence lasts 60 s; a proxy may drop a silent socket); on a
close, reconnect with growing pauses (1 s, 2 s, 4 s ... at most 30 s, each spread by half
either way; on HTTP 503 after Retry-After; not after 4401, 4403, 4404); on every connect
the server sends the current view, and a client keeps the view with the highest `seq`,
ignoring older ones, so nothing is lost across a reconnect.

Per connection at most RATE_BURST messages at once and RATE_PER_SECOND after that; more
are answered with an error and dropped.

Close codes: 4401 not signed in, or the token was revoked / the session logged out while
open; 4403 not allowed to watch; 4404 no such game; 4429 too many anonymous sockets from
one address. A socket refused at connect is accepted, then closed with its code, so a
client can tell a final refusal from a lost connection (ReadableRefusal); one refused
because the site is too busy to answer in time gets HTTP 503 with Retry-After (uvicorn).

Channel layer (server internal), after a change commits; the writer builds every view once
(games.live.broadcast) and consumers only forward:
    group "game-<id>"              {"type": "game.views", "seq": n,
                                   "texts": {"<user id>": "..."}, "spectator": "...",
                                   "languages": {"<user id>": "ja"},
                                   "spectators": {"<language>": "..."}}
                                   every seated user's view (in that user's language) and
                                   the spectators' one (in each language), each
                                   already the JSON text of the socket's "view" message:
                                   one message a change for all of a game's sockets; a
                                   socket joins once allowed to watch and sends only its
                                   own user's text (or the spectators' in its own
                                   language), so no other seat's view leaves the server;
                                   a seated socket of another language than its user's
                                   text reads its view again, in its language; no
                                   spectators' views (null) while nobody without a seat
                                   watches (watchers.py): such a socket reads its own
    group "game-<id>"              {"type": "game.deliver", "texts": {"<class>:<lang>": "..."},
                                   "users": {"<user id>": "<class>" or null},
                                   "only_users": bool}
                                   one text for each kind of reader, from an app above
                                   games (table talk): a socket sends the text of its
                                   reader kind, "<class>:<language>", where its class is
                                   the one `users` gives its user (null: nothing), else
                                   "guest" (anonymous or a guest account) or "member" (or
                                   nothing when `only_users`); its language is the
                                   socket's (accounts.language.language_of_socket).
                                   A missing text sends nothing. Each text is the whole
                                   frame, already encoded by the sender.
    group "auth-t<token id>"       {"type": "auth.revoked"}   the token was revoked
    group "auth-s<session hash>"   {"type": "auth.revoked"}   the session logged out
"""

import hashlib
import time

import orjson

VIEW = "view"
ERROR = "error"
PONG = "pong"
SYNC = "sync"
PING = "ping"
GAME_VIEWS = "game.views"
GAME_DELIVER = "game.deliver"
GUEST, MEMBER = "guest", "member"  # the reader classes a socket has by default
AUTH_REVOKED = "auth.revoked"

RATE_BURST = 20
RATE_PER_SECOND = 5.0


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def token_group(token_id: int) -> str:
    return f"auth-t{token_id}"


def user_group(user_id: int) -> str:
    """Every socket of one signed-in user: closed when the user is deactivated."""
    return f"auth-u{user_id}"


def session_group(session_key: str) -> str:
    # Group names are visible in Redis: never the session key itself.
    return "auth-s" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def game_views(seq: int, texts: dict[int, str], spectator: str | None, *,
               languages: dict[int, str] | None = None,
               spectators: dict[str, str] | None = None) -> dict:
    """`texts`: user id -> view_text of that seated user's view, said in `languages`[user
    id]; `spectator`: the spectators' view_text in the site's language, `spectators` in
    each language (both None when the game was not watched: games.live.watchers; such a
    socket reads its view). (Keys are strings: the channel layer's msgpack wants them.)"""
    message = {"type": GAME_VIEWS, "seq": seq,
               "texts": {str(u): t for u, t in texts.items()}, "spectator": spectator}
    if languages is not None:
        message["languages"] = {str(u): lang for u, lang in languages.items()}
    if spectators is not None:
        message["spectators"] = spectators
    return message


def game_deliver(texts: dict[str, str], users: dict[int, str | None],
                 only_users: bool = False) -> dict:
    """`texts`: reader kind ("<class>:<language>") -> frame text; `users`: user id -> the
    class their socket reads as (None: nothing)."""
    return {"type": GAME_DELIVER, "texts": texts,
            "users": {str(u): c for u, c in users.items()}, "only_users": bool(only_users)}


def auth_revoked() -> dict:
    return {"type": AUTH_REVOKED}


def view_json(view: dict) -> str:
    """A view as JSON text (the API's answer; keys that are numbers become strings, as in
    the standard library's json)."""
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS).decode()


def view_text(view: dict, encoded: str | None = None) -> str:
    """The socket's {"type": "view", "seq": n, "view": {...}} as JSON text; `encoded`:
    view_json(view), when the writer has it already."""
    if encoded is None:
        encoded = view_json(view)
    return f'{{"type":"{VIEW}","seq":{int(view["seq"])},"view":{encoded}}}'


def error_message(error: str) -> dict:
    return {"type": ERROR, "error": error}


def pong_message() -> dict:
    return {"type": PONG}


class FrameBucket:
    """A socket's token bucket for the frames its client sends: RATE_BURST at once,
    refilled at RATE_PER_SECOND."""

    def __init__(self):
        self.allowance = float(RATE_BURST)
        self.at = time.monotonic()

    def allowed(self) -> bool:
        now = time.monotonic()
        self.allowance = min(float(RATE_BURST),
                             self.allowance + (now - self.at) * RATE_PER_SECOND)
        self.at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


def too_many_message() -> dict:
    return error_message(f"too many messages: at most {RATE_PER_SECOND:g} a second")


BUSY_RETRY_SECONDS = 2  # a handshake refused as late: the wait a client is asked for


def server_awaits_answer(scope) -> bool:
    """Whether the web server lets the application answer a socket's handshake itself
    (ASGI's "websocket.http.response" extension: uvicorn), and so waits for that answer;
    daphne does not, and drops a socket unanswered after its own limit."""
    return "websocket.http.response" in (scope.get("extensions") or {})


class ReadableRefusal:
    """For a consumer: `refuse(code)` in connect(). A close before the accept reaches the
    client as a bare HTTP 403 (the ASGI spec; uvicorn and daphne alike), and the close code
    that tells it whether to try again is lost: a browser sees 1006 and reconnects forever.
    So the socket is accepted, then closed with the code."""

    async def refuse(self, code: int) -> None:
        await self.accept()
        await self.close(code=code)

    async def refuse_busy(self) -> None:
        """A handshake that waited past its limit (ws_threads): HTTP 503 with Retry-After
        where the server lets the application answer the handshake (uvicorn: ASGI's
        "websocket.http.response" extension); elsewhere a bare refusal (daphne has
        dropped such a socket already). Either way the client tries again."""
        if not server_awaits_answer(self.scope):
            await self.close()
            return
        await self.base_send({
            "type": "websocket.http.response.start", "status": 503,
            "headers": [(b"retry-after", str(BUSY_RETRY_SECONDS).encode()),
                        (b"content-type", b"text/plain; charset=utf-8")]})
        await self.base_send({"type": "websocket.http.response.body",
                              "body": b"the site is busy: connect again shortly\n"})


class LenientJson:
    """For a JSON consumer: a frame that is not JSON (or nests too deep) decodes to None,
    which the consumer answers, instead of ending the socket."""

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return await super().decode_json(text_data)
        except (ValueError, RecursionError):
            return None
