"""{% load clocks %}: deadlines and remaining times as people read them."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django import template

register = template.Library()


@register.filter
def in_timezone(value, tzname):
    """A datetime (or ISO string) as a short date and time in `tzname`, e.g.
    {{ clock.deadline|in_timezone:user.timezone }} -> "Tue 3 Mar 2026, 14:00 CET"."""
    if not value:
        return ""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return ""
    try:
        tz = ZoneInfo(tzname or "UTC")
    except Exception:
        tz = ZoneInfo("UTC")
    local = value.astimezone(tz)
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} {local.tzname()}"


@register.filter
def duration(seconds):
    """Seconds as "2d 3h", "4h 05m", "3:07"."""
    try:
        s = max(int(float(seconds)), 0)
    except (TypeError, ValueError):
        return ""
    days, rest = divmod(s, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}:{secs:02d}"
