"""Notifications: recorded once per key, emailed after commit (the email task decides
whether one goes out), and the player's email opt-out. Apps above games reach `notify`
through games.events.player_notice; games' own end is heard here (listeners.py)."""

from contextlib import contextmanager
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.language import in_language_of
from games import events
from games.live.presence import presence_here
from games.standing import standing_order
from lib.quiet_hours import quiet_until

from . import preferences
from .models import EmailOptOut, Notification


@contextmanager
def said_to(user):
    """Everything said to a player in their language and time zone (mail and notices are
    written where no request can tell)."""
    try:
        zone = ZoneInfo(user.timezone)
    except (ValueError, KeyError):  # a bad stored value must not stop the notice
        zone = UTC
    with in_language_of(user), timezone.override(zone):
        yield


def _words(text, params: dict | None) -> str:
    """`text` (lazy or not, or a function that writes it) in the active language, with
    `params` filled in: dates in the active time zone, with its name."""
    if callable(text):
        text = text()
    if not params:
        return str(text)
    values = {}
    for name, value in params.items():
        if isinstance(value, datetime):
            local = timezone.localtime(value)
            value = f"{local:%Y-%m-%d %H:%M} ({local.tzname()})"
        values[name] = value
    return str(text) % values


def header_safe(text: str) -> str:
    """One line, fit for a mail header: a newline in a name must not stop the mail."""
    return " ".join(str(text).split())


def notify(*, user, game=None, kind: str, key: str, text, params: dict | None = None,
           subject=None) -> Notification | None:
    """The one way to tell a player something. Records the in-site copy once per `key`
    (one notice per event), written in the recipient's language and time zone, and after
    commit queues its email and push as the player chose for this kind
    (notifications.preferences); those tasks apply the rest (opt-out, turn mail, an open
    table) and the mail gets one-click unsubscribe headers.

    During the player's quiet hours nothing goes out: the notice is held (`release_at`,
    the end of those hours), and then one summary tells of everything held
    (quiet.notices_release). The exception is a reminder of a deadline that falls before
    the quiet hours end (its turn began inside them): it goes out at once, so no timeout
    comes unannounced.

    A notice about a game is its one live notice of that kind: a new event updates it
    (unread again, mailed and pushed again) rather than adding another, and none is made
    while the player has that game's table open (they see it there). Returns the notice
    if it is new or updated."""
    if user is None or user.is_bot:
        return None
    if game is not None and presence_here(user.pk, game.pk):
        return None
    with said_to(user):
        words = _words(text, params)
        title = header_safe(_words(subject, params)) if subject else ""
    held_until = _held_until(user, kind, params)
    fields = {"key": key[:200], "text": words[:500], "subject": title[:200], "read": False,
              "emailed": False, "pushed": False, "release_at": held_until}
    note = _live_notice_write(user, game, kind, fields)
    if note is None:
        return None
    from .tasks import notification_push, notification_send

    _unread_changed(user.pk)

    def deliver(pk=note.pk):
        if held_until is not None:
            return  # held: the summary at the end of the quiet hours tells of it
        if preferences.by_email(user, kind):
            notification_send.delay(pk)
        if push_wanted() and preferences.by_push(user, kind):
            notification_push.delay(pk)

    transaction.on_commit(deliver)
    return note


def _held_until(user, kind: str, params: dict | None):
    """When the player's quiet hours end, if a notice of `kind` made now waits for that;
    None: it goes out now."""
    if kind == Notification.SUMMARY:
        return None
    until = quiet_until(user.timezone, user.quiet_start, user.quiet_end, timezone.now())
    if until is None:
        return None
    deadline = (params or {}).get("deadline")
    if kind == Notification.ALMOST_OUT and isinstance(deadline, datetime) \
            and deadline <= until:
        return None  # waiting for the morning would be waiting past the deadline
    return until


def push_wanted() -> bool:
    return bool(settings.WEBPUSH_ENABLED and settings.WEBPUSH_VAPID_PRIVATE_KEY)


def _live_notice_write(user, game, kind: str, fields: dict) -> Notification | None:
    """Create the notice, or update the game's live one of this kind; None if this event
    (its key) is recorded already."""
    try:
        with transaction.atomic():  # a savepoint: a lost race leaves the caller's work
            if game is None:
                note, created = Notification.objects.get_or_create(
                    key=fields["key"], defaults={"user": user, "kind": kind, **fields})
                return note if created else None
            note = (Notification.objects.select_for_update()
                    .filter(user=user, game=game, kind=kind).first())
            if note is None:
                return Notification.objects.create(user=user, game=game, kind=kind, **fields)
            if note.key == fields["key"]:
                return None
            fields["created"] = timezone.now()
            Notification.objects.filter(pk=note.pk).update(**fields)
            for name, value in fields.items():
                setattr(note, name, value)
            return note
    except IntegrityError:  # the same event recorded at the same moment elsewhere
        return None


