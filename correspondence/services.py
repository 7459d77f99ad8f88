"""Writes for clocks, timeouts, vacations and notifications.

The clock arithmetic is in clock.py; here it meets the rows. Clock rows change only while
the game row is locked (move_play, deadline_expire, vacation changes lock it first), so
the lock order is always game, then clocks.
"""

import logging
import random
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from . import clock as C
from .models import EmailOptOut, Notification, SeatClock, SeatStatus, Vacation

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_BOT = 3
TIMEOUT_BOT_LEVEL = "basic"
# Live deadlines this close also get a one-off check at the deadline itself (the 30 s sweep
# stays the safety net); longer ones, and all correspondence deadlines, wait for the sweep.
LIVE_CHECK_MAX_SECONDS = 15 * 60


class ClockError(Exception):
    """A refused request about clocks or vacations; `message` says why."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# ---- time controls -------------------------------------------------------------------------


def time_control_clean(time_control) -> dict:
    """The time control to store on a new game; raises ClockError with a sentence."""
    try:
        C.parse_time_control(time_control)
    except C.TimeControlError as e:
        raise ClockError(str(e)) from None
    return dict(time_control)


def time_control_change(*, game_id: int, time_control) -> None:
    """Change a table's time control: only before the game starts."""
    from games.models import Game

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.WAITING:
            raise ClockError("the time control cannot change once the game has started")
        game.time_control = time_control_clean(time_control)
        game.save(update_fields=["time_control"])


def _time_control(game) -> C.TimeControl | None:
    """The game's parsed time control, or None for untimed and imported games."""
    try:
        return C.parse_time_control(game.time_control)
    except C.TimeControlError:
        return None


def bot_pause_seconds(time_control: dict) -> float:
    """How long a bot waits before its move: a natural pause in live games only."""
    if isinstance(time_control, dict) and time_control.get("kind") == C.LIVE:
        return float(settings.BOT_PAUSE_SECONDS)
    return 0.0


# ---- clocks on rows ------------------------------------------------------------------------


def _seat_users(game) -> dict[int, object]:
    """Seat index -> the Seat row, with its user."""
    return {s.index: s for s in game.seats.select_related("user")}


def _vacations(tc: C.TimeControl | None, seats: dict, since: datetime | None = None) -> dict:
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


def _store(row: SeatClock, clk: C.Clock, tc: C.TimeControl, vacations) -> None:
    row.remaining, row.running_since = clk.remaining, clk.running_since
    row.deadline = C.deadline(clk, vacations)
    warn = tc.kind == C.CORRESPONDENCE and clk.running and not row.warned
    row.warn_at = C.deadline(clk, vacations, reserve=tc.warn_reserve) if warn else None


_CLOCK_FIELDS = ["remaining", "running_since", "deadline", "warn_at", "warned",
                 "timeouts_in_row"]


def clocks_start(game, now: datetime | None = None) -> None:
    """Start the game's clocks. Call holding the game row lock, once `waiting_on` is set
    (game_start). Untimed games get no clocks; calling twice changes nothing."""
    tc = _time_control(game)
    if tc is None or SeatClock.objects.filter(game=game).exists():
        return
    now = now or timezone.now()
    seats = _seat_users(game)
    vacations = _vacations(tc, seats)
    rows = []
    for seat, clk in enumerate(C.clocks_start(tc, game.players, game.waiting_on, now)):
        row = SeatClock(game=game, seat=seat)
        _store(row, clk, tc, vacations.get(seat, ()))
        rows.append(row)
    SeatClock.objects.bulk_create(rows)
    _queue_live_check(game, tc, rows, now)
    if tc.kind == C.CORRESPONDENCE:
        for seat in game.waiting_on:
            _notify_turn(game, seats.get(seat))


