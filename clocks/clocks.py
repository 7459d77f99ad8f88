"""Clocks on rows: start them, charge a move, show them.

The arithmetic is in clock.py; here it meets the rows. Clock rows change only while the
game row is locked (the game services, deadline_expire and vacation changes lock it
first), so the lock order is always game, then clocks. Called by the listeners of
`games.events` (listeners.py), inside the writer's transaction.
"""

import functools
import logging
from datetime import datetime

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import KombuError
from redis.exceptions import RedisError

from games import events
from lib import rows as sql_rows

from . import clock as C
from .models import SeatClock, Vacation
from .notices import tell_turn
from .reminders import reminder_next, reminders_passed

log = logging.getLogger(__name__)

# Live deadlines this close also get a one-off check at the deadline itself (the 30 s sweep
# stays the safety net); longer ones, and all correspondence deadlines, wait for the sweep.
LIVE_CHECK_MAX_SECONDS = 15 * 60

WRITTEN = "clock_rows"  # events.note: the rows a move just charged, in seat order
READ = "clock_rows_read"  # events.note: the rows the move's locked read brought
CLOCK_FIELDS = ["remaining", "running_since", "deadline", "warn_at", "warned",
                "reminded", "timeouts_in_row"]


def time_control_of(game) -> C.TimeControl | None:
    """The game's parsed time control, or None for untimed and imported games."""
    try:
        return C.parse_time_control(game.time_control)
    except C.TimeControlError:
        return None


def seat_rows(game) -> dict[int, object]:
    """Seat index -> the Seat row, with its user."""
    return {s.index: s for s in game.seats.select_related("user")}


def seat_vacations(tc: C.TimeControl | None, seats: dict,
                   since: datetime | None = None) -> dict:
    """Seat index -> the vacation intervals of its player that matter to a clock."""
    if tc is None or not tc.vacations_apply:
        return {}
    users = {s.user_id: i for i, s in seats.items() if s.user_id is not None}
    qs = Vacation.objects.filter(user_id__in=users)
    if since is not None:
        qs = qs.filter(end__gt=since)
    out: dict[int, list] = {}
    for user_id, start, end in qs.values_list("user_id", "start", "end"):
        out.setdefault(users[user_id], []).append((start, end))
    return out


def person_at(seats: dict, index: int):
    """The person at seat `index` (None for a bot or an empty seat)."""
    seat = seats.get(index)
    if seat is None or seat.user_id is None or seat.bot_level:
        return None
    return seat.user


def clock_store(row: SeatClock, clk: C.Clock, tc: C.TimeControl, vacations, user=None,
                turn_start: datetime | None = None) -> None:
    """Put a clock on its row, with the deadline and next reminder time it implies (the
    reminders `user` chose, around their quiet hours: clocks.reminders). `turn_start`: the
    moment a new turn of this clock began (reminders already behind are skipped)."""
    row.remaining, row.running_since = clk.remaining, clk.running_since
    row.deadline = C.deadline(clk, vacations)
    warn = tc.kind == C.CORRESPONDENCE and clk.running and not row.warned
    if warn and turn_start is not None:
        row.reminded = reminders_passed(clk, tc, vacations, user, turn_start)
    row.warn_at = reminder_next(row, clk, tc, vacations, user) if warn else None


def clocks_start(game, now: datetime | None = None) -> None:
    """Start the game's clocks. Call holding the game row lock, once `waiting_on` is set
    (on game_started). Untimed games get no clocks; calling twice changes nothing."""
    tc = time_control_of(game)
    if tc is None or SeatClock.objects.filter(game=game).exists():
        return
    now = now or timezone.now()
    seats = seat_rows(game)
    vacations = seat_vacations(tc, seats)
    rows = []
    for seat, clk in enumerate(C.clocks_start(tc, game.players, game.waiting_on, now)):
        row = SeatClock(game=game, seat=seat)
        clock_store(row, clk, tc, vacations.get(seat, ()), person_at(seats, seat),
                    turn_start=now)
        rows.append(row)
    SeatClock.objects.bulk_create(rows)
    _queue_live_check(game, tc, rows, now)
    if tc.kind == C.CORRESPONDENCE:
        for seat in game.waiting_on:
            tell_turn(game, seats.get(seat))


