"""What the site tells players: notices (in the site, by email) and the email opt-out.

Both tables keep the names they had in the "correspondence" app, where they began: moving
them here changed Django's state only (migrations 0005 there, 0001 here)."""

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """Something to tell a player, in the site and maybe by email. `key` names the event,
    so whatever creates a notification twice creates it once."""

    YOUR_TURN, ALMOST_OUT, GAME_OVER, TIMEOUT, DIGEST, TOURNAMENT, REMATCH = (
        "your_turn", "almost_out", "game_over", "timeout", "digest", "tournament", "rematch",
    )
    INVITATION, WARNING = "invitation", "warning"  # social's, through player_notice
    SUMMARY = "summary"  # what was held during quiet hours, in one notice at their end
    # Apps above games send theirs through games.events.player_notice (clocks: your_turn,
    # almost_out, timeout; tournaments: tournament); games sends rematch (a table's next
    # game that someone started with "Play again").
    KINDS = [YOUR_TURN, ALMOST_OUT, GAME_OVER, TIMEOUT, DIGEST, TOURNAMENT, REMATCH,
             INVITATION, WARNING, SUMMARY]

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
    created = models.DateTimeField(auto_now_add=True)  # or when it was last updated
    read = models.BooleanField(default=False)
    emailed = models.BooleanField(default=False)
    pushed = models.BooleanField(default=False)
    # Made during the player's quiet hours: neither pushed nor mailed; when they end (this
    # moment) notifications.quiet.notices_release sends one summary of what was held.
    release_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "correspondence_notification"
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["user", "read"], name="corresponde_user_id_985318_idx"),
            # the pruning job: old read, and older unread, notices (notifications_prune)
            models.Index(fields=["read", "created"], name="notification_read_created"),
            # the release job finds only what is held and due: a few rows, never the history
            models.Index(fields=["release_at"], condition=models.Q(release_at__isnull=False),
                         name="notification_held"),
        ]
        constraints = [
            # One live notice per game and kind: a new event updates it (notify).
            models.UniqueConstraint(fields=["user", "game", "kind"],
                                    condition=models.Q(game__isnull=False),
                                    name="notification_one_per_game_and_kind"),
        ]

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


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its PushSubscription JSON). The endpoint is on
    an allowed push service (push.endpoint_refusal); p256dh and auth are the browser's keys
    the payload is encrypted to (RFC 8291)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"push subscription {self.pk} of {self.user_id}"