def clocks_on_move(game, *, mover: int, state_after, now: datetime | None = None,
                   seats=None) -> list:
    """Charge the mover, start and stop clocks, and tell players whose turn it is or that
    the game is over. Call inside move_play's transaction, holding the game row lock,
    after the move is applied and `game` saved (its `seq`, `status` are the new ones).
    `seats` (the Seat rows with users) saves a query. Returns the SeatClock rows as
    stored, by seat (for clock_view)."""
    tc = _time_control(game)
    now = now or timezone.now()
    seats = {s.index: s for s in seats} if seats is not None else _seat_users(game)
    finished = bool(state_after.finished)
    waiting_after = [] if finished else list(state_after.waiting_on)
    started: list[int] = []
    rows = list(SeatClock.objects.select_for_update().filter(game=game).order_by("seat"))
    if tc is not None and rows:
        vacations = _vacations(tc, seats)
        clocks = C.clocks_on_move(tc, [r.clock for r in rows], mover=mover,
                                  waiting_after=waiting_after, now=now, vacations=vacations)
        before = [_clock_fields(row) for row in rows]
        for row, clk in zip(rows, clocks, strict=True):
            if clk.running and clk.running_since != row.running_since:
                row.warned = False  # a new turn: it may be warned again
                if row.running_since is None:
                    started.append(row.seat)
            if row.seat == mover and not getattr(seats.get(mover), "bot_level", None):
                # a person's own move; a bot playing an abandoned seat keeps the count
                row.timeouts_in_row = 0  # deadline_expire counts its own moves after this
            _store(row, clk, tc, vacations.get(row.seat, ()))
        _save_changed(rows, before)
        if not finished:
            _queue_live_check(game, tc, rows, now)
    if finished:
        for seat in seats.values():
            _notify_game_over(game, seat)
    elif tc is not None and tc.kind == C.CORRESPONDENCE:
        for seat in started:
            _notify_turn(game, seats.get(seat))
    return rows


def _clock_fields(row: SeatClock) -> dict:
    return {f: getattr(row, f) for f in _CLOCK_FIELDS}


def _save_changed(rows: list, before: list[dict]) -> None:
    """Write only the rows a move changed (usually the mover's and the next seat's): a
    plain UPDATE each costs far less than bulk_update's CASE over every row."""
    for row, old in zip(rows, before, strict=True):
        new = _clock_fields(row)
        changed = {f: v for f, v in new.items() if old[f] != v}
        if changed:
            SeatClock.objects.filter(pk=row.pk).update(**changed)


def _live_check_key(game_id: int) -> str:
    return f"live-check:{game_id}"


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
    key = _live_check_key(game.pk)
    pending = cache.get(key)
    if pending is not None and pending <= due_at:
        return
    from .tasks import deadline_check

    game_id, seq = game.pk, game.seq

    def queue():
        cache.set(key, due_at, timeout=int(wait) + 60)
        deadline_check.apply_async((game_id, seq), countdown=wait)

    transaction.on_commit(queue)


def live_check_fired(game_id: int) -> None:
    """A queued check ran: the next move or live_check_rearm queues the following one."""
    cache.delete(_live_check_key(game_id))


def live_check_rearm(game_id: int) -> None:
    """The game moved on since the check was queued: check again at its earliest deadline."""
    from games.models import Game

    game = Game.objects.filter(pk=game_id, status=Game.PLAYING).first()
    tc = _time_control(game) if game is not None else None
    if tc is not None:
        _queue_live_check(game, tc, list(SeatClock.objects.filter(game=game)), timezone.now())


def _refresh_deadlines(game, tc: C.TimeControl) -> None:
    """Recompute stored deadlines after vacations changed. Holding the game row lock."""
    seats = _seat_users(game)
    vacations = _vacations(tc, seats)
    rows = list(SeatClock.objects.select_for_update().filter(game=game))
    for row in rows:
        _store(row, row.clock, tc, vacations.get(row.seat, ()))
    SeatClock.objects.bulk_update(rows, _CLOCK_FIELDS)


def clock_view(game, now: datetime | None = None, *, seats=None, rows=None) -> dict:
    """{"clocks": [per seat: seat, remaining (s), running, deadline (ISO, UTC), paused]} to
    merge into a game view; {"clocks": None} for an untimed game. `seats` (Seat rows with
    their users) and `rows` (SeatClock rows by seat) save the queries when at hand."""
    tc = _time_control(game)
    if tc is None:
        return {"clocks": None}
    if rows is None:
        rows = list(SeatClock.objects.filter(game=game).order_by("seat"))
    if not rows:
        return {"clocks": None}
    now = now or timezone.now()
    seat_rows = {s.index: s for s in seats} if seats is not None else _seat_users(game)
    vacations = _vacations(tc, seat_rows)
    out = []
    for row in rows:
        entry = C.clock_state(tc, row.clock, now, vacations.get(row.seat, ()))
        out.append({"seat": row.seat, **entry})
    return {"clocks": out}


# ---- timeouts ------------------------------------------------------------------------------


