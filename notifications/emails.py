"""The emails: each with a link to its game and a one-click unsubscribe (RFC 8058)."""

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.language import in_language_of

from .notifications import header_safe

UNSUBSCRIBE_SALT = "correspondence.unsubscribe"  # as before the split: sent links still work


def unsubscribe_token(user) -> str:
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_user_id(token: str) -> int | None:
    """The user a token was made for, or None when it is not one of ours."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user_id = data.get("u") if isinstance(data, dict) else None
    return user_id if type(user_id) is int else None


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def game_path(game_id: int) -> str:
    try:
        return reverse("game", args=[game_id])
    except NoReverseMatch:  # the table page's name, once it exists, is "game"
        return f"/games/{game_id}/"


def unsubscribe_url(user) -> str:
    return absolute(reverse("notifications_unsubscribe", args=[unsubscribe_token(user)]))


def _message(user, subject: str, body: str) -> EmailMessage:
    """Call inside in_language_of(user): the footer is in the recipient's language."""
    link = unsubscribe_url(user)
    footer = "\n\n--\n" + _(
        "Your notifications: %(notifications)s\nStop these emails with one click: %(link)s\n"
    ) % {"notifications": absolute(reverse("notifications")), "link": link}
    return EmailMessage(
        subject=header_safe(f"[Blaze] {subject}"),
        body=body + footer,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


SUBJECTS = {
    "your_turn": gettext_lazy("Your turn in game %(game)s"),
    "almost_out": gettext_lazy("Almost out of time in game %(game)s"),
    "game_over": gettext_lazy("Game %(game)s is over"),
    "timeout": gettext_lazy("Your time ran out in game %(game)s"),
    "tournament": gettext_lazy("Tournament news"),
    "summary": gettext_lazy("While you were away"),
}


def subject_of(note) -> str:
    """The notice's title in the active language: its own subject, else by kind."""
    return note.subject or (
        str(SUBJECTS.get(note.kind, _("News from Blaze"))) % {"game": note.game_id})


def notification_message(note) -> EmailMessage:
    """The email of a notification, in its recipient's language (whoever caused it)."""
    with in_language_of(note.user):
        subject = subject_of(note)
        body = _("Hello %(name)s,") % {"name": note.user.username} + f"\n\n{note.text}\n"
        if note.game_id is not None:
            body += "\n" + _("Open the game: %(link)s") % {
                "link": absolute(game_path(note.game_id))} + "\n"
        return _message(note.user, subject, body)


def digest_message(user, seats) -> EmailMessage:
    """One email listing every game waiting on the player; `seats` are Seat rows."""
    n = len(seats)
    with in_language_of(user):
        lines = [_("Hello %(name)s,") % {"name": user.username}, "",
                 ngettext("%(n)d game is waiting on you:", "%(n)d games are waiting on you:",
                          n) % {"n": n}, ""]
        for seat in seats:
            lines.append("- " + _("Game %(game)s: %(link)s") % {
                "game": seat.game_id, "link": absolute(game_path(seat.game_id))})
        subject = ngettext("%(n)d game waiting on you", "%(n)d games waiting on you", n) % {"n": n}
        return _message(user, subject, "\n".join(lines) + "\n")
