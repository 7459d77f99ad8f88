"""Vacations: whole days in the player's time zone, up to 20 a calendar year, during
which their correspondence clocks stand still."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Refused
from games.models import Game
from games.words import say

from . import clock as C
from .clocks import deadlines_refresh, time_control_of
from .models import Vacation


class ClockError(Refused):
    """A refused request about clocks or vacations; `message` says why."""


MAX_AHEAD = timedelta(days=366)  # how far ahead a vacation may be booked

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
        raise ClockError(_("the last day of a vacation cannot come before its first day"))
    if last_day > now.astimezone(tz).date() + MAX_AHEAD:  # the calendar's end is not far
        raise ClockError(_("a vacation must end within a year from today"))
    start, end = C.local_day_bounds(first_day, last_day, tz)
    if first_day == now.astimezone(tz).date():
        start = now
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one at a time
        taken = list(Vacation.objects.filter(user=user).values_list("start", "end"))
        try:
            C.vacation_check(start, end, taken, tz, now)
        except C.VacationError as e:
            raise ClockError(say(e.args[0])) from None
        vacation = Vacation.objects.create(user=user, start=start, end=end)
        _refresh_user_games(user)
    return vacation


def vacation_cancel(*, user, vacation_id: int, now: datetime | None = None) -> None:
    """Cancel a vacation that has not begun; one that has begun can no longer change."""
    now = now or timezone.now()
    with transaction.atomic():
        vacation = Vacation.objects.select_for_update().filter(pk=vacation_id, user=user).first()
        if vacation is None:
            raise ClockError(_("no such vacation"))
        if vacation.start <= now:
            raise ClockError(_(
                "this vacation has begun: your clocks already stood still for it, so it can "
                "no longer be changed or cancelled"
            ))
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
    ids = sorted(
        user.seats.filter(game__status=Game.PLAYING).values_list("game_id", flat=True)
    )
    for game in Game.objects.select_for_update().filter(pk__in=ids).order_by("pk"):
        tc = time_control_of(game)
        if tc is not None and tc.vacations_apply:
            deadlines_refresh(game, tc)
