"""When a correspondence player is reminded of a deadline: at the points they chose
(hours before it, accounts' `reminder_hours`), else once at the last fifth of the clock;
never inside their quiet hours: a reminder due then comes a little before they begin, so a
deadline at night is announced in the evening (lib.quiet_hours)."""

from datetime import datetime

from lib.quiet_hours import before_quiet

from . import clock as C


def reminder_points(tc, user) -> list[float]:
    """Seconds before the deadline, the earliest reminder first."""
    hours = getattr(user, "reminder_hours", None) or []
    if hours:
        return sorted({float(h) * 3600 for h in hours}, reverse=True)
    return [tc.warn_reserve]


def _moment(clk: C.Clock, vacations, user, lead: float) -> datetime | None:
    moment = C.deadline(clk, vacations, reserve=lead)
    if moment is None or user is None:
        return moment
    return before_quiet(user.timezone, user.quiet_start, user.quiet_end, moment)


def reminder_next(row, clk: C.Clock, tc, vacations, user) -> datetime | None:
    """When the row's next reminder (number `row.reminded` of this turn) is due; None when
    every one is sent."""
    points = reminder_points(tc, user)
    if row.reminded >= len(points):
        return None
    return _moment(clk, vacations, user, points[row.reminded])


def reminders_passed(clk: C.Clock, tc, vacations, user, now: datetime) -> int:
    """At the start of a turn: how many reminders are already behind (a turn that starts
    with 20 hours left gets no "24 hours left"). The last one is never skipped: a turn
    with less time left than every point is still reminded once."""
    points = reminder_points(tc, user)
    passed = 0
    for lead in points[:-1]:
        moment = _moment(clk, vacations, user, lead)
        if moment is None or moment > now:
            break
        passed += 1
    return passed