def deadline_expire(*, game_id: int, now: datetime | None = None) -> int:
    """Make the bot move for every seat of the game whose clock ran out; returns how many
    timeout moves were made. Skips a game another transaction holds (a move being made, or
    another sweeper): the next sweep looks again. Safe to run any number of times."""
    from games.models import Game

    now = now or timezone.now()
    made = 0
    with transaction.atomic():
        game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
        if game is None:
            return 0  # someone else holds the game: they, or the next sweep, will see to it
        tc = _time_control(game)
        for _ in range(4 * game.players):  # every seat at most a few times; never forever
            if tc is None or game.status != Game.PLAYING:
                break
            seats = _seat_users(game)
            vacations = _vacations(tc, seats)
            due = (
                SeatClock.objects.select_for_update()
                .filter(game=game, deadline__lte=now, running_since__isnull=False)
                .order_by("deadline", "seat")
            )
            target = None
            for row in due:
                if row.seat in game.waiting_on and C.timed_out(
                    row.clock, now, vacations.get(row.seat, ())
                ):
                    target = row
                    break
                # Not due after all (a vacation began since): store the true deadline.
                _store(row, row.clock, tc, vacations.get(row.seat, ()))
                row.save(update_fields=_CLOCK_FIELDS)
            if target is None:
                break
            _timeout_move(game, target, seats[target.seat], now)
            made += 1
            game.refresh_from_db()
    return made


def _timeout_move(game, row: SeatClock, seat, now: datetime) -> None:
    """The built-in bot's move for a player out of time, answering the game's `seq`.
    Holding the game row lock. The move counts like any other."""
    from games.bot_moves import bot_choose_move
    from games.engine import view
    from games.selectors import game_state
    from games.services import move_play

    state = game_state(game)
    move = bot_choose_move(view(state, row.seat), row.seat, TIMEOUT_BOT_LEVEL, random.Random())
    answered = game.seq
    if seat.bot_level:  # a bot seat whose task never came: play it, nobody to tell
        move_play(game_id=game.pk, seq=answered, move=move, bot_seat=row.seat)
        return
    in_row = row.timeouts_in_row + 1
    move_play(game_id=game.pk, user=seat.user, seq=answered, move=move)
    SeatClock.objects.filter(pk=row.pk).update(
        timeouts_in_row=in_row, timeouts=F("timeouts") + 1
    )
    abandoned = in_row >= TIMEOUTS_BEFORE_BOT
    if abandoned:
        seat.bot_level = TIMEOUT_BOT_LEVEL
        seat.save(update_fields=["bot_level"])
        # The move above was made while the seat was still the player's: wake the bot.
        from games.services import bot_turn_queue

        game_id, seq = game.pk, answered + 1
        transaction.on_commit(lambda: bot_turn_queue(game_id=game_id, seq=seq))
        SeatStatus.objects.update_or_create(
            game=game, seat=row.seat, defaults={"abandoned": True, "abandoned_at": now}
        )
    text = (
        f"Game {game.pk}: your time ran out and the bot moved for you."
        + (" After three timeouts in a row the bot plays your seat for the rest of the game."
           if abandoned else
           f" ({in_row} in a row; after {TIMEOUTS_BEFORE_BOT} the bot takes over your seat.)")
    )
    notify(user=seat.user, game=game, kind=Notification.TIMEOUT,
           key=f"timeout:{game.pk}:{row.seat}:{answered}", text=text)


def seat_abandoned(game_id: int, seat: int) -> bool:
    return SeatStatus.objects.filter(game_id=game_id, seat=seat, abandoned=True).exists()


def clocks_warn(now: datetime | None = None, limit: int = 500) -> int:
    """Tell players whose correspondence clock is down to its last fifth. Each turn is
    warned once: the warning is claimed with a conditional update."""
    now = now or timezone.now()
    sent = 0
    rows = (SeatClock.objects.filter(warn_at__lte=now, warned=False, running_since__isnull=False)
            .select_related("game")[:limit])
    for row in rows:
        claimed = SeatClock.objects.filter(
            pk=row.pk, warned=False, running_since=row.running_since
        ).update(warned=True, warn_at=None)
        if not claimed:
            continue  # the player moved, or another sweeper warned first
        seat = row.game.seats.select_related("user").filter(index=row.seat).first()
        if seat is None or seat.user is None or seat.bot_level:
            continue
        due = row.deadline
        notify(
            user=seat.user, game=row.game, kind=Notification.ALMOST_OUT,
            key=f"almost_out:{row.game_id}:{row.seat}:{row.running_since.timestamp():.6f}",
            text=f"Game {row.game_id}: you are almost out of time"
                 + (f" (deadline {due:%Y-%m-%d %H:%M} UTC)." if due else "."),
        )
        sent += 1
    return sent


