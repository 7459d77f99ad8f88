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

from games.engine.words import Sentence as S
from games.engine.words import gettext_noop as N_  # a marker: makemessages collects N_("…")
from games.time_controls import (  # noqa: F401 - the clocks' vocabulary, re-exported
    CORRESPONDENCE,
    DAY,
    LIVE,
    TimeControl,
    TimeControlError,
    parse_time_control,
)

VACATION_DAYS_PER_YEAR = 20

Interval = tuple[datetime, datetime]


class VacationError(ValueError):
    """A vacation that cannot be taken; the message says why."""


@dataclass(frozen=True)
class Clock:
    remaining: float  # seconds left when the clock last stopped or started
    running_since: datetime | None = None

    @property
    def running(self) -> bool:
        return self.running_since is not None


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
        raise VacationError(N_("vacation times must be timezone-aware"))
    if end <= start:
        raise VacationError(N_("a vacation must end after it starts"))
    if start < now - timedelta(minutes=5):
        raise VacationError(N_("a vacation cannot start in the past"))
    for s, e in taken:
        if s < end and start < e:
            raise VacationError(N_("this vacation overlaps another one of yours"))
    wanted = vacation_days(start, end, tz)
    used: dict[int, int] = {}
    for s, e in taken:
        for year, n in vacation_days(s, e, tz).items():
            used[year] = used.get(year, 0) + n
    for year, n in sorted(wanted.items()):
        left = allowance - used.get(year, 0)
        if n > left:
            raise VacationError(S(
                N_("this vacation needs {n} days of {year} but only {left} of the {allowance} "
                   "vacation days of {year} are left"),
                n=n, year=year, left=max(left, 0), allowance=allowance))
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
