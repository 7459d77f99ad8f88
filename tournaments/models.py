"""Tournaments, registrations, rounds and their tables. Standings are never stored: the
selectors compute them from the tables' finished games (see selectors.py)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.bots import LEVELS

from .points import DEFAULT_POINTS


def default_points() -> dict:
    return {k: list(v) for k, v in DEFAULT_POINTS.items()}


class Tournament(models.Model):
    SWISS, ELIMINATION = "swiss", "elimination"
    FORMAT_CHOICES = [(SWISS, _("Swiss")), (ELIMINATION, _("Elimination"))]
    REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
    STATUS_CHOICES = [(s, s) for s in (REGISTERING, RUNNING, FINISHED, CANCELLED)]
    BOT_LEVELS = list(LEVELS)  # the one list, games/bots

    name = models.CharField(max_length=100)
    format = models.CharField(max_length=12, choices=FORMAT_CHOICES, default=SWISS)
    table_size = models.PositiveSmallIntegerField(default=4)
    rounds = models.PositiveSmallIntegerField(default=3, help_text="Swiss: rounds to play.")
    advance_per_table = models.PositiveSmallIntegerField(
        default=2, help_text="Elimination: players of each table who go on."
    )
    time_control = models.JSONField(default=dict)
    rated = models.BooleanField(default=False)
    registration_opens = models.DateTimeField()
    registration_closes = models.DateTimeField()
    starts_at = models.DateTimeField(null=True, blank=True)
    min_players = models.PositiveSmallIntegerField(default=3)
    max_players = models.PositiveSmallIntegerField(default=40)
    allow_bots = models.BooleanField(default=False)
    bot_level = models.CharField(
        max_length=10, default="basic", choices=[(b, b) for b in BOT_LEVELS]
    )
    points = models.JSONField(default=default_points)
    status = models.CharField(max_length=12, choices=STATUS_CHOICES, default=REGISTERING)
    # 0 before the first round is paired; claimed with a conditional update (services).
    current_round = models.PositiveSmallIntegerField(default=0)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organised_tournaments"
    )
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=3, table_size__lte=5),
                name="tournament_table_size_3_to_5",
            ),
            # two people are enough when bots fill the tables (services.MIN_PLAYERS…)
            models.CheckConstraint(
                condition=models.Q(max_players__gte=models.F("min_players")) & (
                    models.Q(min_players__gte=3)
                    | models.Q(allow_bots=True, min_players__gte=2)),
                name="tournament_player_limits",
            ),
        ]
        indexes = [models.Index(fields=["status", "starts_at"])]

    def __str__(self):
        return self.name


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations"
    )
    created = models.DateTimeField(auto_now_add=True)
    withdrawn = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "pk"]  # registration order is the seed
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="registration_unique_user"
            ),
        ]

    def __str__(self):
        return f"{self.user} in {self.tournament}"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="tournament_rounds"
    )
    number = models.PositiveSmallIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            # A second worker pairing the same round fails here, whatever else happened.
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
        ]

    def __str__(self):
        return f"{self.tournament} round {self.number}"


class TournamentTable(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="tournament_table"
    )
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
        ]

    def __str__(self):
        return f"{self.round} table {self.number}"
