"""Ratings, their append-only history, and per-seat figures of finished games.

Every row here is derived from the games and their move logs: `blaze_recompute`
wipes and rebuilds them all.
"""

from django.conf import settings
from django.db import models

from . import rating as skill


class Rating(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField(default=skill.MU)
    sigma = models.FloatField(default=skill.SIGMA)
    games = models.PositiveIntegerField(default=0)  # rated games applied
    # Public rated games, in all and by player count, for the leaderboard (which shows
    # public games only, and never counts every rating change): written with `games`.
    games_public = models.PositiveIntegerField(default=0)
    games_3 = models.PositiveIntegerField(default=0)
    games_4 = models.PositiveIntegerField(default=0)
    games_5 = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"{self.user} {self.displayed}"

    @property
    def displayed(self) -> int:
        return skill.displayed(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return skill.is_provisional(self.games)


class RatingChange(models.Model):
    """One user's rating before and after one rated game; never updated."""

    # db_index off: the unique (game, user) index serves every lookup by game
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rank = models.PositiveSmallIntegerField()  # 1 = best, abandoning seats last
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Claims the game: applying a game twice applies it once.
            models.UniqueConstraint(fields=["game", "user"], name="ratingchange_unique_game_user"),
        ]

    @property
    def before(self) -> int:
        return skill.displayed(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        return skill.displayed(self.mu_after, self.sigma_after)


class GameStat(models.Model):
    """One seat of one finished game, as the replay tells it; cheap to sum."""

    # db_index off for both: the unique (game, seat) and the (user, -finished) indexes
    # serve every lookup by game and by user
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+",
                             db_index=False)
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="game_stats", db_index=False,
    )
    players = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    finished = models.DateTimeField()  # the game's, for ordering without a join
    rank = models.PositiveSmallIntegerField()  # 1 = winner
    score = models.PositiveSmallIntegerField()
    feathers = models.JSONField(default=list)  # per round: feather values taken
    feather_total = models.PositiveSmallIntegerField(default=0)
    rounds = models.PositiveSmallIntegerField(default=2)
    rounds_lost = models.PositiveSmallIntegerField(default=0)
    bets_on_loser = models.PositiveSmallIntegerField(default=0)
    bets_placed = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-finished", "-game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gamestat_unique_game_seat"),
        ]
        indexes = [models.Index(fields=["user", "-finished"])]
