"""Writes and lookups for accounts: tokens and bots."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from . import token_cache
from .models import ApiToken
from .signals import token_revoked, user_deactivated

TOKEN_PREFIX = "blz_"
BOT_USERNAMES = ["bot-random", "bot-basic", "bot-strong"]
# Touch last_used at most this often, so busy bots do not write on every request.
LAST_USED_RESOLUTION = timedelta(minutes=5)


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
        token_cache.forget_all()
        transaction.on_commit(
            lambda: token_revoked.send(sender=ApiToken, token_id=token_id, user_id=user.pk))
    return updated == 1


def user_deactivate(*, user) -> None:
    """Lock a user out: no new login, no API token works, and every open socket of theirs
    closes once this commits (signals.user_deactivated), whichever way it was opened."""
    type(user).objects.filter(pk=user.pk).update(is_active=False)
    user.is_active = False
    token_cache.forget_all()
    user_id = user.pk
    transaction.on_commit(lambda: user_deactivated.send(sender=type(user), user_id=user_id))


def api_token_find(secret: str) -> ApiToken | None:
    """The active token with this secret (its user loaded), or None. One query, none
    while the token is remembered (accounts.token_cache); the last_used write at most
    once every LAST_USED_RESOLUTION, without reading the token again (the cache's
    generation already tells a revoked or changed one)."""
    if not secret.startswith(TOKEN_PREFIX):
        return None
    key_hash = _hash(secret)
    token = token_cache.get(key_hash)
    now = timezone.now()
    if token is None:
        token = (
            ApiToken.objects.select_related("user")
            .filter(key_hash=key_hash, revoked_at__isnull=True, user__is_active=True)
            .first()
        )
        if token is None:
            return None
    elif now - token.last_used <= LAST_USED_RESOLUTION:
        return token
    if token.last_used is None or now - token.last_used > LAST_USED_RESOLUTION:
        # conditional: a token revoked since it was remembered writes nothing and fails
        if not ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(
                last_used=now):
            return None
        token.last_used = now
    token_cache.put(key_hash, token)
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


# ---- guests: a first game without an account ----------------------------------------------

GUEST_PREFIX = "guest-"
# An unused guest (no seat at any table) is removed after this long.
GUEST_UNUSED_AFTER = timedelta(days=1)
GUEST_REMOVE_BATCH = 500


class GuestLimit(Exception):
    """Too many guests made from one address lately (answered with 429)."""

    def __init__(self, retry_after: int):
        super().__init__("too many guest accounts from this address: sign up or try later")
        self.retry_after = retry_after


def guest_create(*, ip: str, language: str = ""):
    """A real, temporary account for someone without one; rate-limited per address in the
    shared cache (GUEST_CREATE_PER_HOUR). `language`: the page's, kept so that live
    updates and notices speak it too."""
    from django.conf import settings
    from django.core.cache import cache

    hour = int(timezone.now().timestamp() // 3600)
    key = f"guest-create:{ip}:{hour}"
    cache.add(key, 0, timeout=3600)
    try:
        made = cache.incr(key)
    except ValueError:  # evicted between add and incr: count this one
        cache.set(key, 1, timeout=3600)
        made = 1
    if made > settings.GUEST_CREATE_PER_HOUR:
        raise GuestLimit(retry_after=3600 - int(timezone.now().timestamp()) % 3600)
    User = get_user_model()
    for _ in range(5):
        username = GUEST_PREFIX + secrets.token_hex(3)
        if not User.objects.filter(username=username).exists():
            break
    languages = dict(settings.LANGUAGES)
    user = User.objects.create(username=username, is_guest=True,
                               language=language if language in languages else "")
    user.set_unusable_password()
    user.save(update_fields=["password"])
    return user


class UsernameTaken(ValueError):
    """Someone took the name (in any case) between the form's check and the write."""


def guest_claim(*, user, username: str, email: str, password: str):
    """Turn a guest into a full account in place, so its games stay its own. The caller
    validated the fields (accounts.forms.GuestClaimForm); a claim racing another for the
    same name (in any case) raises UsernameTaken and changes nothing."""
    if not user.is_guest:
        raise ValueError("only a guest account can be claimed")
    before = (user.username, user.email, user.password, user.is_guest)
    user.username = username
    user.email = email
    user.set_password(password)
    user.is_guest = False
    try:
        with transaction.atomic():
            user.save(update_fields=["username", "email", "password", "is_guest"])
    except IntegrityError:
        user.username, user.email, user.password, user.is_guest = before
        raise UsernameTaken(username) from None
    return user


def guests_remove_unused(*, now=None) -> int:
    """Delete guests that never took a seat and are older than GUEST_UNUSED_AFTER; returns
    how many. Guests with games are kept: their seats belong to those games' records."""
    now = now or timezone.now()
    User = get_user_model()
    Seat = User.seats.rel.related_model  # games' seats, through the relation: no import up
    # The guests (partial index user_guests), each checked for a seat by the seats' user
    # index: never a scan of every seat. A batch a run: the hourly job catches up.
    unused = User.objects.filter(
        is_guest=True, date_joined__lt=now - GUEST_UNUSED_AFTER,
    ).filter(~Exists(Seat.objects.filter(user=OuterRef("pk")))).order_by("date_joined")
    deleted = 0
    for user in unused[:GUEST_REMOVE_BATCH]:
        user.delete()
        deleted += 1
    return deleted


def sessions_clear_expired(*, now=None) -> int:
    """Delete expired sessions: `manage.py clearsessions`'s work. With sessions in the
    database (SessionStore.get_model_class, the documented hook of database-backed engines)
    in bounded batches on the expiry index, oldest first, so a backlog never holds one long
    DELETE; any other engine through its own SessionStore.clear_expired(). Returns the
    sessions deleted (0 when the engine does not tell)."""
    from importlib import import_module

    from lib.batches import rows_delete_in_batches

    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        store.clear_expired()  # cache and file engines expire theirs as they go
        return 0
    expired = store.get_model_class().objects.filter(expire_date__lt=now or timezone.now())
    return rows_delete_in_batches(expired, order_by="expire_date",
                                  batch=settings.PRUNE_BATCH,
                                  max_batches=settings.PRUNE_MAX_BATCHES)

