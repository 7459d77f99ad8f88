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
    # Different opponents met in rated games (user ids; "bot-<level>" for a bot level),
    # kept only up to rating.PROVISIONAL_OPPONENTS: all that is asked of them.
    opponents = models.JSONField(default=list)
    # Off the leaderboard until true (rating.is_established); bots' anchors always are.
    established = models.BooleanField(default=False)
    # mu - 3 sigma, what the leaderboard sorts by: kept by the database, so the partial
    # indexes below hold the boards in order and a board reads the rows it shows only.
    conservative = models.GeneratedField(
        expression=models.F("mu") - 3 * models.F("sigma"),
        output_field=models.FloatField(), db_persist=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # The leaderboard: established ratings, best first (stats.leaderboard).
            models.Index(models.F("conservative").desc(), name="rating_board",
                         condition=models.Q(established=True)),
            # ... and by player count: those with public rated games at that count.
            *[models.Index(models.F("conservative").desc(), name=f"rating_board_{n}",
                           condition=models.Q(established=True, **{f"games_{n}__gt": 0}))
              for n in (3, 4, 5)],
        ]

    def __str__(self):
        return f"{self.user} {self.displayed}"

    @property
    def displayed(self) -> int:
        return skill.displayed(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return not self.established


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


class PlayerTotals(models.Model):
    """One player's GameStat rows summed, by player count and by whether the games were
    private: what a profile shows, read in O(1) rows however many games the player (a bot
    plays every game) finished. Kept in the transaction that adds the GameStat rows
    (services.game_stats_record); `blaze_recompute` rebuilds it with them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", db_index=False)
    players = models.PositiveSmallIntegerField()
    private = models.BooleanField()
    games = models.PositiveIntegerField(default=0)  # seats: a bot may hold several
    won = models.PositiveIntegerField(default=0)
    score = models.PositiveBigIntegerField(default=0)
    feathers = models.PositiveBigIntegerField(default=0)
    rounds = models.PositiveBigIntegerField(default=0)
    rounds_lost = models.PositiveBigIntegerField(default=0)
    bets_placed = models.PositiveBigIntegerField(default=0)
    bets_on_loser = models.PositiveBigIntegerField(default=0)

    # the GameStat field each total sums (won counts rank 1)
    SUMMED = {"score": "score", "feathers": "feather_total", "rounds": "rounds",
              "rounds_lost": "rounds_lost", "bets_placed": "bets_placed",
              "bets_on_loser": "bets_on_loser"}

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "players", "private"],
                                    name="playertotals_unique_user_players_private"),
        ]
