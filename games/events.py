"""What happens to games, for the apps above `games` to react to.

`games` is the floor of play: it imports no app above it. Clocks, notifications, ratings
and tournaments react to games through these three events instead; each app connects its
listeners in its `AppConfig.ready()`.

Every event is sent by a service in `games.services` inside its transaction, holding the
game row lock. A listener says when it runs:

- `IN_TRANSACTION`: at once, inside the writer's transaction (its writes commit or roll
  back with the move; an exception refuses the whole write);
- `ON_COMMIT`: after the transaction commits (queue tasks, send nothing that a rollback
  would have to take back).

Listeners run in ascending `order` (then by name), whatever the order the apps load in;
`tests/services/test_events.py` pins the order of every event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial

from django.db import transaction

IN_TRANSACTION = "in_transaction"
ON_COMMIT = "on_commit"

# Why a game that was being played stopped (`game_ended`'s `reason`).
FINISHED = "finished"  # the rules ended it: two rounds played
ABORTED = "aborted"  # the site stopped it (e.g. a game that only circles)
RESIGNED = "resigned"  # a player resigned
ABANDONED = "abandoned"  # a player left it for good
END_REASONS = (FINISHED, ABORTED, RESIGNED, ABANDONED)


@dataclass(frozen=True)
class Listener:
    name: str  # "app.function", for the pinned order and for logs
    function: Callable
    when: str
    order: int


class Event:
    """One kind of happening. `send(**payload)` calls every listener with the payload."""

    def __init__(self, name: str, payload: tuple[str, ...]):
        self.name = name
        self.payload = payload
        self._listeners: list[Listener] = []

    def connect(self, function: Callable, *, when: str, order: int, name: str = "") -> None:
        """Add a listener; connecting the same name again replaces it (ready() may rerun)."""
        if when not in (IN_TRANSACTION, ON_COMMIT):
            raise ValueError(f"when must be IN_TRANSACTION or ON_COMMIT, not {when!r}")
        name = name or f"{function.__module__}.{function.__qualname__}"
        kept = [lis for lis in self._listeners if lis.name != name]
        kept.append(Listener(name, function, when, order))
        self._listeners = sorted(kept, key=lambda lis: (lis.order, lis.name))

    def disconnect(self, name: str) -> None:
        self._listeners = [lis for lis in self._listeners if lis.name != name]

    def listeners(self) -> list[Listener]:
        """The listeners in the order they run."""
        return list(self._listeners)

    def send(self, **payload) -> None:
        """Call inside the writer's transaction (the game row locked)."""
        if set(payload) != set(self.payload):
            raise TypeError(f"{self.name} carries {', '.join(self.payload)}")
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError(f"{self.name} must be sent inside the writer's transaction")
        for lis in self._listeners:
            if lis.when == IN_TRANSACTION:
                lis.function(**payload)
            else:
                transaction.on_commit(partial(lis.function, **payload))


# A game got its deal and started: `game` is saved (status playing, seq 0, waiting_on set).
game_started = Event("game_started", ("game",))

# One move is made: `game` holds the new seq, status and waiting_on, written with the move
# in the same round trip as the in-transaction listeners' own lib.rows updates (a
# listener reading the database sees the game as it was); `seat` is the mover's index,
# `move` the RECORD.md move object (with "seat"), `state` the engine state after it,
# `seats` the game's Seat rows (with their users) as the mover's transaction read them,
# so listeners need not read them again. Sent before `game_ended` when the move ends the
# game.
move_played = Event("move_played", ("game", "seat", "move", "state", "seats"))

# A started game stopped being played: `game` is saved (status finished or aborted, with
# `finished` set); `reason` is one of END_REASONS.
game_ended = Event("game_ended", ("game", "reason"))

EVENTS = (game_started, move_played, game_ended)

# News for one player from an app above games that has no way to reach them itself (e.g. a
# correspondence clock started: your turn; a tournament table is ready). The notifications
# app delivers it through its one `notify`: the in-site copy, the mail and push, the
# player's preferences, language and time zone. `game` may be None; `kind` is one of
# NOTICE_KINDS; `key` names the event (one notice per key); `text` and `subject` are lazy
# strings (or functions writing them) filled with `params` in the recipient's language.
player_notice = Event("player_notice", ("user", "game", "kind", "key", "subject", "text",
                                        "params"))

# The kinds of player_notice, and who sends them.
YOUR_TURN = "your_turn"  # clocks: a correspondence clock started for this player
ALMOST_OUT = "almost_out"  # clocks: the last fifth of a correspondence clock
TIMEOUT = "timeout"  # clocks: the bot moved for a player out of time, or took the seat
TOURNAMENT = "tournament"  # tournaments: news of a tournament (a table is ready)
INVITATION = "invitation"  # social: an invitation to a table, its decline, its start
WARNING = "warning"  # social: staff warn a player after a report
NOTICE_KINDS = (YOUR_TURN, ALMOST_OUT, TIMEOUT, TOURNAMENT, INVITATION, WARNING)


# ---- what one write's listeners leave for the views built later in the same write ---------

_notes: ContextVar[dict | None] = ContextVar("blaze_write_notes", default=None)