def clocks_on_move(game, *, mover: int, state_after, now: datetime | None = None,
                   seats: dict | None = None) -> None:
    """Charge the mover, start and stop clocks, and tell players whose turn it is. Call
    inside move_play's transaction (on move_played), holding the game row lock, once the
    move is applied (`game`'s `seq`, `status` are the new ones, written with these rows). `seats`:
    index -> Seat row with its user, when the caller has them already."""
    tc = time_control_of(game)
    # Brought by the move's read of the game row it locked: every writer of a game's clocks
    # holds that lock, but for the reminders' claims, which write only rows whose turn is
    # still the one they read, and fields the move writes only when it changes them.
    rows = events.noted(game, READ)
    if rows is None or len(rows) != game.players:
        rows = _clock_rows_locked(game.pk)
    if tc is None or not rows:
        return
    now = now or timezone.now()
    seats = seat_rows(game) if seats is None else seats
    finished = bool(state_after.finished)
    waiting_after = [] if finished else list(state_after.waiting_on)
    started: list[int] = []
    vacations = seat_vacations(tc, seats)
    clocks = C.clocks_on_move(tc, [r.clock for r in rows], mover=mover,
                              waiting_after=waiting_after, now=now, vacations=vacations)
    mover_seat = seats.get(mover)
    before = [_clock_fields(row) for row in rows]
    for row, clk in zip(rows, clocks, strict=True):
        new_turn = clk.running and clk.running_since != row.running_since
        if new_turn:
            row.warned = False  # a new turn: it may be warned again
            row.reminded = 0
            if row.running_since is None:
                started.append(row.seat)
        if row.seat == mover and (mover_seat is None or not mover_seat.bot_level):
            # a person's own move; a bot playing an abandoned seat keeps the count
            row.timeouts_in_row = 0  # deadline_expire counts its own moves after this
        clock_store(row, clk, tc, vacations.get(row.seat, ()), person_at(seats, row.seat),
                    turn_start=now if new_turn else None)
    _save_changed(rows, before)
    events.note(game, WRITTEN, rows)  # for clock_view, right after, in this write
    if finished:
        return
    _queue_live_check(game, tc, rows, now)
    if tc.kind == C.CORRESPONDENCE:
        for seat in started:
            tell_turn(game, seats.get(seat))


@functools.cache
def _clock_columns() -> sql_rows.Columns:
    return sql_rows.Columns(SeatClock, "c")


def _clock_rows_locked(game_id: int) -> list[SeatClock]:
    return _clock_rows(game_id, lock=True)


def _clock_rows(game_id: int, *, lock: bool = False) -> list[SeatClock]:
    """The game's clock rows in seat order, `lock`ed or not (every move and every view
    reads them: hand-written SQL, lib.rows)."""
    c = _clock_columns()
    found = sql_rows.select(
        f"SELECT {c.sql} FROM {SeatClock._meta.db_table} c WHERE c.game_id = %s"
        f" ORDER BY c.seat{sql_rows.lock_clause('c') if lock else ''}", [game_id])
    return [c.load(row) for row in found]


def _clock_fields(row: SeatClock) -> dict:
    return {f: getattr(row, f) for f in CLOCK_FIELDS}


def _save_changed(rows: list, before: list[dict]) -> None:
    """Write only the rows a move changed (usually the mover's and the next seat's), in
    one statement."""
    changed_rows, fields = [], set()
    for row, old in zip(rows, before, strict=True):
        changed = [f for f, v in _clock_fields(row).items() if old[f] != v]
        if changed:
            changed_rows.append(row)
            fields.update(changed)
    if changed_rows:  # one statement (lib.rows), whatever rows changed
        sql_rows.update_many(changed_rows, [f for f in CLOCK_FIELDS if f in fields])


def _live_check_key(game_id: int) -> str:
    return f"live-check:{game_id}"


# game id -> the moment of the live check queued last, by this process or (read from the
# shared cache) another: while that moment is ahead and no later than a move's new
# deadline, the move needs no cache read to know a check is coming.
_queued_here: dict[int, float] = {}
_QUEUED_HERE_MAX = 10_000


def live_checks_forget() -> None:
    _queued_here.clear()


def clocks_stop(game, now: datetime | None = None) -> None:
    """Stop every clock of a game that ended, whatever ended it (on game_ended, holding
    the game row lock): no deadline is left for the sweeper to find."""
    events.unnote(game, WRITTEN)  # changed below: views read them anew
    rows = list(SeatClock.objects.select_for_update()
                .filter(game=game, running_since__isnull=False))
    if not rows:
        return
    now = now or timezone.now()
    for row in rows:
        row.remaining = max(C.remaining_at(row.clock, now), 0.0)
        row.running_since = row.deadline = row.warn_at = None
    SeatClock.objects.bulk_update(rows, ["remaining", "running_since", "deadline", "warn_at"])


