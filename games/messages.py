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

Client -> server (conveniences only: nothing here changes a game; moves are POSTed)
    {"type": "sync"}                             resend my current view
    {"type": "ping"}                             answered with {"type": "pong"}; also marks
                                                 the table as open for the user, so no
                                                 "your turn" mail goes out meanwhile

Heartbeat and resync (what a client does; static/js builds it for the browser): send
"ping" about every 25 s (presence lasts 60 s; a proxy may drop a silent socket); on a
close, reconnect with growing pauses (1 s, 2 s, 4 s ... at most 30 s); on every connect
the server sends the current view, and a client keeps the view with the highest `seq`,
ignoring older ones, so nothing is lost across a reconnect.

Per connection at most RATE_BURST messages at once and RATE_PER_SECOND after that; more
are answered with an error and dropped.

Close codes: 4401 not signed in, or the token was revoked / the session logged out while
open; 4403 not allowed to watch; 4404 no such game.

Channel layer (server internal), after a change commits; the writer builds every view once
(games.broadcast) and consumers only forward:
    group "game-<id>-u<user id>"   {"type": "game.view", "seq": n, "you": seat,
                                   "text": "..."}   that seated user's view, as the
                                   socket's "view" message already in JSON (encoded
                                   once, whatever the sockets and processes)
    group "game-<id>-watch"        {"type": "game.watch", "seq": n, "you": null,
                                   "text": "...", "seated": [user ids]}   the spectator
                                   view (seated users drop it: theirs comes to their group)
    group "auth-t<token id>"       {"type": "auth.revoked"}   the token was revoked
    group "auth-s<session hash>"   {"type": "auth.revoked"}   the session logged out
"""

import hashlib

import orjson

VIEW = "view"
ERROR = "error"
PONG = "pong"
SYNC = "sync"
PING = "ping"
GAME_VIEW = "game.view"
GAME_WATCH = "game.watch"
AUTH_REVOKED = "auth.revoked"

RATE_BURST = 20
RATE_PER_SECOND = 5.0


def user_group(game_id: int, user_id: int) -> str:
    return f"game-{game_id}-u{user_id}"


def watch_group(game_id: int) -> str:
    return f"game-{game_id}-watch"


def token_group(token_id: int) -> str:
    return f"auth-t{token_id}"


def session_group(session_key: str) -> str:
    # Group names are visible in Redis: never the session key itself.
    return "auth-s" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


def game_view(view: dict, encoded: str | None = None) -> dict:
    """`encoded`: view_json(view), when the writer has it already."""
    return {"type": GAME_VIEW, "seq": view["seq"], "you": view["you"],
            "text": view_text(view, encoded)}


def game_watch(view: dict, seated: list[int], encoded: str | None = None) -> dict:
    return {"type": GAME_WATCH, "seq": view["seq"], "you": view["you"],
            "text": view_text(view, encoded), "seated": seated}


def auth_revoked() -> dict:
    return {"type": AUTH_REVOKED}


def view_message(view: dict) -> dict:
    return {"type": VIEW, "seq": view["seq"], "view": view}


def view_json(view: dict) -> str:
    """A view as JSON text (the API's answer; keys that are numbers become strings, as in
    the standard library's json)."""
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS).decode()


def view_text(view: dict, encoded: str | None = None) -> str:
    """view_message(view) as the JSON text a socket sends; `encoded`: view_json(view)."""
    if encoded is None:
        encoded = view_json(view)
    return f'{{"type":"{VIEW}","seq":{int(view["seq"])},"view":{encoded}}}'


def error_message(error: str) -> dict:
    return {"type": ERROR, "error": error}


def pong_message() -> dict:
    return {"type": PONG}