@contextmanager
def write_scope() -> Iterator[None]:
    """The notes of one write (a service's transaction): gone when it ends, committed or
    not. Outside a scope nothing is noted and every read finds nothing."""
    token = _notes.set({})
    try:
        yield
    finally:
        _notes.reset(token)


def note(game, key: str, value) -> None:
    """Leave `value` about `game` for the rest of this write (e.g. the clock rows a move
    just charged: the views built next need not read them back)."""
    notes = _notes.get()
    if notes is not None:
        notes[(game.pk, key)] = value


def noted(game, key: str):
    """What this write noted about `game` under `key`, or None."""
    notes = _notes.get()
    return None if notes is None else notes.get((game.pk, key))


def unnote(game, key: str) -> None:
    notes = _notes.get()
    if notes is not None:
        notes.pop((game.pk, key), None)


# ---- rows of apps above that every move reads: in the move's one locked read ----------------

_seat_tables: list[tuple[str, type]] = []


def seat_table_register(name: str, model) -> None:
    """`model` holds at most one row a seat of a game (fields `game` and `seat`, the seat's
    index): the move's locked read brings them joined to the seats, noted under `name`
    for the rest of the write (events.noted(game, name): in seat order, one a seat that
    has a row), so a listener need not read them again. One per name; in a ready()."""
    global _seat_tables
    _seat_tables = sorted([(n, m) for n, m in _seat_tables if n != name] + [(name, model)],
                          key=lambda item: item[0])


def seat_tables() -> list[tuple[str, type]]:
    return list(_seat_tables)


# ---- parts of a game's view that apps above contribute ------------------------------------

_view_parts: list[tuple[str, Callable]] = []


def view_part_register(name: str, function: Callable) -> None:
    """`function(game) -> dict` is merged into every game view (e.g. the clocks). One per
    name; registered in an AppConfig.ready()."""
    global _view_parts
    _view_parts = sorted([(n, f) for n, f in _view_parts if n != name] + [(name, function)],
                         key=lambda item: item[0])


def view_parts(game) -> dict:
    """What the apps above add to a game's view, in name order."""
    out: dict = {}
    for _, function in _view_parts:
        out.update(function(game))
    return out


# ---- deadlines that apps above know (the clocks), to put a player's most urgent game first

_deadlines: Callable | None = None


def deadlines_register(function: Callable) -> None:
    """`function(user, game_ids) -> {game_id: deadline}`: when each of those games, waiting
    on `user`, times them out. One source (the clocks), registered in its AppConfig.ready()."""
    global _deadlines
    _deadlines = function


def deadlines_for(user, game_ids) -> dict:
    """{game_id: deadline} for the games that have one ({} without a source)."""
    if _deadlines is None or not game_ids:
        return {}
    return _deadlines(user, list(game_ids))


# ---- vetoes on taking a seat ------------------------------------------------------------------

_join_checks: list[tuple[str, Callable]] = []


def join_check_register(name: str, function: Callable) -> None:
    """`function(game, user) -> sentence or None`: a reason the user may not sit at this
    waiting table (e.g. a player there blocked them). One per name; registered in an
    AppConfig.ready()."""
    global _join_checks
    _join_checks = sorted([(n, f) for n, f in _join_checks if n != name] + [(name, function)],
                          key=lambda item: item[0])


def join_refusal(game, user) -> str | None:
    """The first reason an app above gives to keep the user from this table, or None.
    Called holding the game row lock."""
    for _, function in _join_checks:
        sentence = function(game, user)
        if sentence:
            return sentence
    return None


# ---- parts of games' pages that apps above contribute ----------------------------------------

_template_parts: dict[str, list[tuple[str, str]]] = {}

# The places of games' pages where parts go: "table" (the table page, beside the log) and
# "live_now" (the "Live now" list of the home page and the lobby).
TEMPLATE_SLOTS = ("table", "live_now")


def template_part_register(slot: str, name: str, template: str) -> None:
    """Include `template` at `slot` of games' pages (it sees the page's context). One per
    name and slot; registered in an AppConfig.ready()."""
    if slot not in TEMPLATE_SLOTS:
        raise ValueError(f"slot must be one of {', '.join(TEMPLATE_SLOTS)}, not {slot!r}")
    kept = [(n, t) for n, t in _template_parts.get(slot, []) if n != name]
    _template_parts[slot] = sorted(kept + [(name, template)])


def template_parts() -> dict[str, list[str]]:
    """slot -> the templates to include there, in name order (for a page's context)."""
    return {slot: [t for _n, t in _template_parts.get(slot, [])] for slot in TEMPLATE_SLOTS}


# ---- players who would rather not sit together ---------------------------------------------

_apart: list[tuple[str, Callable]] = []


def apart_register(name: str, function: Callable) -> None:
    """`function(user_ids) -> iterable of (a, b)`: pairs of these users to seat apart where
    avoidable (e.g. one blocked the other). One per name; registered in a ready()."""
    global _apart
    _apart = sorted([(n, f) for n, f in _apart if n != name] + [(name, function)],
                    key=lambda item: item[0])


def apart_pairs(user_ids) -> set[frozenset]:
    """Every pair of these users an app above asks to seat apart (for pairings)."""
    user_ids = list(user_ids)
    return {frozenset(pair) for _, function in _apart for pair in function(user_ids)}
