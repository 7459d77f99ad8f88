"""Notifications: recorded once per key, emailed after commit (the email task decides
whether one goes out), and the player's email opt-out. Apps above games reach `notify`
through games.events.player_notice; games' own end is heard here (listeners.py)."""

from contextlib import contextmanager
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from accounts.language import in_language_of
from games import events
from games.standing import standing_order

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
    commit queues its email; the email task applies the player's preferences (opt-out,
    turn mail, an open table) and adds the one-click unsubscribe headers. Returns the
    notification if it is new."""
    if user is None or user.is_bot:
        return None
    with said_to(user):
        words = _words(text, params)
        title = header_safe(_words(subject, params)) if subject else ""
    note, created = Notification.objects.get_or_create(
        key=key[:200], defaults={"user": user, "game": game, "kind": kind, "text": words[:500],
                                 "subject": title[:200]}
    )
    if not created:
        return None
    from .tasks import notification_send  # the task module imports this one

    transaction.on_commit(lambda: notification_send.delay(note.pk))
    return note


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
    return Notification.objects.filter(user=user, read=False).update(read=True)


def email_unsubscribe(*, user) -> bool:
    """Stop every game email. Returns False when the user was already unsubscribed."""
    with transaction.atomic():
        _, created = EmailOptOut.objects.get_or_create(user=user)
        if created and user.email_on_turn != "never":
            get_user_model().objects.filter(pk=user.pk).update(email_on_turn="never")
    return created


def email_resubscribe(*, user) -> None:
    EmailOptOut.objects.filter(user=user).delete()
