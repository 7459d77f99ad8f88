"""Clocks on rows, vacations and the calendar feed. The arithmetic lives in clock.py (pure)."""

from django.conf import settings
from django.db import models

from .clock import Clock


class SeatClock(models.Model):
    """One seat's clock in one game. `deadline` and `warn_at` are derived from the clock and
    the player's vacations, stored so the sweeper finds due work with an index.

    Every move rewrites two of these rows with new deadlines (no in-place update is possible
    then): each index is one more entry to write a move, so the game is looked up through
    the unique (game, seat) index alone and stopped clocks (no deadline) are in no index."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="clocks",
                             db_index=False)
    seat = models.PositiveSmallIntegerField()
    remaining = models.FloatField(help_text="seconds left when the clock last started/stopped")
    running_since = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    warn_at = models.DateTimeField(null=True, blank=True)
    warned = models.BooleanField(default=False)  # every reminder of this turn is sent
    # Reminders of this turn sent (or passed before the turn began): the next one is due at
    # `warn_at` (clocks.reminders: the player's chosen points, else a fifth of the clock).
    reminded = models.PositiveSmallIntegerField(default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    timeouts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seatclock_unique_seat"),
        ]
        indexes = [
            models.Index(fields=["deadline"], name="seatclock_deadline",
                         condition=models.Q(deadline__isnull=False)),
            models.Index(fields=["warn_at"], name="seatclock_warn_at",
                         condition=models.Q(warn_at__isnull=False)),
        ]

    def __str__(self):
        return f"clock of seat {self.seat} in game {self.game_id}"

    @property
    def clock(self) -> Clock:
        return Clock(self.remaining, self.running_since)


class Vacation(models.Model):
    """[start, end): the player's correspondence clocks stand still."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    start = models.DateTimeField()
    end = models.DateTimeField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start"]
        constraints = [
            models.CheckConstraint(condition=models.Q(end__gt=models.F("start")),
                                   name="vacation_ends_after_start"),
        ]

    def __str__(self):
        return f"{self.user} away {self.start:%Y-%m-%d}–{self.end:%Y-%m-%d}"


class CalendarFeed(models.Model):
    """A player's private calendar address (clocks.calendar): the secret in it is the
    credential, so a new one revokes the old."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed"
    )
    secret = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"calendar of {self.user_id}"
