"""Clocks on rows, vacations, notifications. The arithmetic lives in clock.py (pure)."""

from django.conf import settings
from django.db import models

from .clock import Clock


class SeatClock(models.Model):
    """One seat's clock in one game. `deadline` and `warn_at` are derived from the clock and
    the player's vacations, stored so the sweeper finds due work with an index."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="clocks")
    seat = models.PositiveSmallIntegerField()
    remaining = models.FloatField(help_text="seconds left when the clock last started/stopped")
    running_since = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    warn_at = models.DateTimeField(null=True, blank=True, db_index=True)
    warned = models.BooleanField(default=False)  # "almost out of time" sent for this turn
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    timeouts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seatclock_unique_seat"),
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


class Notification(models.Model):
    """Something to tell a player, in the site and maybe by email. `key` names the event,
    so whatever creates a notification twice creates it once."""

    YOUR_TURN, ALMOST_OUT, GAME_OVER, TIMEOUT, DIGEST, TOURNAMENT, REMATCH = (
        "your_turn", "almost_out", "game_over", "timeout", "digest", "tournament", "rematch",
    )
    # TOURNAMENT, REMATCH: news sent through games.events.player_notice (a tournament's
    # table; a table's next game that someone started with "Play again").
    KINDS = [YOUR_TURN, ALMOST_OUT, GAME_OVER, TIMEOUT, DIGEST, TOURNAMENT, REMATCH]

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
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["user", "read"])]

    def __str__(self):
        return self.key


class EmailOptOut(models.Model):
    """The player clicked an unsubscribe link: no more game emails."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_opt_out"
    )
    created = models.DateTimeField(auto_now_add=True)
