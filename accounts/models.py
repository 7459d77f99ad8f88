import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def validate_timezone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(gettext("%(zone)r is not a known time zone.") % {"zone": value})


class User(AbstractUser):
    class EmailOnTurn(models.TextChoices):
        IMMEDIATE = "immediate", _("Right away")
        DIGEST = "digest", _("In a daily digest")
        NEVER = "never", _("Never")

    is_bot = models.BooleanField(default=False)  # indexed where true (Meta): a few rows
    # A temporary account made by "Play against bots": unrated, no tournaments, removed
    # when unused, and claimable (accounts.services.guest_claim keeps its games).
    is_guest = models.BooleanField(default=False)
    timezone = models.CharField(max_length=64, default="UTC", validators=[validate_timezone])
    email_on_turn = models.CharField(
        _("email me when it is my turn"),
        max_length=16,
        choices=EmailOnTurn.choices,
        default=EmailOnTurn.IMMEDIATE,
    )
    # Pages, emails and notifications in this language; blank: the browser's choice.
    language = models.CharField(
        _("language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES
    )
    # What the player chose about notices (written only by
    # notifications.preferences.notice_settings_set, which validates them): quiet hours in
    # `timezone` (no push or mail from start to end, local time; both empty: none),
    # reminders at these hours before a correspondence deadline (empty: the one warning at
    # a fifth of the clock), and per notice kind "push", "email", "both" or "none"
    # (a kind not named: both). Kept here, below the apps: clocks read the first two.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    reminder_hours = models.JSONField(default=list, blank=True)
    # When the daily digest job next looks at this reader (empty: at its next run); only
    # notifications.digests writes it.
    digest_next = models.DateTimeField(null=True, blank=True, editable=False)
    notice_channels = models.JSONField(default=dict, blank=True)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        constraints = [
            # "Ann" and "ann" are one name: two sign-ups or claims at once cannot both
            # take it (the forms check first; this closes the race between them).
            models.UniqueConstraint(Lower("username"), name="user_username_unique_casefree"),
        ]
        # Partial: bots, guests and digest readers are found among every user (each finished
        # game looks the bots up; the guest clean-up its guests; the digest its readers)
        # without a scan of the table.
        indexes = [
            models.Index(fields=["id"], condition=models.Q(is_bot=True), name="user_bots"),
            models.Index(fields=["date_joined"], condition=models.Q(is_guest=True),
                         name="user_guests"),
            models.Index(fields=["digest_next", "id"],
                         condition=models.Q(email_on_turn="digest"), name="user_digest_readers"),
        ]

    def __str__(self) -> str:
        return self.username


class ApiToken(models.Model):
    """A bearer token for programs. Only a SHA-256 hash of the secret is stored."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=16,
                              help_text=_("The secret's start, to recognise it."))
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
