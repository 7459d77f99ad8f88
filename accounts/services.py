"""Writes and lookups for accounts: tokens and bots."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .models import ApiToken
from .signals import token_revoked

TOKEN_PREFIX = "blz_"
BOT_USERNAMES = ["bot-random", "bot-basic", "bot-strong"]
# Touch last_used at most this often, so busy bots do not write on every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Create a token; the secret is returned once and never stored."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, key_hash=_hash(secret), prefix=secret[: len(TOKEN_PREFIX) + 6]
    )
    return token, secret


def api_token_revoke(*, user, token_id: int) -> bool:
    """Revoke one of the user's tokens; False when there was nothing to revoke.
    Sockets opened with it close once the revocation commits (signals.token_revoked)."""
    updated = ApiToken.objects.filter(
        pk=token_id, user=user, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    if updated == 1:
        transaction.on_commit(
            lambda: token_revoked.send(sender=ApiToken, token_id=token_id, user_id=user.pk))
    return updated == 1


def api_token_find(secret: str) -> ApiToken | None:
    """The active token with this secret (its user loaded), or None. One query; the
    last_used write at most once a minute."""
    if not secret.startswith(TOKEN_PREFIX):
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=_hash(secret), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used is None or now - token.last_used > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
    return token


def api_token_user(secret: str):
    """The active user owning this secret, or None."""
    token = api_token_find(secret)
    return None if token is None else token.user


def user_language_set(*, user, language: str) -> None:
    """Store the player's language ("" follows the browser); unknown codes are refused."""
    if language not in {"", *dict(settings.LANGUAGES)}:
        raise ValueError(f"unknown language {language!r}")
    user.language = language
    user.save(update_fields=["language"])


def user_get_or_create(*, username: str):
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def bots_create() -> list:
    """Create the house bots if missing; running it again changes nothing."""
    User = get_user_model()
    bots = []
    for username in BOT_USERNAMES:
        bot, created = User.objects.get_or_create(username=username, defaults={"is_bot": True})
        if created:
            bot.set_unusable_password()
            bot.save(update_fields=["password"])
        bots.append(bot)
    return bots
