"""{% load clocks %}: deadlines and remaining times as people read them."""

from datetime import datetime
from zoneinfo import ZoneInfo

from django import template
from django.utils import dateformat, formats
from django.utils.translation import gettext as _

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
    return f"{dateformat.format(local, formats.get_format('DATETIME_FORMAT'))} {local.tzname()}"


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
        return _("%(days)dd %(hours)dh") % {"days": days, "hours": hours}
    if hours:
        return _("%(hours)dh %(minutes)02dm") % {"hours": hours, "minutes": minutes}
    return f"{minutes}:{secs:02d}"
