"""Background work of notifications: a notice's email, the daily digest. Every task is safe
to run twice: work is claimed with a conditional update or a unique key."""

import logging

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games.live.presence import presence_here
from games.models import Game, Seat

from . import preferences
from .models import EmailOptOut, Notification

log = logging.getLogger(__name__)


def _email_blocked(note: Notification) -> str | None:
    """Why this notification gets no email (None: send it)."""
    user = note.user
    if not user.email or user.is_bot or not user.is_active:
        return "no address"
    if note.release_at is not None:
        return "held for the end of the quiet hours"
    if not preferences.by_email(user, note.kind):
        return "chose no e-mail for this kind"
    if EmailOptOut.objects.filter(user=user).exists():
        return "unsubscribed"
    if note.kind == Notification.YOUR_TURN:
        if user.email_on_turn != "immediate":
            return f"prefers {user.email_on_turn}"
        game = note.game
        seat = game.seats.filter(user=user).first() if game else None
        if game is None or game.status != "playing" or seat is None \
                or seat.index not in game.waiting_on:
            return "no longer their turn"
    if note.game_id is not None and presence_here(user.pk, note.game_id):
        return "has the game open"
    return None


@shared_task(ignore_result=True)
def notification_send(notification_id: int) -> bool:
    """Email one notification, at most once (claimed with a conditional update)."""
    from .emails import notification_message

    note = (Notification.objects.select_related("user", "game")
            .filter(pk=notification_id, emailed=False).first())
    if note is None:
        return False
    reason = _email_blocked(note)
    if reason:
        log.debug("no email for %s: %s", note.key, reason)
        return False
    if not Notification.objects.filter(pk=note.pk, emailed=False).update(emailed=True):
        return False  # another worker sent it
    try:
        notification_message(note).send()
    except Exception:
        Notification.objects.filter(pk=note.pk).update(emailed=False)  # let a retry send it
        raise
    return True


@shared_task(ignore_result=True)
def notification_push(notification_id: int) -> int:
    """Push one notice to its player's browsers, at most once per event (claimed with a
    conditional update; an updated notice is pushed again). Not while the player has the
    game open: the table shows it."""
    from .push import push_send

    note = (Notification.objects.select_related("user")
            .filter(pk=notification_id, pushed=False).first())
    if note is None or note.release_at is not None \
            or not preferences.by_push(note.user, note.kind) \
            or not note.user.push_subscriptions.exists():
        return 0
    if note.game_id is not None and presence_here(note.user_id, note.game_id):
        return 0
    if not Notification.objects.filter(pk=note.pk, key=note.key, pushed=False).update(
            pushed=True):
        return 0  # another worker pushed it, or it was updated since (its own task pushes)
    waiting = len(_waiting_seats(note.user)) if note.kind == Notification.YOUR_TURN else 1
    return push_send(note, waiting)


def _waiting_seats(user) -> list:
    seats = (Seat.objects.filter(user=user, bot_level__isnull=True, game__status=Game.PLAYING)
             .select_related("game").order_by("game_id"))
    return [s for s in seats if s.index in s.game.waiting_on]


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Hourly (beat): the daily digests due (notifications.digests), BLAZE_DIGEST_BATCH
    readers a run; after a full batch the task queues itself for the next one."""
    from .digests import digests_send

    run = digests_send(timezone.now(), batch=settings.BLAZE_DIGEST_BATCH)
    if run.more:
        send_digests.apply_async()
    return run.sent


@shared_task(ignore_result=True)
def notifications_prune() -> int:
    """Daily (beat): old read and unread notices deleted (notifications.notifications_prune);
    a plain filter on the dates, safe to run twice."""
    from .notifications import notifications_prune as prune

    return prune()


@shared_task(ignore_result=True)
def notices_release() -> int:
    """Every minute (beat): one summary to each player whose quiet hours just ended."""
    from .quiet import notices_release as release

    return release()


# Tasks queued before notifications had an app of their own carry the old names: still
# accepted.
@shared_task(name="correspondence.tasks.notification_send", ignore_result=True)
def notification_send_old_name(notification_id: int) -> bool:
    return notification_send(notification_id)


@shared_task(name="correspondence.tasks.send_digests", ignore_result=True)
def send_digests_old_name() -> int:
    return send_digests()