def _queue_live_check(game, tc: C.TimeControl, rows, now: datetime) -> None:
    """After commit, queue one check at the earliest live deadline, naming the game's seq.

    A check already queued for an earlier moment is enough (noted in the shared cache):
    when it finds the game moved on, it queues the next one itself (live_check_rearm),
    so a move does not queue a task of its own each time."""
    if tc.kind != C.LIVE:
        return
    due = [r.deadline for r in rows if r.deadline is not None]
    if not due:
        return
    due_at = min(due).timestamp()
    wait = max(due_at - now.timestamp(), 0.0) + 0.25
    if wait > LIVE_CHECK_MAX_SECONDS:
        return
    known = _queued_here.get(game.pk)
    if known is not None and now.timestamp() < known <= due_at:
        return
    key = _live_check_key(game.pk)
    try:
        pending = cache.get(key)
    except Exception:  # the cache is down (e.g. Redis restarting): queue the check anyway
        pending = None
    if pending is not None and pending <= due_at:  # queued by another process
        _note_queued(game.pk, pending)  # this one need not ask again before it is due
        return
    from .tasks import deadline_check  # the task module imports this one

    game_id, seq = game.pk, game.seq

    def queue():
        try:
            deadline_check.apply_async((game_id, seq), countdown=wait)
        except (KombuError, OSError, RedisError) as exc:  # clocks_sweep is the safety net
            log.warning("live deadline check of game %s not queued: %s", game_id, exc)
            return
        try:
            cache.set(key, due_at, timeout=int(wait) + 60)
        except (OSError, RedisError):  # other processes may queue a check too: harmless
            pass
        _note_queued(game_id, due_at)

    # robust: a failure here is logged and never keeps the move's broadcast from going out
    transaction.on_commit(queue, robust=True)


def _note_queued(game_id: int, due_at: float) -> None:
    if len(_queued_here) >= _QUEUED_HERE_MAX:
        _queued_here.clear()
    _queued_here[game_id] = due_at


def live_check_fired(game_id: int) -> None:
    """A queued check ran: the next move or live_check_rearm queues the following one."""
    cache.delete(_live_check_key(game_id))


def live_check_rearm(game_id: int) -> None:
    """The game moved on since the check was queued: check again at its earliest deadline."""
    from games.models import Game

    game = Game.objects.filter(pk=game_id, status=Game.PLAYING).first()
    tc = time_control_of(game) if game is not None else None
    if tc is not None:
        _queue_live_check(game, tc, list(SeatClock.objects.filter(game=game)), timezone.now())


def deadlines_refresh(game, tc: C.TimeControl) -> None:
    """Recompute stored deadlines after vacations changed. Holding the game row lock."""
    seats = seat_rows(game)
    vacations = seat_vacations(tc, seats)
    rows = list(SeatClock.objects.select_for_update().filter(game=game))
    for row in rows:
        clock_store(row, row.clock, tc, vacations.get(row.seat, ()), person_at(seats, row.seat))
    SeatClock.objects.bulk_update(rows, CLOCK_FIELDS)


def reminders_refresh(user, now: datetime | None = None) -> None:
    """The player chose other reminders or quiet hours: their running correspondence turns
    are reminded by the new choice from now on (points already behind are skipped, as at
    the start of a turn). Locks each game row, then its clocks, as every writer does."""
    from games.models import Game

    now = now or timezone.now()
    ids = sorted(user.seats.filter(game__status=Game.PLAYING, bot_level__isnull=True)
                 .values_list("game_id", flat=True))
    for game in Game.objects.select_for_update().filter(pk__in=ids).order_by("pk"):
        tc = time_control_of(game)
        if tc is None or tc.kind != C.CORRESPONDENCE:
            continue
        seats = seat_rows(game)
        mine = [i for i in seats if seats[i].user_id == user.pk and not seats[i].bot_level]
        rows = list(SeatClock.objects.select_for_update().filter(
            game=game, seat__in=mine, running_since__isnull=False))
        vacations = seat_vacations(tc, seats)
        for row in rows:
            was_warned, row.warned = row.warned, False
            clock_store(row, row.clock, tc, vacations.get(row.seat, ()), user, turn_start=now)
            if row.warn_at is None or (was_warned and row.warn_at <= now):
                row.warned, row.warn_at = True, None  # nothing ahead that was not said
        SeatClock.objects.bulk_update(rows, ["warn_at", "warned", "reminded"])


def clock_view(game, now: datetime | None = None) -> dict:
    """{"clocks": [per seat: seat, remaining (s), running, deadline (ISO, UTC), paused]} to
    merge into a game view; {"clocks": None} for an untimed game."""
    tc = time_control_of(game)
    rows = events.noted(game, WRITTEN)
    if rows is None:
        rows = _clock_rows(game.pk)
    if tc is None or not rows:
        return {"clocks": None}
    now = now or timezone.now()
    # live clocks know no vacations: no need to read the seats
    vacations = seat_vacations(tc, seat_rows(game)) if tc.vacations_apply else {}
    out = []
    for row in rows:
        entry = C.clock_state(tc, row.clock, now, vacations.get(row.seat, ()))
        out.append({"seat": row.seat, **entry})
    return {"clocks": out}