def result_words(game, seats) -> str:
    """The final ranking in words, in the active language: "1. ann 8 points, 2. bob 5
    points, 3. cat 2 points (left the game)". Those who left the game come last."""
    by_index = {s.index: s for s in seats}
    scores = (game.result or {}).get("scores") or []
    order = standing_order((game.result or {}).get("ranking") or [],
                           {s.index for s in seats if s.abandoned})
    places = []
    for place, index in enumerate(order, start=1):
        seat = by_index.get(index)
        points = scores[index] if index < len(scores) else 0
        line = ngettext("%(place)d. %(name)s %(points)d point",
                        "%(place)d. %(name)s %(points)d points", points) % {
            "place": place, "name": seat.display_name if seat else "?", "points": points}
        if seat is not None and seat.abandoned:
            line += " " + gettext("(left the game)")
        places.append(line)
    return ", ".join(places)


def notify_game_ended(game, reason: str) -> None:
    """One notice to every person seated: the result in words, or why the game stopped."""
    seats = list(game.seats.select_related("user"))
    for seat in seats:
        if seat.user_id is None or seat.user.is_bot:
            continue
        if reason == events.FINISHED:
            def text(seats=seats):
                return gettext("Game over: %(places)s.") % {
                    "places": result_words(game, seats)}
            note_params = None
        else:
            text = gettext_lazy("Game %(game)s was stopped after %(moves)s moves: it kept "
                                "going in circles, so it counts for nobody.")
            note_params = {"game": game.pk, "moves": game.seq}
        notify(user=seat.user, game=game, kind=Notification.GAME_OVER,
               key=f"game_over:{game.pk}:{seat.user_id}", text=text, params=note_params)


def notifications_mark_read(*, user) -> int:
    """Mark every notice of the player read; their open pages' counts follow at once."""
    marked = Notification.objects.filter(user=user, read=False).update(read=True)
    if marked:
        _unread_changed(user.pk)
    return marked


def _unread_changed(user_id: int) -> None:
    """After commit, the player's open pages get their new unread count (live.py); a
    failure there is logged and never undoes or stops the write."""
    from .live import unread_send

    transaction.on_commit(lambda: unread_send(user_id), robust=True)


def email_unsubscribe(*, user) -> bool:
    """Stop every game email. Returns False when the user was already unsubscribed."""
    with transaction.atomic():
        _, created = EmailOptOut.objects.get_or_create(user=user)
        if created and user.email_on_turn != "never":
            get_user_model().objects.filter(pk=user.pk).update(email_on_turn="never")
    return created


def email_resubscribe(*, user) -> None:
    EmailOptOut.objects.filter(user=user).delete()


def notification_mark_read(*, user, notification_id: int) -> bool:
    """Mark one of the user's notices read (read already: nothing to do); False if no
    such notice is theirs."""
    mine = Notification.objects.filter(user=user, pk=notification_id)
    if mine.filter(read=False).update(read=True):
        _unread_changed(user.pk)
        return True
    return mine.exists()


def notifications_unread(user) -> int:
    return Notification.objects.filter(user=user, read=False).count()


def notifications_prune(*, now=None) -> int:
    """Delete read notices older than NOTIFICATIONS_KEEP_READ_DAYS and unread ones older
    than NOTIFICATIONS_KEEP_UNREAD_DAYS (their table only grows otherwise), oldest first,
    in bounded batches on the (read, created) index. Returns the notices deleted."""
    from datetime import timedelta

    from lib.batches import rows_delete_in_batches

    now = now or timezone.now()
    deleted = 0
    for read, days in ((True, settings.NOTIFICATIONS_KEEP_READ_DAYS),
                       (False, settings.NOTIFICATIONS_KEEP_UNREAD_DAYS)):
        due = Notification.objects.filter(read=read, created__lt=now - timedelta(days=days))
        deleted += rows_delete_in_batches(due, order_by="created",
                                          batch=settings.PRUNE_BATCH,
                                          max_batches=settings.PRUNE_MAX_BATCHES)
    return deleted

