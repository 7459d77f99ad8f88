"""Game clocks as pure functions: no Django, no database, no "now" but the one passed in.

A time control gives every seat a bank of seconds. A seat's clock runs only while the
game waits on that seat (during bets several seats at once); when the seat moves, the
time it took is charged, the increment added and the total capped. Correspondence
"N days per move" is a bank of N days that a move refills (and that refills whenever the
turn passes on). While a player is on vacation their correspondence clocks stand still.

Every datetime is timezone-aware; remaining times are float seconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta, tzinfo

DAY = 86400
LIVE, CORRESPONDENCE = "live", "correspondence"
PER_MOVE_DAYS = (1, 2, 3, 5, 7)
MAX_CORRESPONDENCE_DAYS = 7
LIVE_MAX_MINUTES = 180
LIVE_MAX_INCREMENT = 180
WARN_SHARE = 0.2  # "almost out of time" when a fifth of the full clock is left
VACATION_DAYS_PER_YEAR = 20

Interval = tuple[datetime, datetime]


class TimeControlError(ValueError):
    """A time-control object that cannot be used; the message says what to fix."""


class VacationError(ValueError):
    """A vacation that cannot be taken; the message says why."""


@dataclass(frozen=True)
class TimeControl:
    kind: str
    initial: float  # seconds in the bank at the start
    increment: float  # seconds added to a seat's bank after each of its moves
    cap: float  # the bank never holds more
    per_move: bool  # the bank refills whenever the seat's turn ends

    @property
    def vacations_apply(self) -> bool:
        return self.kind == CORRESPONDENCE

    @property
    def warn_reserve(self) -> float:
        """Seconds left at which the player is told they are almost out of time."""
        return WARN_SHARE * self.cap


@dataclass(frozen=True)
class Clock:
    remaining: float  # seconds left when the clock last stopped or started
    running_since: datetime | None = None

    @property
    def running(self) -> bool:
        return self.running_since is not None


# ---- time controls ---------------------------------------------------------------------------


def _int_field(tc: dict, key: str, low: int, high: int, default=None) -> int:
    if key not in tc:
        if default is None:
            raise TimeControlError(f'{tc.get("kind")} time control needs "{key}"')
        return default
    value = tc[key]
    if type(value) is not int or not low <= value <= high:
        raise TimeControlError(f'"{key}" must be a whole number from {low} to {high}')
    return value


def _no_other_keys(tc: dict, allowed: set) -> None:
    extra = sorted(set(tc) - allowed - {"kind"})
    if extra:
        raise TimeControlError(
            f"unknown time control field {extra[0]!r}: use {', '.join(sorted(allowed))}"
        )


def parse_time_control(tc) -> TimeControl:
    """Check a time-control object and turn it into seconds. Raises TimeControlError.

    live:            {"kind": "live", "minutes": 10, "increment": 5, "max_minutes": 15}
                     (increment in seconds, default 0; max_minutes defaults to minutes)
    correspondence:  {"kind": "correspondence", "days": 1|2|3|5|7}   (per move), or
                     {"kind": "correspondence", "bank_days": 3, "increment_days": 1,
                      "max_days": 7}   (a bank; max_days defaults to 7, never more)
    """
    if not isinstance(tc, dict):
        raise TimeControlError("a time control must be an object with a \"kind\"")
    kind = tc.get("kind")
    if kind == LIVE:
        _no_other_keys(tc, {"minutes", "increment", "max_minutes"})
        minutes = _int_field(tc, "minutes", 1, LIVE_MAX_MINUTES)
        increment = _int_field(tc, "increment", 0, LIVE_MAX_INCREMENT, default=0)
        max_minutes = _int_field(tc, "max_minutes", 1, LIVE_MAX_MINUTES, default=minutes)
        if max_minutes < minutes:
            raise TimeControlError('"max_minutes" cannot be less than "minutes"')
        return TimeControl(LIVE, minutes * 60.0, float(increment), max_minutes * 60.0, False)
    if kind == CORRESPONDENCE:
        if "days" in tc:
            _no_other_keys(tc, {"days"})
            days = tc["days"]
            if type(days) is not int or days not in PER_MOVE_DAYS:
                raise TimeControlError('"days" per move must be one of 1, 2, 3, 5 or 7')
            return TimeControl(CORRESPONDENCE, days * DAY, days * DAY, days * DAY, True)
        if "bank_days" in tc:
            _no_other_keys(tc, {"bank_days", "increment_days", "max_days"})
            top = MAX_CORRESPONDENCE_DAYS
            bank = _int_field(tc, "bank_days", 1, top)
            increment = _int_field(tc, "increment_days", 0, top, default=1)
            cap = _int_field(tc, "max_days", 1, top, default=top)
            if cap < bank:
                raise TimeControlError('"max_days" cannot be less than "bank_days"')
            return TimeControl(CORRESPONDENCE, bank * DAY, increment * DAY, cap * DAY, False)
        raise TimeControlError(
            'a correspondence time control needs "days" (per move) or "bank_days"'
        )
    raise TimeControlError('time control "kind" must be "live" or "correspondence"')


# ---- vacations ------------------------------------------------------------------------------


def _utc(t: datetime) -> datetime:
    # Subtracting two datetimes of one zone ignores DST changes: compute in UTC only.
    return t.astimezone(UTC)


def _merged(intervals: Iterable[Interval]) -> list[Interval]:
    out: list[list[datetime]] = []
    for start, end in sorted((_utc(s), _utc(e)) for s, e in intervals if e > s):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(s, e) for s, e in out]


def paused_seconds(since: datetime, until: datetime, vacations: Iterable[Interval]) -> float:
    """Seconds of [since, until) that fall inside the vacations."""
    total = 0.0
    since, until = _utc(since), _utc(until)
    for start, end in _merged(vacations):
        lo, hi = max(start, since), min(end, until)
        if hi > lo:
            total += (hi - lo).total_seconds()
    return total


def elapsed(since: datetime, until: datetime, vacations: Iterable[Interval] = ()) -> float:
    """Clock seconds between two moments: wall time less the vacations within."""
    if until <= since:
        return 0.0
    return (_utc(until) - _utc(since)).total_seconds() - paused_seconds(since, until, vacations)


def vacation_days(start: datetime, end: datetime, tz: tzinfo) -> dict[int, int]:
    """Calendar days (in the player's time zone) that [start, end) touches, per year."""
    if end <= start:
        return {}
    first = start.astimezone(tz).date()
    last = (end - timedelta(microseconds=1)).astimezone(tz).date()
    days: dict[int, int] = {}
    d = first
    while d <= last:
        days[d.year] = days.get(d.year, 0) + 1
        d += timedelta(days=1)
    return days


def vacation_check(
    start: datetime, end: datetime, taken: Sequence[Interval], tz: tzinfo, now: datetime,
    allowance: int = VACATION_DAYS_PER_YEAR,
) -> dict[int, int]:
    """Refuse a vacation that starts in the past, overlaps another or exceeds the yearly
    allowance; return the days it uses per year."""
    if start.tzinfo is None or end.tzinfo is None:
        raise VacationError("vacation times must be timezone-aware")
    if end <= start:
        raise VacationError("a vacation must end after it starts")
    if start < now - timedelta(minutes=5):
        raise VacationError("a vacation cannot start in the past")
    for s, e in taken:
        if s < end and start < e:
            raise VacationError("this vacation overlaps another one of yours")
    wanted = vacation_days(start, end, tz)
    used: dict[int, int] = {}
    for s, e in taken:
        for year, n in vacation_days(s, e, tz).items():
            used[year] = used.get(year, 0) + n
    for year, n in sorted(wanted.items()):
        left = allowance - used.get(year, 0)
        if n > left:
            raise VacationError(
                f"this vacation needs {n} days of {year} but only {max(left, 0)} of the "
                f"{allowance} vacation days of {year} are left"
            )
    return wanted


def local_day_bounds(first: date, last: date, tz: tzinfo) -> Interval:
    """[first 00:00, day after last 00:00) in `tz`, as aware datetimes."""
    start = datetime.combine(first, datetime.min.time(), tzinfo=tz)
    end = datetime.combine(last + timedelta(days=1), datetime.min.time(), tzinfo=tz)
    return start, end


# ---- clocks ---------------------------------------------------------------------------------


def clocks_start(tc: TimeControl, players: int, waiting_on: Iterable[int],
                 now: datetime) -> list[Clock]:
    """Full banks for every seat; the clocks of the seats the game waits on run from now."""
    _aware(now)
    waited = set(waiting_on)
    return [Clock(tc.initial, now if seat in waited else None) for seat in range(players)]


def remaining_at(clock: Clock, now: datetime, vacations: Iterable[Interval] = ()) -> float:
    """Seconds left on the clock at `now` (negative once it ran out)."""
    if clock.running_since is None:
        return clock.remaining
    return clock.remaining - elapsed(clock.running_since, now, vacations)


def deadline(clock: Clock, vacations: Iterable[Interval] = (), reserve: float = 0.0):
    """When the running clock reaches `reserve` seconds left (0: runs out); None if stopped.

    Vacations ahead move it: the clock stands still during each one.
    """
    if clock.running_since is None:
        return None
    t = _utc(clock.running_since)
    left = max(clock.remaining - reserve, 0.0)
    for start, end in _merged(vacations):
        if end <= t:
            continue
        if start > t:
            gap = (start - t).total_seconds()
            if gap >= left:
                break
            left -= gap
        t = end
    return t + timedelta(seconds=left)


def timed_out(clock: Clock, now: datetime, vacations: Iterable[Interval] = ()) -> bool:
    return clock.running_since is not None and remaining_at(clock, now, vacations) <= 0


def clocks_on_move(
    tc: TimeControl, clocks: Sequence[Clock], *, mover: int, waiting_after: Iterable[int],
    now: datetime, vacations: dict[int, Sequence[Interval]] | None = None,
) -> list[Clock]:
    """The clocks after `mover` moved at `now` and the game now waits on `waiting_after`.

    The mover is charged the time it took (never below zero), gets the increment, capped.
    A seat no longer waited on stops (per-move controls refill it); a seat newly waited on
    starts; a seat still waited on that did not move keeps running untouched.
    """
    _aware(now)
    vacations = vacations if (vacations and tc.vacations_apply) else {}
    waited = set(waiting_after)
    out = []
    for seat, clock in enumerate(clocks):
        is_waited = seat in waited
        if clock.running_since is None:
            out.append(replace(clock, running_since=now) if is_waited else clock)
            continue
        if seat != mover and is_waited:
            out.append(clock)
            continue
        left = max(remaining_at(clock, now, vacations.get(seat, ())), 0.0)
        if seat == mover:
            left = min(left + tc.increment, tc.cap)
        elif tc.per_move:
            left = tc.cap
        out.append(Clock(left, now if is_waited else None))
    return out


def clock_state(tc: TimeControl, clock: Clock, now: datetime,
                vacations: Iterable[Interval] = ()) -> dict:
    """A JSON-ready summary: seconds left (never negative), running, deadline (ISO)."""
    vacations = list(vacations) if tc.vacations_apply else []
    left = max(remaining_at(clock, now, vacations), 0.0)
    due = deadline(clock, vacations)
    return {
        "remaining": math.floor(left * 10) / 10,
        "running": clock.running,
        "deadline": due.isoformat() if due else None,
        "paused": bool(clock.running and any(s <= now < e for s, e in vacations)),
    }


def _aware(now: datetime) -> None:
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("clock times must be timezone-aware")
