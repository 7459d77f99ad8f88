"""Every WebSocket message of ws/games/<id>/, both ways, and the channel-layer event.

Server -> client
    {"type": "view", "seq": n, "view": {...}}    after connecting, after every change,
                                                 and in answer to "sync"; the view is the
                                                 connection user's own (games.selectors
                                                 .game_view_for), never a shared payload
    {"type": "error", "error": sentence}         an unknown or malformed client message

Client -> server (conveniences only: nothing here changes a game; moves are POSTed)
    {"type": "sync"}                             resend my current view
    {"type": "ping"}                             answered with {"type": "pong"}

Channel layer (server internal), to group "game-<id>"
    {"type": "game.changed", "game": id, "seq": n}   each consumer rebuilds its own view
"""

VIEW = "view"
ERROR = "error"
PONG = "pong"
SYNC = "sync"
PING = "ping"
GAME_CHANGED = "game.changed"


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def game_changed(game_id: int, seq: int) -> dict:
    return {"type": GAME_CHANGED, "game": game_id, "seq": seq}


def view_message(view: dict) -> dict:
    return {"type": VIEW, "seq": view["seq"], "view": view}


def error_message(error: str) -> dict:
    return {"type": ERROR, "error": error}


def pong_message() -> dict:
    return {"type": PONG}
