"""Quiet hours: a daily window of local time (in the player's time zone) during which
nothing is pushed or mailed. Pure arithmetic, no app: clocks (reminders before a quiet
window) and notifications (holding notices) both use it.

A window runs from `start` to `end` local time, [start, end); `end` before `start` means
it crosses midnight (22:00-07:00). `start == end` or either missing: no quiet hours."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def zone_of(name: str | None):
    """The time zone named `name`; UTC for a bad or missing name (a stored value must
    never stop a notice)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ValueError, KeyError):
        return UTC


def _local(day: date, at: time, zone) -> datetime:
    """The moment `at` on `day` in `zone` (a wall time skipped by a DST change is read as
    the one after it, as zoneinfo does with fold=0), in UTC."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def quiet_window(zone_name: str | None, start: time | None, end: time | None,
                 moment: datetime) -> tuple[datetime, datetime] | None:
    """The quiet window (its start and end, UTC) that `moment` falls in, or None when
    `moment` is outside quiet hours (or the player has none)."""
    if start is None or end is None or start == end:
        return None
    zone = zone_of(zone_name)
    local_day = moment.astimezone(zone).date()
    # The window that began on the local day before, on that day, or (never needed, but
    # harmless) the next: the one holding `moment`, if any.
    for offset in (-1, 0):
        day = local_day + timedelta(days=offset)
        begins = _local(day, start, zone)
        ends = _local(day + timedelta(days=1) if end <= start else day, end, zone)
        if begins <= moment < ends:
            return begins, ends
    return None


def quiet_until(zone_name: str | None, start: time | None, end: time | None,
                moment: datetime) -> datetime | None:
    """When the quiet hours holding `moment` end (UTC), or None when it is not quiet."""
    window = quiet_window(zone_name, start, end, moment)
    return window[1] if window else None


# A reminder moved out of quiet hours goes this long before they begin.
BEFORE_QUIET = timedelta(minutes=5)


def before_quiet(zone_name: str | None, start: time | None, end: time | None,
                 moment: datetime) -> datetime:
    """`moment`, or, when it falls in quiet hours, a little before they begin: a reminder
    is never due while the player sleeps."""
    window = quiet_window(zone_name, start, end, moment)
    return moment if window is None else window[0] - BEFORE_QUIET
