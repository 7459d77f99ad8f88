"""Notifications: recorded once per key, emailed after commit (the email task decides
whether one goes out), and the player's email opt-out."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.language import in_language_of

from .models import EmailOptOut, Notification


def notify(*, user, game, kind: str, key: str, text) -> Notification | None:
    """Record a notification once per `key` and, after commit, queue its email (the task
    decides whether one goes out). Returns the notification if it is new. `text` is a
    string or a function making it: it is called in the recipient's language."""
    if user is None or user.is_bot:
        return None
    if callable(text):
        with in_language_of(user):
            text = text()
    note, created = Notification.objects.get_or_create(
        key=key, defaults={"user": user, "game": game, "kind": kind, "text": text[:500]}
    )
    if not created:
        return None
    from .tasks import notification_send  # the task module imports this one

    transaction.on_commit(lambda: notification_send.delay(note.pk))
    return note


def notify_turn(game, seat) -> None:
    if seat is None or seat.user_id is None or seat.bot_level:
        return
    notify(user=seat.user, game=game, kind=Notification.YOUR_TURN,
           key=f"your_turn:{game.pk}:{seat.index}:{game.seq}",
           text=lambda: _("Game %(game)s: it is your turn.") % {"game": game.pk})


def notify_game_over(game, seat) -> None:
    if seat.user_id is None:
        return
    result = game.result or {}
    ranking = result.get("ranking")
    scores = result.get("scores")
    names = {s.index: s.name for s in game.seats.all()}

    def text():
        said = _("Game %(game)s is over.") % {"game": game.pk}
        if scores is not None:
            said += " " + _("Your score: %(score)s.") % {"score": scores[seat.index]}
        if ranking:
            said += " " + _("Ranking: %(names)s.") % {
                "names": ", ".join(names.get(i, str(i)) for i in ranking)}
        return said

    notify(user=seat.user, game=game, kind=Notification.GAME_OVER,
           key=f"game_over:{game.pk}:{seat.user_id}", text=text)


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
