"""Game states in this process's memory, by (game id, seq): only a cache of the move log.

A state is put once the transaction that produced it commits (`put_on_commit`), so a
rolled-back move is never served. Each game keeps its few latest states: a process that
lacks a game's newest state (another process made the last moves) catches up from the
newest one it has by applying the missing moves (games.selectors), rather than replaying
the whole log, so moves spread over several processes stay cheap.
"""

from collections import OrderedDict
from threading import Lock

from django.db import transaction

GAMES = 4096    # games remembered, the least recently used forgotten first
PER_GAME = 3    # states kept per game: the latest, and the one before for the log lines

_cache: OrderedDict[int, dict] = OrderedDict()
# game id -> (seq, the facts of the move that made that state), from the process that
# made it: a view's log lines of the latest move need no state before it
_facts: dict[int, tuple[int, list]] = {}
_lock = Lock()


def clear() -> None:
    with _lock:
        _cache.clear()
        _facts.clear()


def put(game_id: int, seq: int, state, facts: list | None = None) -> None:
    """Remember a committed state (and the facts of the move that made it, when known).
    The caller must not mutate either afterwards."""
    with _lock:
        states = _cache.get(game_id)
        if states is None:
            states = _cache[game_id] = {}
        _cache.move_to_end(game_id)
        states[seq] = state
        if facts is not None:
            _facts[game_id] = (seq, facts)
        for old in sorted(states)[:-PER_GAME]:
            del states[old]
        while len(_cache) > GAMES:
            _facts.pop(_cache.popitem(last=False)[0], None)


def put_on_commit(game_id: int, seq: int, state, facts: list | None = None) -> None:
    """`put` once the transaction that produced the state commits (at once outside one)."""
    transaction.on_commit(lambda: put(game_id, seq, state, facts))


def facts(game_id: int, seq: int) -> list | None:
    """The facts of the move that made the game's state after `seq` moves, if this
    process made that move (shared: never mutate them)."""
    with _lock:
        held = _facts.get(game_id)
        return held[1] if held is not None and held[0] == seq else None


def get(game_id: int, seq: int):
    """The state after exactly `seq` moves, or None (shared: never mutate it)."""
    with _lock:
        states = _cache.get(game_id)
        return None if states is None else states.get(seq)


def newest_seq(game_id: int) -> int | None:
    """The seq of the newest state held for the game, or None."""
    with _lock:
        states = _cache.get(game_id)
        return max(states) if states else None


def newest_upto(game_id: int, seq: int):
    """(s, state) for the newest state held with s <= seq, or None."""
    with _lock:
        states = _cache.get(game_id)
        if not states:
            return None
        held = [s for s in states if s <= seq]
        return (max(held), states[max(held)]) if held else None
