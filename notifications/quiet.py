"""Quiet hours: what was held while the player's quiet hours lasted (notify set its
`release_at`) goes out as one summary when they end, through the one `notify`, by push
and/or e-mail as the player chose for summaries."""

from collections import Counter
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.models import User
from games.models import Game, Seat

from .models import Notification
from .notifications import notify

RELEASE_LIMIT = 500  # players a run; the next run (a minute later) takes the rest

# How each kind is counted in the summary, in this order.
_COUNTED = [
    (Notification.YOUR_TURN, lambda n: ngettext(
        "your turn in %(n)d game", "your turn in %(n)d games", n)),
    (Notification.ALMOST_OUT, lambda n: ngettext(
        "%(n)d reminder of a deadline", "%(n)d reminders of deadlines", n)),
    (Notification.TIMEOUT, lambda n: ngettext(
        "time ran out in %(n)d game", "time ran out in %(n)d games", n)),
    (Notification.GAME_OVER, lambda n: ngettext(
        "%(n)d game over", "%(n)d games over", n)),
    (Notification.INVITATION, lambda n: ngettext(
        "%(n)d invitation", "%(n)d invitations", n)),
    (Notification.REMATCH, lambda n: ngettext(
        "%(n)d table's next game", "%(n)d tables' next games", n)),
    (Notification.TOURNAMENT, lambda n: ngettext(
        "%(n)d piece of tournament news", "%(n)d pieces of tournament news", n)),
]


def summary_words(counts: dict[str, int]) -> str:
    """"While you were away: your turn in 3 games, 1 game over." in the active language."""
    parts = [words(counts[kind]) % {"n": counts[kind]}
             for kind, words in _COUNTED if counts.get(kind)]
    others = sum(n for kind, n in counts.items() if kind not in dict(_COUNTED))
    if others:
        parts.append(ngettext("%(n)d other notice", "%(n)d other notices", others) % {
            "n": others})
    return gettext("While you were away: %(news)s.") % {"news": ", ".join(parts)}


def notices_summarise(*, user_id: int, now: datetime | None = None) -> Notification | None:
    """Release the player's notices held until `now` or before and tell of those still
    unread in one summary notice. Safe to run twice: the held rows are claimed under a row
    lock, and the summary's key names the end of the quiet hours."""
    now = now or timezone.now()
    with transaction.atomic():
        held = list(Notification.objects.select_for_update(skip_locked=True)
                    .filter(user_id=user_id, release_at__lte=now)
                    .values_list("pk", "kind", "read", "release_at", "game_id"))
        if not held:
            return None  # none left, or another run holds them
        Notification.objects.filter(pk__in=[pk for pk, *_ in held]).update(release_at=None)
        # "your turn" only where it still is: a turn played meanwhile is no news
        turns = {game for _pk, kind, read, _at, game in held
                 if kind == Notification.YOUR_TURN and not read and game is not None}
        still = _still_waiting(user_id, turns) if turns else set()
        counts = Counter(kind for _pk, kind, read, _at, game in held if not read and (
            kind != Notification.YOUR_TURN or game in still))
        if not counts:
            return None  # the player read them all in the site meanwhile
        user = User.objects.get(pk=user_id)
        ended = max(at for _pk, _kind, _read, at, _game in held)
        return notify(user=user, kind=Notification.SUMMARY,
                      key=f"summary:{user_id}:{ended.timestamp():.0f}",
                      text=lambda: summary_words(counts))


def _still_waiting(user_id: int, game_ids: set[int]) -> set[int]:
    """Which of these games still wait on the player (one query)."""
    seats = (Seat.objects.filter(user_id=user_id, game_id__in=game_ids,
                                 game__status=Game.PLAYING)
             .values_list("game_id", "index", "game__waiting_on"))
    return {game for game, index, waiting in seats if index in (waiting or [])}


def notices_release(now: datetime | None = None) -> int:
    """The periodic job: every player whose quiet hours ended gets their summary. Reads
    only the held notices that are due (partial index `notification_held`)."""
    now = now or timezone.now()
    due = (Notification.objects.filter(release_at__lte=now).order_by()
           .values_list("user_id", flat=True).distinct()[:RELEASE_LIMIT])
    sent = 0
    for user_id in list(due):
        if notices_summarise(user_id=user_id, now=now) is not None:
            sent += 1
    return sent
