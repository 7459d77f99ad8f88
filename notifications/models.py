"""What the site tells players: notices (in the site, by email) and the email opt-out.

Both tables keep the names they had in the "correspondence" app, where they began: moving
them here changed Django's state only (migrations 0005 there, 0001 here)."""

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """Something to tell a player, in the site and maybe by email. `key` names the event,
    so whatever creates a notification twice creates it once."""

    YOUR_TURN, ALMOST_OUT, GAME_OVER, TIMEOUT, DIGEST, TOURNAMENT = (
        "your_turn", "almost_out", "game_over", "timeout", "digest", "tournament",
    )
    # Apps above games send theirs through games.events.player_notice (clocks: your_turn,
    # almost_out, timeout; tournaments: tournament).
    KINDS = [YOUR_TURN, ALMOST_OUT, GAME_OVER, TIMEOUT, DIGEST, TOURNAMENT]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=[(k, k) for k in KINDS])
    key = models.CharField(max_length=200, unique=True)
    text = models.CharField(max_length=500)
    subject = models.CharField(max_length=200, blank=True, default="")  # else by kind
    created = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)
    emailed = models.BooleanField(default=False)

    class Meta:
        db_table = "correspondence_notification"
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "read"], name="corresponde_user_id_985318_idx")]

    def __str__(self):
        return self.key


class EmailOptOut(models.Model):
    """The player clicked an unsubscribe link: no more game emails."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_opt_out"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "correspondence_emailoptout"
