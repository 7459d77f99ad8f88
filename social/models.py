"""Table talk, who follows and blocks whom, reports for staff, and invitations to a table."""

from django.conf import settings
from django.db import models

USER = settings.AUTH_USER_MODEL


class TalkSettings(models.Model):
    """A player's own choices about talk, and staff's site-wide mute."""

    user = models.OneToOneField(USER, primary_key=True, on_delete=models.CASCADE,
                                related_name="talk_settings")
    # None: the default (on for members, off for guests)
    free_text = models.BooleanField(null=True, blank=True, default=None)
    muted_until = models.DateTimeField(null=True, blank=True)  # staff: no talk until then
    warnings = models.PositiveSmallIntegerField(default=0)


class TableTalk(models.Model):
    """One game's talk: its counter (locked to number the messages) and its switch."""

    game = models.OneToOneField("games.Game", primary_key=True, on_delete=models.CASCADE,
                                related_name="+")
    last_seq = models.PositiveIntegerField(default=0)
    # a player of the table turned free text off for the whole table
    free_text_off = models.BooleanField(default=False)


class ChatMessage(models.Model):
    PLAYERS, SPECTATORS, ALL = "players", "spectators", "all"
    CHANNELS = [(c, c) for c in (PLAYERS, SPECTATORS, ALL)]

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    channel = models.CharField(max_length=12, choices=CHANNELS)
    phrase = models.CharField(max_length=32, blank=True, default="")
    text = models.CharField(max_length=280, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    # reported by several players: hidden until staff review it
    hidden = models.BooleanField(default=False)
    reviewed = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="chat_unique_seq")]
        indexes = [models.Index(fields=["game", "sender", "created"])]

    def __str__(self):
        return f"{self.game_id}#{self.seq} {self.phrase or self.text[:40]}"


class TableMute(models.Model):
    """`user` does not hear `muted` at this one table."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user", "muted"],
                                               name="table_mute_unique")]


class Block(models.Model):
    blocker = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="blocked_by")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"],
                                               name="block_unique")]


class Follow(models.Model):
    """`follower` counts `followed` among their friends."""

    follower = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="followers")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["follower", "followed"],
                                               name="follow_unique")]


class Report(models.Model):
    """A player or one message of theirs reported to staff, until staff act on it."""

    WARN, MUTE, DEACTIVATE, DISMISS = "warn", "mute", "deactivate", "dismiss"
    ACTIONS = [(a, a) for a in ("", WARN, MUTE, DEACTIVATE, DISMISS)]

    reporter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    reported = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="reports")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="reports")
    reason = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(USER, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    action = models.CharField(max_length=12, blank=True, default="", choices=ACTIONS)

    class Meta:
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(
            fields=["reporter", "message"], condition=models.Q(message__isnull=False),
            name="report_once_a_message")]


class Challenge(models.Model):
    """An invitation of named players (and bots for the other seats) to a new table."""

    OPEN, STARTED, DECLINED, EXPIRED, CANCELLED = (
        "open", "started", "declined", "expired", "cancelled")
    STATUSES = [(s, s) for s in (OPEN, STARTED, DECLINED, EXPIRED, CANCELLED)]

    sender = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="challenges_sent")
    players = models.PositiveSmallIntegerField()
    bots = models.JSONField(default=list)  # bot levels for the seats nobody is invited to
    rated = models.BooleanField(default=False)
    private = models.BooleanField(default=True)
    time_control = models.JSONField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=STATUSES, default=OPEN)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")

    class Meta:
        indexes = [models.Index(fields=["status", "expires"])]


class Invitation(models.Model):
    PENDING, ACCEPTED, DECLINED = "pending", "accepted", "declined"
    ANSWERS = [(a, a) for a in (PENDING, ACCEPTED, DECLINED)]

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE,
                                  related_name="invitations")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="invitations")
    answer = models.CharField(max_length=10, choices=ANSWERS, default=PENDING)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["challenge", "user"],
                                               name="invitation_unique")]
