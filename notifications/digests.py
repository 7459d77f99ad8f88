"""The daily digest: one email a day, from DIGEST_HOUR in the player's time zone, listing
every game waiting on them, for players who chose the digest. Keyed per user and day, so
it goes out at most once.

Each reader carries the moment the job should next look at them (`User.digest_next`); a
run looks at a bounded batch of readers due a look, in due order, and moves each one's
moment on, so the next run (queued by the task while batches come full) starts after
them: a run costs the same however many readers the site has."""

import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef

from accounts.models import User
from games.models import Game, Seat
from lib.quiet_hours import quiet_until, zone_of

from .models import EmailOptOut, Notification

log = logging.getLogger(__name__)


def digest_key(user_id: int, day: date) -> str:
    return f"digest:{user_id}:{day.isoformat()}"


def readers_due(now: datetime, *, batch: int) -> list:
    """Up to `batch` readers due a look, in due order: those never looked at first (a new
    reader), then by `digest_next`. One query of two index scans that stop at `batch` rows
    (partial index user_digest_readers; two queries on SQLite): its cost does not grow with
    the readers."""
    readers = User.objects.filter(email_on_turn="digest").annotate(
        opted_out=Exists(EmailOptOut.objects.filter(user=OuterRef("pk"))))
    new = readers.filter(digest_next__isnull=True).order_by("pk")[:batch]
    due = readers.filter(digest_next__lte=now).order_by("digest_next", "pk")[:batch]
    if connection.features.supports_slicing_ordering_in_compound:
        found = list(new.union(due, all=True))
    else:  # SQLite: no LIMIT inside a UNION, so the two scans are two queries
        found = [*new, *due]
    found.sort(key=lambda u: (u.digest_next is not None, u.digest_next or now, u.pk))
    return found[:batch]


@dataclass
class DigestRun:
    sent: int
    more: bool  # a full batch: more readers may be due


def _at(day: date, hour: int, zone) -> datetime:
    return datetime.combine(day, time(hour), tzinfo=zone).astimezone(UTC)


def digests_send(now: datetime, *, batch: int) -> DigestRun:
    """Look at one batch of readers due a look (readers_due) and send those whose digest
    is due: a fixed number of queries, plus a claim and a mail per digest sent. Each reader
    looked at gets the moment of their next look: tomorrow's DIGEST_HOUR once today's went
    out (or cannot: no address, opted out), today's when it is not yet the hour, the end of
    their quiet hours, or an hour on while no game waits on them or a mail failed (as the
    hourly job looked before). A digest is claimed by its key, then mailed after the claim
    commits; a failed mail gives the claim back."""
    from .emails import digest_message

    hour = settings.DIGEST_HOUR
    readers = readers_due(now, batch=batch)
    later = now + timedelta(hours=1)
    local_day, tomorrow_of = {}, {}
    for user in readers:
        zone = zone_of(user.timezone)
        local = now.astimezone(zone)
        local_day[user.pk] = local.date()
        tomorrow = _at(local.date() + timedelta(days=1), hour, zone)
        if user.is_bot or not user.is_active or not user.email or user.opted_out:
            user.digest_next = tomorrow
        elif local.hour < hour:
            user.digest_next = _at(local.date(), hour, zone)
        else:
            user.digest_next = None  # decided below
            tomorrow_of[user.pk] = tomorrow
    keys = {u.pk: digest_key(u.pk, local_day[u.pk]) for u in readers if u.digest_next is None}
    sent_already = set(Notification.objects.filter(key__in=list(keys.values()))
                       .values_list("key", flat=True)) if keys else set()
    open_now = []
    for user in readers:
        if user.digest_next is not None:
            continue
        if keys[user.pk] in sent_already:
            user.digest_next = tomorrow_of[user.pk]
            continue
        quiet_end = quiet_until(user.timezone, user.quiet_start, user.quiet_end, now)
        if quiet_end is not None:
            user.digest_next = quiet_end
            continue
        open_now.append(user)
    waiting: dict[int, list] = {}
    if open_now:
        for seat in (Seat.objects.filter(user__in=[u.pk for u in open_now],
                                         bot_level__isnull=True, game__status=Game.PLAYING)
                     .select_related("game").order_by("game_id")):
            if seat.index in seat.game.waiting_on:
                waiting.setdefault(seat.user_id, []).append(seat)
    sent = 0
    for user in open_now:
        seats = waiting.get(user.pk)
        user.digest_next = later
        if not seats:
            continue
        games = ", ".join(str(s.game_id) for s in seats)
        try:
            with transaction.atomic():
                note = Notification.objects.create(
                    key=keys[user.pk], user=user, kind=Notification.DIGEST, emailed=True,
                    text=f"Daily digest: games waiting on you: {games}.")
        except IntegrityError:
            user.digest_next = tomorrow_of[user.pk]  # another run sent today's digest
            continue
        try:
            digest_message(user, seats).send()
        except Exception as exc:
            note.delete()  # unclaimed: the next look sends it
            log.warning("digest to user %s not sent (%s); tried again in an hour",
                        user.pk, exc)
            continue
        user.digest_next = tomorrow_of[user.pk]
        sent += 1
    if readers:
        User.objects.bulk_update(readers, ["digest_next"])
    return DigestRun(sent, len(readers) == batch)
