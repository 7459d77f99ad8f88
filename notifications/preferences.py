"""What a player chose about notices: which go by push, e-mail, both or none; quiet hours in
their time zone; reminders before a deadline. One service writes them all
(`notice_settings_set`), for the settings page and the API alike: it checks everything
first and changes nothing when any part is wrong."""

import re
import zoneinfo
from datetime import time

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.signals import reminder_choices_changed
from games.errors import Refused

from .models import Notification

PUSH, EMAIL, BOTH, NONE = "push", "email", "both", "none"
CHANNELS = (PUSH, EMAIL, BOTH, NONE)
CHANNEL_LABELS = {
    PUSH: gettext_lazy("Push only"),
    EMAIL: gettext_lazy("E-mail only"),
    BOTH: gettext_lazy("Push and e-mail"),
    NONE: gettext_lazy("Only here in the site"),
}

# The kinds a player chooses channels for, in the order the settings page shows them.
# Staff warnings (WARNING) always go both ways; the daily digest has its own setting.
KIND_LABELS = {
    Notification.YOUR_TURN: gettext_lazy("It is your turn"),
    Notification.ALMOST_OUT: gettext_lazy("A deadline is near (reminders)"),
    Notification.TIMEOUT: gettext_lazy("Your time ran out"),
    Notification.GAME_OVER: gettext_lazy("A game is over"),
    Notification.INVITATION: gettext_lazy("Invitations and challenges"),
    Notification.REMATCH: gettext_lazy("Play again: a table's next game"),
    Notification.TOURNAMENT: gettext_lazy("Tournament rounds and news"),
    Notification.SUMMARY: gettext_lazy("The summary after quiet hours"),
}
CHOOSABLE_KINDS = tuple(KIND_LABELS)

MAX_REMINDERS = 4
MAX_REMINDER_HOURS = 14 * 24  # the longest correspondence clock is two weeks


class SettingsRefused(Refused):
    status = 400


def channels_of(user) -> dict[str, str]:
    """Every choosable kind -> the player's channel (both where they chose nothing)."""
    chosen = getattr(user, "notice_channels", None) or {}
    return {kind: chosen[kind] if chosen.get(kind) in CHANNELS else BOTH
            for kind in CHOOSABLE_KINDS}


def by_email(user, kind: str) -> bool:
    return (getattr(user, "notice_channels", None) or {}).get(kind, BOTH) in (EMAIL, BOTH)


def by_push(user, kind: str) -> bool:
    return (getattr(user, "notice_channels", None) or {}).get(kind, BOTH) in (PUSH, BOTH)


_CLOCK = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def _time_of(value, name: str) -> time | None:
    if value is None or value == "":
        return None
    if isinstance(value, time):
        return value.replace(second=0, microsecond=0)
    found = _CLOCK.match(value) if isinstance(value, str) else None
    if found is None:
        raise SettingsRefused(_("%(name)s must be a time of day such as 22:00") % {
            "name": name})
    return time(int(found.group(1)), int(found.group(2)))


def _hours_of(values) -> list[int]:
    if not isinstance(values, list | tuple):
        raise SettingsRefused(_("reminder_hours must be a list of hours, e.g. [24, 2]"))
    hours = []
    for value in values:
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            value = int(value.strip())
        if type(value) is not int or not 1 <= value <= MAX_REMINDER_HOURS:
            raise SettingsRefused(_("each reminder is a whole number of hours from 1 to "
                                    "%(most)d before the deadline") % {
                                        "most": MAX_REMINDER_HOURS})
        hours.append(value)
    hours = sorted(set(hours), reverse=True)
    if len(hours) > MAX_REMINDERS:
        raise SettingsRefused(_("at most %(n)d reminders") % {"n": MAX_REMINDERS})
    return hours


def _channels_of(values, current: dict) -> dict:
    if not isinstance(values, dict):
        raise SettingsRefused(_("channels must map a kind of notice to push, email, both "
                                "or none"))
    out = dict(current)
    for kind, channel in values.items():
        if kind not in CHOOSABLE_KINDS:
            raise SettingsRefused(_("unknown kind of notice %(kind)r: one of %(kinds)s") % {
                "kind": kind, "kinds": ", ".join(CHOOSABLE_KINDS)})
        if channel not in CHANNELS:
            raise SettingsRefused(_("%(kind)s: choose push, email, both or none") % {
                "kind": kind})
        out[kind] = channel
    return out


UNSET = object()


def notice_settings_set(*, user, channels=UNSET, quiet_start=UNSET, quiet_end=UNSET,
                        reminder_hours=UNSET, timezone=UNSET):
    """Change what the player chose; a part not given stays as it is. Every part is
    checked before anything is written: a bad one raises SettingsRefused (400) with a
    sentence, and nothing changes. Quiet hours need both ends (or neither). New reminder
    or quiet hours move the reminders of turns already running too (the clocks hear
    accounts.signals.reminder_choices_changed)."""
    fields = {}
    if channels is not UNSET:
        fields["notice_channels"] = _channels_of(channels, user.notice_channels or {})
    start = user.quiet_start if quiet_start is UNSET else _time_of(quiet_start, "quiet_start")
    end = user.quiet_end if quiet_end is UNSET else _time_of(quiet_end, "quiet_end")
    if quiet_start is not UNSET or quiet_end is not UNSET:
        if (start is None) != (end is None):
            raise SettingsRefused(_("quiet hours need a start and an end (or neither)"))
        if start is not None and start == end:
            raise SettingsRefused(_("quiet hours must not start and end at the same time"))
        fields["quiet_start"], fields["quiet_end"] = start, end
    if reminder_hours is not UNSET:
        fields["reminder_hours"] = _hours_of(reminder_hours)
    if timezone is not UNSET:
        if not isinstance(timezone, str) or timezone not in zoneinfo.available_timezones():
            raise SettingsRefused(_("%(zone)r is not a known time zone") % {"zone": timezone})
        fields["timezone"] = timezone
        fields["digest_next"] = None  # the digest job looks again at its next run
    if not fields:
        return user
    with transaction.atomic():
        get_user_model().objects.filter(pk=user.pk).update(**fields)
        for name, value in fields.items():
            setattr(user, name, value)
        if set(fields) & {"quiet_start", "quiet_end", "reminder_hours", "timezone"}:
            reminder_choices_changed.send(sender=type(user), user=user)
    return user


def notice_settings(user) -> dict:
    """The player's choices as the API shows them."""
    quiet = None
    if user.quiet_start is not None and user.quiet_end is not None:
        quiet = {"start": user.quiet_start.strftime("%H:%M"),
                 "end": user.quiet_end.strftime("%H:%M")}
    return {"channels": channels_of(user), "quiet_hours": quiet,
            "reminder_hours": list(user.reminder_hours or []), "timezone": user.timezone}
