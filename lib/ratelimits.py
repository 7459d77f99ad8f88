"""Rate limits: counted in the shared cache, one name per kind of request, in fixed windows
as django-ratelimit's (a key's window starts at an offset of its own).

Signed-in users (session or API token) are counted per user; anonymous requests per client
address, as allauth sees it (its trusted-proxy settings apply: docs/deployment.md).
The rates are ``settings.BLAZE_RATE_LIMITS``. A refusal is ``RateLimited``: the API answers
it with JSON, pages with a readable 429 page (blaze_site/errors.py), both with Retry-After.
"""

import hashlib
import logging
import time
import zlib

from django.conf import settings
from django.core.cache import caches
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from redis.exceptions import RedisError

from .redis_cache import SharedPoolRedisCache

log = logging.getLogger(__name__)


class RateLimited(Exception):
    """Too many requests of one kind; ``retry_after`` in whole seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.message = message
        self.retry_after = max(1, int(retry_after))


_MESSAGES = {
    "game_create": gettext_lazy("You have created too many tables lately."),
    "record_import": gettext_lazy("You have imported too many records today."),
    "move": gettext_lazy("Too many moves in a short time."),
    "tournament_create": gettext_lazy("You have created too many tournaments today."),
    "anonymous_request": gettext_lazy("Too many requests from your address: sign in, or "
                                      "wait a little."),
}


def client_ip(request) -> str:
    """The client's address: allauth's reading, so logins and our limits agree."""
    from allauth.account.adapter import get_adapter  # needs the app registry

    return get_adapter(request).get_client_ip(request)


_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _who(request) -> str:
    user = request.user
    if user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(request)}"


def _window_end(who: str, period: int, now: int) -> int:
    """Windows of one key start at an offset of its own, so counters do not all restart
    at once."""
    if period == 1:
        return now + 1
    end = now - now % period + zlib.crc32(who.encode()) % period
    return end + period if end <= now else end


def _count(key: str, timeout: int) -> int:
    store = caches[settings.RATELIMIT_USE_CACHE]
    if isinstance(store, SharedPoolRedisCache):
        return store.count(key, timeout)  # one round trip
    if store.add(key, 1, timeout):
        return 1
    return store.incr(key)


def rate_limit_check(request, name: str) -> None:
    """Count one request of kind `name`; raise RateLimited when over the rate."""
    count_and_check(_who(request), name)


def rate_limit_user(user, name: str) -> None:
    """Count one request of kind `name` by this user, whichever entry it came through
    (page, API, socket): the services call this, so every entry meets the same limit."""
    count_and_check(f"user:{user.pk}", name)


def count_and_check(who: str, name: str) -> None:
    """Count one request of kind `name` by `who` ("user:<pk>", "ip:<address>")."""
    limit, unit = settings.BLAZE_RATE_LIMITS[name].split("/")
    period = _PERIODS[unit]
    now = int(time.time())
    end = _window_end(who, period, now)
    key = "rl:" + hashlib.sha256(f"blaze.{name}|{limit}/{period}s|{who}|{end}".encode()
                                 ).hexdigest()
    try:
        count = _count(key, period + 1)
    except (OSError, RedisError, ValueError):
        # The shared cache is down (a Redis restart): a move must not fail for want of a
        # counter, so the limit is open until it is back. (ValueError: the counter
        # expired between add and incr, on a cache without the one-step count.)
        log.warning("rate limit %s not counted: the cache is unreachable", name)
        return
    if count > int(limit):
        wait = end - now
        raise RateLimited(
            str(_MESSAGES[name]) + " " + _("Try again in %(n)s s.") % {"n": max(1, wait)},
            retry_after=wait,
        )


def too_many_page(request, message: str, retry_after: int):
    response = render(request, "429.html", {"message": message, "retry_after": retry_after},
                      status=429)
    response["Retry-After"] = str(retry_after)
    return response


def too_many_json(message: str, retry_after: int) -> JsonResponse:
    response = JsonResponse({"error": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
