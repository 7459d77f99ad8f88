"""Rate limits: counted in the shared cache, one name per kind of request, in fixed windows
as django-ratelimit's (a key's window starts at an offset of its own).

Signed-in users (session or API token) are counted per user; anonymous requests per client
address, as allauth sees it (its trusted-proxy settings apply: docs/deployment.md).
The rates are ``settings.BLAZE_RATE_LIMITS``. A refusal is ``RateLimited``: the API answers
it with JSON, pages with a readable 429 page (blaze_site/errors.py), both with Retry-After.
"""

import hashlib
import logging
import threading
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


def _count(key: str, timeout: int, by: int = 1) -> int:
    """Add `by` to the window's shared counter; the new count."""
    store = caches[settings.RATELIMIT_USE_CACHE]
    if isinstance(store, SharedPoolRedisCache):
        return store.count(key, timeout, by)  # one round trip
    if store.add(key, by, timeout):
        return by
    return store.incr(key, by)


# A busy rate is counted in blocks: a process adds a block of counts to the shared counter
# in one round trip and spends them itself, so a player's moves (600 a minute allowed, one
# every few seconds made) cost a Redis round trip every BLOCK_SHARE-th of the limit, not
# each. Every count spent was added to the shared counter first, so together the processes
# never let through more than the limit; a block still unspent elsewhere only makes the
# refusal come that much early (at most 1/BLOCK_SHARE of the limit for each other process).
BLOCK_SHARE = 50
_blocks: dict[str, list] = {}  # window key -> [counts left, the window's end]
_blocks_lock = threading.Lock()
BLOCKS_KEPT = 10_000  # windows remembered; past that the ended ones are forgotten


def _spend(key: str, now: int) -> bool:
    """Take one count of this process's block for the window; False when none is left."""
    with _blocks_lock:
        block = _blocks.get(key)
        if block is None or block[0] <= 0 or block[1] <= now:
            return False
        block[0] -= 1
        return True


def _keep(key: str, left: int, end: int, now: int) -> None:
    with _blocks_lock:
        if left <= 0:
            _blocks.pop(key, None)
            return
        if len(_blocks) >= BLOCKS_KEPT:
            for ended in [k for k, (_n, e) in _blocks.items() if e <= now]:
                del _blocks[ended]
            if len(_blocks) >= BLOCKS_KEPT:
                _blocks.clear()  # counts lost are counted already: refusals come earlier
        _blocks[key] = [left, end]


def forget_blocks() -> None:
    """Drop this process's unspent blocks (the tests' clean slate)."""
    with _blocks_lock:
        _blocks.clear()


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
    limit = int(limit)
    block = max(1, limit // BLOCK_SHARE)
    if block > 1 and _spend(key, now):
        return
    try:
        count = _count(key, period + 1, block)
    except (OSError, RedisError, ValueError):
        # The shared cache is down (a Redis restart): a move must not fail for want of a
        # counter, so the limit is open until it is back. (ValueError: the counter
        # expired between add and incr, on a cache without the one-step count.)
        log.warning("rate limit %s not counted: the cache is unreachable", name)
        return
    granted = min(block, limit - (count - block))  # what of the block fits in the limit
    if granted <= 0:
        wait = end - now
        raise RateLimited(
            str(_MESSAGES[name]) + " " + _("Try again in %(n)s s.") % {"n": max(1, wait)},
            retry_after=wait,
        )
    if block > 1:
        _keep(key, granted - 1, end, now)  # this request takes one


def too_many_page(request, message: str, retry_after: int):
    response = render(request, "429.html", {"message": message, "retry_after": retry_after},
                      status=429)
    response["Retry-After"] = str(retry_after)
    return response


def too_many_json(message: str, retry_after: int) -> JsonResponse:
    response = JsonResponse({"error": message}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
