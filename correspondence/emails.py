"""The emails: each with a link to its game and a one-click unsubscribe (RFC 8058)."""

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.urls import NoReverseMatch, reverse

UNSUBSCRIBE_SALT = "correspondence.unsubscribe"


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
    link = unsubscribe_url(user)
    footer = (
        f"\n\n--\nYour notifications: {absolute(reverse('notifications'))}\n"
        f"Stop these emails with one click: {link}\n"
    )
    return EmailMessage(
        subject=f"[Blaze] {subject}",
        body=body + footer,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


SUBJECTS = {
    "your_turn": "Your turn in game {game}",
    "almost_out": "Almost out of time in game {game}",
    "game_over": "Game {game} is over",
    "timeout": "Your time ran out in game {game}",
    "tournament": "Tournament news",
}


def notification_message(note) -> EmailMessage:
    subject = SUBJECTS.get(note.kind, "News from Blaze").format(game=note.game_id)
    body = f"Hello {note.user.username},\n\n{note.text}\n"
    if note.game_id is not None:
        body += f"\nOpen the game: {absolute(game_path(note.game_id))}\n"
    return _message(note.user, subject, body)


def digest_message(user, seats) -> EmailMessage:
    """One email listing every game waiting on the player; `seats` are Seat rows."""
    n = len(seats)
    lines = [f"Hello {user.username},", "",
             f"{n} game{'s' if n != 1 else ''} {'are' if n != 1 else 'is'} waiting on you:", ""]
    for seat in seats:
        lines.append(f"- Game {seat.game_id}: {absolute(game_path(seat.game_id))}")
    return _message(user, f"{n} game{'s' if n != 1 else ''} waiting on you",
                    "\n".join(lines) + "\n")