# ---- notifications -------------------------------------------------------------------------


def notify(*, user, game, kind: str, key: str, text: str) -> Notification | None:
    """Record a notification once per `key` and, after commit, queue its email (the task
    decides whether one goes out). Returns the notification if it is new."""
    if user is None or user.is_bot:
        return None
    note, created = Notification.objects.get_or_create(
        key=key, defaults={"user": user, "game": game, "kind": kind, "text": text[:500]}
    )
    if not created:
        return None
    from .tasks import notification_send

    transaction.on_commit(lambda: notification_send.delay(note.pk))
    return note


def _notify_turn(game, seat) -> None:
    if seat is None or seat.user_id is None or seat.bot_level:
        return
    notify(user=seat.user, game=game, kind=Notification.YOUR_TURN,
           key=f"your_turn:{game.pk}:{seat.index}:{game.seq}",
           text=f"Game {game.pk}: it is your turn.")


def _notify_game_over(game, seat) -> None:
    if seat.user_id is None:
        return
    result = game.result or {}
    ranking = result.get("ranking")
    scores = result.get("scores")
    text = f"Game {game.pk} is over."
    if scores is not None:
        text += f" Your score: {scores[seat.index]}."
    if ranking:
        text += f" Ranking: {ranking}."
    notify(user=seat.user, game=game, kind=Notification.GAME_OVER,
           key=f"game_over:{game.pk}:{seat.user_id}", text=text)


def notifications_mark_read(*, user) -> int:
    return Notification.objects.filter(user=user, read=False).update(read=True)


def email_unsubscribe(*, user) -> bool:
    """Stop every game email. Returns False when the user was already unsubscribed."""
    with transaction.atomic():
        _, created = EmailOptOut.objects.get_or_create(user=user)
        if created and user.email_on_turn != "never":
            get_user_model().objects.filter(pk=user.pk).update(email_on_turn="never")
    return created


def email_resubscribe(*, user) -> None:
    EmailOptOut.objects.filter(user=user).delete()


# ---- vacations -----------------------------------------------------------------------------


def _user_tz(user) -> ZoneInfo:
    try:
        return ZoneInfo(user.timezone)
    except Exception:  # a bad stored value must not lock the player out of vacations
        return ZoneInfo("UTC")


def vacation_create(*, user, first_day: date, last_day: date,
                    now: datetime | None = None) -> Vacation:
    """A vacation over whole days in the player's time zone (today: from now). Refused
    with a ClockError when it starts in the past, overlaps another or exceeds the
    20 days of a calendar year."""
    now = now or timezone.now()
    tz = _user_tz(user)
    if last_day < first_day:
        raise ClockError("the last day of a vacation cannot come before its first day")
    start, end = C.local_day_bounds(first_day, last_day, tz)
    if first_day == now.astimezone(tz).date():
        start = now
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
        taken = list(Vacation.objects.filter(user=user).values_list("start", "end"))
        try:
            C.vacation_check(start, end, taken, tz, now)
        except C.VacationError as e:
            raise ClockError(str(e)) from None
        vacation = Vacation.objects.create(user=user, start=start, end=end)
        _refresh_user_games(user)
    return vacation


def vacation_cancel(*, user, vacation_id: int, now: datetime | None = None) -> None:
    """Cancel a vacation that has not begun; one that has begun can no longer change."""
    now = now or timezone.now()
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(pk=vacation_id, user=user).first()
        if vacation is None:
            raise ClockError("no such vacation")
        if vacation.start <= now:
            raise ClockError(
                "this vacation has begun: your clocks already stood still for it, so it can "
                "no longer be changed or cancelled"
            )
        vacation.delete()
        _refresh_user_games(user)


def vacation_days_left(user, year: int) -> int:
    tz = _user_tz(user)
    used = 0
    for start, end in Vacation.objects.filter(user=user).values_list("start", "end"):
        used += C.vacation_days(start, end, tz).get(year, 0)
    return max(C.VACATION_DAYS_PER_YEAR - used, 0)


def _refresh_user_games(user) -> None:
    """Move the stored deadlines of the player's running correspondence games."""
    from games.models import Game

    ids = sorted(
        user.seats.filter(game__status=Game.PLAYING).values_list("game_id", flat=True)
    )
    for game in Game.objects.select_for_update().filter(pk__in=ids).order_by("pk"):
        tc = _time_control(game)
        if tc is not None and tc.vacations_apply:
            _refresh_deadlines(game, tc)
