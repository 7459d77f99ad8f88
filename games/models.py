"""Games, their seats and the append-only move log (the log is the truth; see selectors)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .bots import LEVELS


class Game(models.Model):
    WAITING, PLAYING, FINISHED, ABORTED = "waiting", "playing", "finished", "aborted"
    STATUS_CHOICES = [(s, s) for s in (WAITING, PLAYING, FINISHED, ABORTED)]

    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=WAITING)
    rated = models.BooleanField(default=False)
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, blank=True, default="", db_index=True)
    # {"kind": "live"|"correspondence", ...params}: stored only; clocks are a later issue.
    time_control = models.JSONField(default=dict)
    # An imported record: an analysis copy, never played on.
    imported = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Secret: both rounds' deals. Never part of any payload while the game is played.
    deal = models.JSONField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)  # moves in the log so far
    # Denormalised for lists: the seats the game waits on (empty unless playing).
    waiting_on = models.JSONField(default=list)
    # Denormalised for the watchdog: since when the game waits on a bot seat (null when it
    # waits on people or is over), so the stalled bot turns are one index range, however
    # many games wait on people (games.watchdog).
    bot_turn_since = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)  # scores, ranking, round_losers
    # Denormalised from Seat.abandoned: the seats whose players left. On the row every move
    # locks, so a move that waited on the lock while its player resigned reads it fresh
    # (the seats read in the same statement are as they were when it began).
    left_seats = models.JSONField(default=list)
    # Until when someone without a seat may be watching (games.live.watchers): read with
    # the row every move locks, so a move builds the spectators' views only while watched.
    watched_until = models.DateTimeField(null=True, blank=True)
    # "Play again": the next game of the same table (same settings, same bots).
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(players__gte=3, players__lte=5), name="game_players_3_to_5"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "private"]),
            models.Index(fields=["bot_turn_since"], name="game_bot_turn_since",
                         condition=models.Q(bot_turn_since__isnull=False)),
        ]

    def __str__(self):
        return f"Game {self.pk} ({self.status})"


# A bot is named by its level; two of a level at one table get letters (never numbers,
# which read like seats): "Basic bot A", "Basic bot B" (games.selectors.seat_names).
# The one name of each level, said alike on the table, the lobby, tournaments and ratings
# (the house bots' accounts, "bot-basic", are shown by it too: player_name).
BOT_NAMES = {"random": _("Random bot"), "basic": _("Basic bot"), "strong": _("Strong bot")}
HOUSE_BOT_PREFIX = "bot-"  # accounts.services.BOT_USERNAMES


def bot_name(level: str) -> str:
    """A bot level's name in the active language."""
    return str(BOT_NAMES.get(level, level))


def player_name(user) -> str:
    """A user as players see them: the username, or a house bot by its level's name."""
    if user.is_bot and user.username.startswith(HOUSE_BOT_PREFIX):
        level = user.username[len(HOUSE_BOT_PREFIX):]
        if level in BOT_NAMES:
            return bot_name(level)
    return user.username


class Seat(models.Model):
    BOT_LEVELS = list(LEVELS)  # the one list, games/bots
    # The bot that takes over a seat whose player left (timeouts, resigning).
    TAKEOVER_BOT_LEVEL = "basic"
    RESIGNED, TIMEOUTS = "resigned", "timeouts"

    # db_index off: the unique (game, index) index serves every lookup by game
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats",
                             db_index=False)
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="seats",
    )
    bot_level = models.CharField(
        max_length=10, null=True, blank=True, choices=[(b, b) for b in BOT_LEVELS]
    )
    # An imported record names players that need not be users.
    name = models.CharField(max_length=150, blank=True, default="")
    # The one record that the player left the game (resigned, or timed out three times in
    # a row): a bot plays the seat on, and the player ranks last whatever it scores.
    abandoned = models.BooleanField(default=False)
    abandoned_reason = models.CharField(
        max_length=10, blank=True, default="",
        choices=[("", ""), (RESIGNED, RESIGNED), (TIMEOUTS, TIMEOUTS)],
    )
    abandoned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    @property
    def display_name(self) -> str:
        if self.user_id is not None:
            return player_name(self.user)
        if self.name:
            return self.name
        if self.bot_level:
            return bot_name(self.bot_level)  # in the reader's language
        return str(_("open seat"))


class Move(models.Model):
    """One voluntary move, exactly the RECORD.md object (seat included). Never updated."""

    # db_index off: the unique (game, seq) index serves every lookup by game
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves",
                             db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    payload = models.JSONField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
        ]


class GameReview(models.Model):
    """The strong bot's review of a finished game between people (games.reviews): at
    each decision of each human seat, from that seat's view only, its own choice and its
    estimated chance of ranking first with it and with the move played. Made after the
    game, a slice at a time, on the bots' queue; never while the game is played."""

    PENDING, RUNNING, DONE, SKIPPED = "pending", "running", "done", "skipped"
    STATUS_CHOICES = [(s, s) for s in (PENDING, RUNNING, DONE, SKIPPED)]

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE,
                                related_name="review")
    status = models.CharField(max_length=8, choices=STATUS_CHOICES, default=PENDING)
    queued = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)  # counts against the hourly limit
    # A worker is on it until then (one slice); an expired lease is taken up again.
    lease_until = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    next_seq = models.PositiveIntegerField(default=0)  # the moves before it are reviewed
    iterations = models.PositiveIntegerField(default=0)  # search iterations per decision
    reviewed = models.PositiveIntegerField(default=0)  # decisions looked at so far
    cpu_seconds = models.FloatField(default=0.0)
    # The decisions where the bot would have played otherwise, at most one per human
    # decision (BLAZE_REVIEW_MAX_DECISIONS bounds them): {"seq", "seat", "played",
    # "best" (RECORD.md moves without seat), "p_played", "p_best" (0..1)}.
    decisions = models.JSONField(default=list)

    class Meta:
        indexes = [models.Index(fields=["status", "queued"], name="review_status_queued")]

    def __str__(self):
        return f"Review of game {self.game_id} ({self.status})"
