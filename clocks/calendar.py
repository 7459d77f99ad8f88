"""A player's private calendar feed (RFC 5545): one event per game waiting on them, at its
deadline, refreshed as moves are made. The secret in the address is the credential; a
new one revokes the old."""

import secrets
from datetime import UTC, datetime

from django.conf import settings
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.language import in_language_of
from games.models import Game

from .models import CalendarFeed, SeatClock


def _new_secret() -> str:
    return secrets.token_urlsafe(32)


def calendar_feed_for(user) -> CalendarFeed:
    feed, _ = CalendarFeed.objects.get_or_create(user=user, defaults={"secret": _new_secret()})
    return feed


def calendar_secret_renew(*, user) -> CalendarFeed:
    """A new secret: the old address stops working at once."""
    feed, _ = CalendarFeed.objects.update_or_create(user=user,
                                                    defaults={"secret": _new_secret()})
    return feed


def calendar_url(user) -> str:
    path = reverse("calendar_feed", args=[calendar_feed_for(user).secret])
    return settings.SITE_URL.rstrip("/") + path


def calendar_user(secret: str):
    feed = CalendarFeed.objects.select_related("user").filter(secret=secret).first()
    return feed.user if feed is not None and feed.user.is_active else None


def waiting_clocks(user) -> list[SeatClock]:
    """The running clocks of the user's seats in games being played, soonest first (one
    query, whatever the number of games)."""
    return list(
        SeatClock.objects.filter(game__seats__user=user, game__seats__index=F("seat"),
                                 game__seats__bot_level__isnull=True,
                                 game__status=Game.PLAYING, running_since__isnull=False,
                                 deadline__isnull=False)
        .order_by("deadline", "game_id"))


def waiting_deadlines(user, game_ids) -> dict:
    """{game_id: deadline} of the user's running clocks in those games (one query); the
    games' order in "my games" and the "next game" button come from it."""
    return dict(
        SeatClock.objects.filter(game_id__in=game_ids, game__seats__user=user,
                                 game__seats__index=F("seat"), running_since__isnull=False,
                                 deadline__isnull=False)
        .values_list("game_id", "deadline"))


def _text(value: str) -> str:
    """A TEXT value (RFC 5545 3.3.11)."""
    return (value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _fold(line: str) -> str:
    """Lines of at most 75 octets, continued with a space (3.1), never inside a character."""
    out, current = [], b""
    for char in line:
        encoded = char.encode()
        if len(current) + len(encoded) > (75 if not out else 74):
            out.append(current)
            current = b""
        current += encoded
    out.append(current)
    return "\r\n ".join(part.decode() for part in out)


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_text(user) -> str:
    """The feed, in the player's language."""
    host = settings.SITE_URL.split("://", 1)[-1].split("/", 1)[0] or "blaze"
    now = _stamp(timezone.now())
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Blaze online//Deadlines//EN",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
    with in_language_of(user):
        lines.append("X-WR-CALNAME:" + _text(_("Blaze: my deadlines")))
        for row in waiting_clocks(user):
            link = settings.SITE_URL.rstrip("/") + reverse("game_table", args=[row.game_id])
            lines += [
                "BEGIN:VEVENT",
                f"UID:game-{row.game_id}-seat-{row.seat}@{host}",
                f"DTSTAMP:{now}",
                f"DTSTART:{_stamp(row.deadline)}",
                f"DTEND:{_stamp(row.deadline)}",
                "SUMMARY:" + _text(_("Blaze: your move in game %(game)s") % {
                    "game": row.game_id}),
                "DESCRIPTION:" + _text(_("Your clock runs out at this time: after it the "
                                         "bot moves for you. %(link)s") % {"link": link}),
                f"URL:{link}",
                "END:VEVENT",
            ]
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)
